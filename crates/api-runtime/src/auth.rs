//! Authentication before any handler runs: the credential a caller sent
//! by one of the operation's schemes, checked by the server's
//! [`Authenticator`], or the 401 to send (with its challenge).

use std::fmt;
use std::future::Future;

use crate::contract::{Contract, Scheme};
use crate::problem::Problem;
use crate::reply::Reply;

/// The secret a caller sent (`Authorization: Bearer <key>`, or an API-key
/// header). Its `Debug` hides the value, so it cannot end up in a log by
/// accident.
pub struct BearerToken(String);

impl BearerToken {
    pub fn secret(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for BearerToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BearerToken(<redacted>)")
    }
}

/// Reads the bearer token of a request. The scheme name is
/// case-insensitive (RFC 9110 §11.1); exactly one `Authorization` header
/// is accepted.
pub fn bearer_token(headers: &http::HeaderMap) -> Result<BearerToken, &'static str> {
    let mut values = headers.get_all(http::header::AUTHORIZATION).iter();
    let value = values
        .next()
        .ok_or("missing API key: send `Authorization: Bearer <API_KEY>`")?;
    if values.next().is_some() {
        return Err("more than one Authorization header");
    }
    let value = value
        .to_str()
        .map_err(|_| "the Authorization header is not visible ASCII")?;
    let (scheme, token) = value
        .split_once(' ')
        .ok_or("the Authorization header must be `Bearer <API_KEY>`")?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err("the Authorization scheme must be Bearer");
    }
    let token = token.trim_matches(' ');
    if token.is_empty() || token.contains([' ', '\t']) {
        return Err("the Authorization header must be `Bearer <API_KEY>`");
    }
    Ok(BearerToken(token.to_string()))
}

/// Reads an API key sent in a header of its own: the value alone. In
/// `Authorization` the key is the whole value, a scheme of the API's own
/// and its credential (`Token <jwt>`).
fn header_token(headers: &http::HeaderMap, header: &str) -> Result<BearerToken, String> {
    let mut values = headers.get_all(header).iter();
    let value = values
        .next()
        .ok_or_else(|| format!("missing API key: send `{header}: <API_KEY>`"))?;
    if values.next().is_some() {
        return Err(format!("more than one {header} header"));
    }
    let token = value
        .to_str()
        .map_err(|_| format!("the {header} header is not visible ASCII"))?
        .trim_matches(' ');
    let whole_value = header.eq_ignore_ascii_case("authorization");
    if token.is_empty() || token.contains('\t') || (!whole_value && token.contains(' ')) {
        return Err(format!("the {header} header must hold the API key alone"));
    }
    Ok(BearerToken(token.to_string()))
}

/// Why a key was not accepted.
#[derive(Debug)]
pub enum AuthError {
    /// Unknown, revoked or malformed: 401.
    InvalidKey,
    /// The keys could not be checked (storage is down): 503.
    Unavailable(Problem),
    /// Anything else that went wrong: 500.
    Internal(Problem),
}

/// How a server checks API keys. The generated layer calls this before any
/// handler of a secured operation, and hands the result to the handler.
pub trait Authenticator: Send + Sync + 'static {
    /// Who the caller is, once authenticated.
    type Principal: Send + Sync;

    fn authenticate(&self, token: BearerToken) -> impl Future<Output = Result<Self::Principal, AuthError>> + Send;
}

/// Why a request was not authenticated: the status and content of the
/// error to send.
#[derive(Debug)]
pub struct Rejection {
    pub status: u16,
    pub problem: Problem,
    /// A key was sent but is not valid (the challenge says so).
    invalid_token: bool,
}

impl Rejection {
    /// The reply to send: the operation's Error object (or RFC 9457
    /// problem details where it documents none); a 401 carries a
    /// `WWW-Authenticate` challenge for each scheme the operation accepts.
    pub fn into_reply<C: Contract>(self) -> Reply<C> {
        let reply = Reply::problem_body(self.status, self.problem);
        match self.status {
            401 => reply.with_challenges(C::operation().security, self.invalid_token),
            _ => reply,
        }
    }
}

/// Authenticates a request by its bearer key, or gives the error to send.
pub async fn authenticate<A: Authenticator>(
    authenticator: &A,
    headers: &http::HeaderMap,
) -> Result<A::Principal, Rejection> {
    const BEARER: &[Scheme] = &[Scheme::Bearer { name: "bearer" }];
    authenticate_with(authenticator, headers, BEARER).await
}

