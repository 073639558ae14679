//! Hand-written support for the generated layer: bearer keys, deferred path
//! parameters, and the error content a handler returns. Nothing here
//! depends on the spec; what depends on it is generated.

mod json;
mod not_allowed;
mod reply;

pub use json::{Json, JsonArrayWriter, JsonResponse};
pub use not_allowed::{ApiDescriptionError, method_not_allowed, methods_other_than};
pub use reply::Reply;

use std::fmt;
use std::future::Future;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

/// The content of an error response: the generated layer adds the status,
/// so the body's `status` always equals the HTTP status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Machine-readable, one of the codes the spec documents.
    pub code: String,
    /// For humans.
    pub message: String,
}

impl Problem {
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        Problem {
            code: code.into(),
            message: message.into(),
        }
    }
}

/// dropshot's own error codes (`Internal`, `ObjectNotFound`, ...) are not
/// the ones the spec documents, so the code comes from the status.
impl From<dropshot::HttpError> for Problem {
    fn from(error: dropshot::HttpError) -> Self {
        Problem {
            code: default_code(error.status_code.as_u16()).to_string(),
            message: error.external_message,
        }
    }
}

/// The documented code for an error dropshot raised.
fn default_code(status: u16) -> &'static str {
    match status {
        400 => "bad_request",
        401 => "unauthorized",
        404 => "not_found",
        405 => "method_not_allowed",
        503 => "service_unavailable",
        500..=599 => "internal_error",
        _ => "bad_request",
    }
}

/// The secret a caller sent as `Authorization: Bearer <key>`. Its `Debug`
/// hides the value, so it cannot end up in a log by accident.
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
    /// A key was sent but is not valid (the 401's challenge says so).
    invalid_token: bool,
}

impl Rejection {
    /// The reply to send, with the Error object `to_body` makes of the
    /// status and problem; a 401 carries its `WWW-Authenticate` challenge.
    pub fn into_reply<S, E: Serialize>(self, to_body: impl FnOnce(u16, Problem) -> E) -> Reply<S> {
        let (status, invalid_token) = (self.status, self.invalid_token);
        let reply = Reply::error(status, &to_body(status, self.problem));
        match invalid_token {
            true => reply.invalid_token(),
            false => reply,
        }
    }
}

/// Authenticates a request, or gives the error to send.
pub async fn authenticate<A: Authenticator>(
    authenticator: &A,
    headers: &http::HeaderMap,
) -> Result<A::Principal, Rejection> {
    let rejection = |status, problem, invalid_token| Rejection {
        status,
        problem,
        invalid_token,
    };
    let token = bearer_token(headers).map_err(|reason| rejection(401, Problem::new("unauthorized", reason), false))?;
    authenticator.authenticate(token).await.map_err(|error| match error {
        AuthError::InvalidKey => rejection(401, Problem::new("unauthorized", "invalid API key"), true),
        AuthError::Unavailable(problem) => rejection(503, problem, false),
        AuthError::Internal(problem) => rejection(500, problem, false),
    })
}

/// A path parameter whose parsing is deferred to the generated layer.
///
/// dropshot parses path parameters before the handler runs, which would
/// answer a malformed id with 400 before checking the key, and with
/// dropshot's own error body. This type always extracts, keeps the parse
/// result, and describes itself in the OpenAPI document exactly as `T`.
#[derive(Debug, Clone)]
pub struct PathParam<T> {
    raw: String,
    value: Result<T, String>,
}

impl<T> PathParam<T> {
    /// The parsed value, or the 400 content naming the parameter.
    pub fn into_value(self, name: &str) -> Result<T, Problem> {
        self.value.map_err(|reason| {
            let shown: String = self.raw.chars().take(64).collect();
            let ellipsis = if self.raw.chars().count() > 64 { "..." } else { "" };
            Problem::new(
                "invalid_parameter",
                format!("path parameter `{name}`: {shown:?}{ellipsis} {reason}"),
            )
        })
    }
}

impl<'de, T: PathValue> Deserialize<'de> for PathParam<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(deserializer)?;
        let value = T::parse_path(&raw);
        Ok(PathParam { raw, value })
    }
}

/// A type a path parameter can hold, with the syntax the spec's schema
/// allows: integers are `-?[0-9]+` (Rust's `FromStr` would also take `+5`).
pub trait PathValue: Sized + JsonSchema {
    fn parse_path(raw: &str) -> Result<Self, String>;
}

fn parse_integer<T: FromStr<Err = std::num::ParseIntError> + JsonSchema>(raw: &str) -> Result<T, String> {
    let digits = raw.strip_prefix('-').unwrap_or(raw);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("is not a valid {}: expected decimal digits", T::schema_name()));
    }
    raw.parse::<T>()
        .map_err(|e| format!("is not a valid {}: {e}", T::schema_name()))
}

impl PathValue for i64 {
    fn parse_path(raw: &str) -> Result<Self, String> {
        parse_integer(raw)
    }
}

impl PathValue for i32 {
    fn parse_path(raw: &str) -> Result<Self, String> {
        parse_integer(raw)
    }
}

impl PathValue for String {
    fn parse_path(raw: &str) -> Result<Self, String> {
        Ok(raw.to_string())
    }
}

impl<T: JsonSchema> JsonSchema for PathParam<T> {
    fn schema_name() -> String {
        T::schema_name()
    }

    fn is_referenceable() -> bool {
        T::is_referenceable()
    }

    fn json_schema(generator: &mut schemars::r#gen::SchemaGenerator) -> schemars::schema::Schema {
        T::json_schema(generator)
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
    fn path_param_defers_parse_errors() {
        let ok: PathParam<i64> = serde_json::from_value(serde_json::json!("42")).unwrap();
        assert_eq!(ok.into_value("orderId").unwrap(), 42);
        let negative: PathParam<i64> = serde_json::from_value(serde_json::json!("-3")).unwrap();
        assert_eq!(negative.into_value("orderId").unwrap(), -3);
        for raw in ["9223372036854775808", "+5", "", "-", "1e3", "0x10", " 1", "\u{661}"] {
            let bad: PathParam<i64> = serde_json::from_value(serde_json::json!(raw)).unwrap();
            let problem = bad.into_value("orderId").unwrap_err();
            assert_eq!(problem.code, "invalid_parameter", "{raw:?}");
            assert!(problem.message.contains("orderId"), "{}", problem.message);
        }
    }
}