/// Authenticates a request by the first of `schemes` whose credential it
/// carries (the first scheme's, when it carries none), or gives the error
/// to send.
pub async fn authenticate_with<A: Authenticator>(
    authenticator: &A,
    headers: &http::HeaderMap,
    schemes: &[Scheme],
) -> Result<A::Principal, Rejection> {
    let rejection = |status, problem, invalid_token| Rejection {
        status,
        problem,
        invalid_token,
    };
    let sent = |scheme: &Scheme| match scheme {
        Scheme::Bearer { .. } => headers.contains_key(http::header::AUTHORIZATION),
        Scheme::ApiKeyHeader { header, .. } => headers.contains_key(*header),
    };
    let scheme = schemes.iter().find(|s| sent(s)).or(schemes.first());
    let token = match scheme {
        Some(Scheme::Bearer { .. }) => bearer_token(headers).map_err(str::to_string),
        Some(Scheme::ApiKeyHeader { header, .. }) => header_token(headers, header),
        None => Err("this operation has no security scheme to authenticate with".to_string()),
    };
    let token = token.map_err(|reason| rejection(401, Problem::new("unauthorized", reason), false))?;
    authenticator.authenticate(token).await.map_err(|error| match error {
        AuthError::InvalidKey => rejection(401, Problem::new("unauthorized", "invalid API key"), true),
        AuthError::Unavailable(problem) => rejection(503, problem, false),
        AuthError::Internal(problem) => rejection(500, problem, false),
    })
}

/// The `WWW-Authenticate` challenge of a scheme (RFC 9110 §11.6.1: every
/// 401 carries one). Bearer's is RFC 6750's: no error code when no key was
/// sent, `error="invalid_token"` for one that is not valid. An API-key
/// header has no registered scheme; its challenge names the header.
pub(crate) fn challenge(scheme: &Scheme, invalid_token: bool) -> String {
    match (scheme, invalid_token) {
        (Scheme::Bearer { .. }, false) => "Bearer".into(),
        (Scheme::Bearer { .. }, true) => "Bearer error=\"invalid_token\"".into(),
        (Scheme::ApiKeyHeader { header, .. }, _) => format!("ApiKey header=\"{header}\""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(values: &[&[u8]]) -> http::HeaderMap {
        let mut map = http::HeaderMap::new();
        for v in values {
            map.append(http::header::AUTHORIZATION, http::HeaderValue::from_bytes(v).unwrap());
        }
        map
    }

    #[test]
    fn bearer_scheme_is_case_insensitive() {
        for value in [&b"Bearer k1"[..], b"bearer k1", b"BEARER k1", b"Bearer   k1"] {
            assert_eq!(bearer_token(&headers(&[value])).unwrap().secret(), "k1", "{value:?}");
        }
    }

    #[test]
    fn malformed_authorization_is_rejected() {
        for value in [
            &b"Basic abc"[..],
            b"Bearer",
            b"Bearer ",
            b"Bearer a b",
            b"Bearer\tk1",
            b"k1",
            b"Bearer \xffk",
        ] {
            assert!(bearer_token(&headers(&[value])).is_err(), "{value:?}");
        }
        assert!(bearer_token(&headers(&[])).is_err());
        assert!(bearer_token(&headers(&[b"Bearer a", b"Bearer b"])).is_err());
    }

    #[test]
    fn token_debug_hides_the_secret() {
        let token = bearer_token(&headers(&[b"Bearer s3cret"])).unwrap();
        assert!(!format!("{token:?}").contains("s3cret"));
    }

    #[test]
    fn an_api_key_header_is_read_alone() {
        let mut map = http::HeaderMap::new();
        map.insert("x-api-key", http::HeaderValue::from_static("k1"));
        assert_eq!(header_token(&map, "X-API-Key").unwrap().secret(), "k1");
        map.append("x-api-key", http::HeaderValue::from_static("k2"));
        assert!(header_token(&map, "X-API-Key").is_err());
        assert!(header_token(&http::HeaderMap::new(), "X-API-Key").is_err());
        map.insert("x-api-key", http::HeaderValue::from_static("a b"));
        assert!(header_token(&map, "X-API-Key").is_err(), "a key alone has no space");
    }

    #[test]
    fn an_api_key_in_authorization_is_the_whole_value() {
        let mut map = http::HeaderMap::new();
        map.insert("authorization", http::HeaderValue::from_static("Token jwt.a.b"));
        assert_eq!(header_token(&map, "Authorization").unwrap().secret(), "Token jwt.a.b");
        map.insert("authorization", http::HeaderValue::from_static(" "));
        assert!(header_token(&map, "Authorization").is_err());
    }
}
