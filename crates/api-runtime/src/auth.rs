//! Authentication before any handler runs: the credentials a caller sent
//! by one of the operation's security requirements, each checked by the
//! server's [`Authenticator`], or the error to send (a 401 with its
//! challenges, a 403 for a token without the scopes the operation needs).

use std::future::Future;

use crate::contract::{Contract, Requirement, Scheme};
use crate::credentials::{Credential, Sent};
use crate::problem::Problem;
use crate::reply::Reply;

/// Why a credential was not accepted.
#[derive(Debug)]
pub enum AuthError {
    /// Unknown, revoked, expired or malformed: 401.
    InvalidKey,
    /// A valid token that does not grant the scopes the operation needs
    /// (`Credential::Bearer`'s `scopes`): 403 (RFC 6750 §3.1).
    InsufficientScope,
    /// The credentials could not be checked (storage is down): 503.
    Unavailable(Problem),
    /// Anything else that went wrong: 500.
    Internal(Problem),
}

/// How a server checks credentials. The generated layer calls this before
/// any handler of a secured operation, once per scheme of the requirement
/// the caller chose (all must pass), and hands the principal of the first
/// to the handler.
pub trait Authenticator: Send + Sync + 'static {
    /// Who the caller is, once authenticated.
    type Principal: Send + Sync;

    fn authenticate(&self, credential: Credential) -> impl Future<Output = Result<Self::Principal, AuthError>> + Send;
}

/// What a 401 or 403 challenges the caller with (RFC 9110 §11.6.1,
/// RFC 6750 §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Challenge {
    /// No (usable) credential was sent.
    Missing,
    /// The credential of this scheme was sent but is not valid (the
    /// other schemes' challenges stay plain).
    InvalidToken(Scheme),
    /// A valid token lacks these scopes.
    InsufficientScope(&'static [&'static str]),
}

/// Why a request was not authenticated: the status and content of the
/// error to send.
#[derive(Debug)]
pub struct Rejection {
    pub status: u16,
    pub problem: Problem,
    challenge: Option<Challenge>,
}

impl Rejection {
    /// The reply to send: the operation's Error object (or RFC 9457
    /// problem details where it documents none), with a
    /// `WWW-Authenticate` challenge for each scheme the operation accepts
    /// on a 401, and for the scheme that lacked scopes on a 403.
    pub fn into_reply<C: Contract>(self) -> Reply<C> {
        let reply = Reply::problem_body(self.status, self.problem);
        match self.challenge {
            Some(challenge) => reply.with_challenges(C::operation().security, challenge),
            None => reply,
        }
    }
}

/// Authenticates a request by one of `security`'s requirements, or gives
/// the error to send. For an operation whose authentication is optional
/// (an empty requirement), see [`authenticate_optional`].
pub async fn authenticate_with<A: Authenticator>(
    authenticator: &A,
    request: &dropshot::RequestInfo,
    security: &'static [Requirement],
) -> Result<A::Principal, Rejection> {
    match authenticate_optional(authenticator, request, security).await? {
        Some(principal) => Ok(principal),
        None => Err(Rejection {
            status: 401,
            problem: Problem::new("unauthorized", "this operation needs credentials"),
            challenge: Some(Challenge::Missing),
        }),
    }
}

/// Authenticates a request by the first requirement whose credentials it
/// carries; `None` when it carries none and a requirement is empty (`{}`:
/// anonymous callers allowed). Credentials that are sent must be valid.
pub async fn authenticate_optional<A: Authenticator>(
    authenticator: &A,
    request: &dropshot::RequestInfo,
    security: &'static [Requirement],
) -> Result<Option<A::Principal>, Rejection> {
    let sent = Sent {
        headers: request.headers(),
        uri: request.uri(),
    };
    let complete = |r: &&Requirement| !r.0.is_empty() && r.0.iter().all(|need| sent.carries(&need.scheme));
    let partial = |r: &&Requirement| r.0.iter().any(|need| sent.carries(&need.scheme));
    let requirement = match security.iter().find(complete).or_else(|| security.iter().find(partial)) {
        Some(requirement) => requirement,
        None if security.iter().any(|r| r.0.is_empty()) => return Ok(None),
        // The first way, whose reading says what is missing.
        None => match security.first() {
            Some(first) => first,
            None => return Ok(None),
        },
    };
    let rejection = |status, problem, challenge| Rejection {
        status,
        problem,
        challenge,
    };
    let mut principal = None;
    for need in requirement.0 {
        let credential = sent
            .read(&need.scheme, need.scopes)
            .map_err(|reason| rejection(401, Problem::new("unauthorized", reason), Some(Challenge::Missing)))?;
        let this = authenticator
            .authenticate(credential)
            .await
            .map_err(|error| match error {
                AuthError::InvalidKey => rejection(
                    401,
                    Problem::new("unauthorized", invalid(&need.scheme)),
                    Some(Challenge::InvalidToken(need.scheme)),
                ),
                AuthError::InsufficientScope => rejection(
                    403,
                    Problem::new(
                        "insufficient_scope",
                        format!("this operation needs the scopes {}", need.scopes.join(", ")),
                    ),
                    Some(Challenge::InsufficientScope(need.scopes)),
                ),
                AuthError::Unavailable(problem) => rejection(503, problem, None),
                AuthError::Internal(problem) => rejection(500, problem, None),
            })?;
        principal.get_or_insert(this);
    }
    Ok(principal)
}

fn invalid(scheme: &Scheme) -> &'static str {
    match scheme {
        Scheme::Basic { .. } => "invalid user or password",
        _ => "invalid API key",
    }
}

/// The `WWW-Authenticate` challenge of a scheme. Bearer's is RFC 6750's:
/// no error code when no key was sent, `error="invalid_token"` for one
/// that is not valid, `error="insufficient_scope"` with the scopes needed.
/// Basic's names its realm (RFC 7617). An API key has no registered
/// scheme; its challenge names where the key goes.
pub(crate) fn challenge(scheme: &Scheme, challenge: Challenge) -> Option<String> {
    Some(match (scheme, challenge) {
        (Scheme::Bearer { .. }, Challenge::InvalidToken(failed)) if failed == *scheme => {
            "Bearer error=\"invalid_token\"".into()
        }
        (Scheme::Bearer { .. }, Challenge::Missing | Challenge::InvalidToken(_)) => "Bearer".into(),
        (Scheme::Bearer { .. }, Challenge::InsufficientScope(scopes)) => {
            format!("Bearer error=\"insufficient_scope\", scope=\"{}\"", scopes.join(" "))
        }
        // Only a bearer token carries scopes.
        (_, Challenge::InsufficientScope(_)) => return None,
        (Scheme::Basic { name }, _) => format!("Basic realm=\"{name}\", charset=\"UTF-8\""),
        (Scheme::ApiKeyHeader { header, .. }, _) => format!("ApiKey header=\"{header}\""),
        (Scheme::ApiKeyQuery { parameter, .. }, _) => format!("ApiKey query=\"{parameter}\""),
        (Scheme::ApiKeyCookie { cookie, .. }, _) => format!("ApiKey cookie=\"{cookie}\""),
    })
}

/// Every scheme of `security`, each once, in order.
pub(crate) fn schemes(security: &[Requirement]) -> Vec<Scheme> {
    let mut schemes: Vec<Scheme> = Vec::new();
    for need in security.iter().flat_map(|r| r.0) {
        if !schemes.contains(&need.scheme) {
            schemes.push(need.scheme);
        }
    }
    schemes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenges_follow_each_schemes_rfc() {
        let bearer = Scheme::Bearer { name: "oauth" };
        assert_eq!(challenge(&bearer, Challenge::Missing).unwrap(), "Bearer");
        assert_eq!(
            challenge(&bearer, Challenge::InvalidToken(bearer)).unwrap(),
            "Bearer error=\"invalid_token\""
        );
        let other = Scheme::ApiKeyQuery {
            name: "q",
            parameter: "key",
        };
        assert_eq!(
            challenge(&bearer, Challenge::InvalidToken(other)).unwrap(),
            "Bearer",
            "only the scheme whose credential failed says invalid_token"
        );
        assert_eq!(
            challenge(&bearer, Challenge::InsufficientScope(&["write:pets", "read:pets"])).unwrap(),
            "Bearer error=\"insufficient_scope\", scope=\"write:pets read:pets\""
        );
        let basic = Scheme::Basic { name: "accounts" };
        assert_eq!(
            challenge(&basic, Challenge::InvalidToken(basic)).unwrap(),
            "Basic realm=\"accounts\", charset=\"UTF-8\""
        );
        assert_eq!(challenge(&basic, Challenge::InsufficientScope(&["a"])), None);
        let cookie = Scheme::ApiKeyCookie {
            name: "session",
            cookie: "sid",
        };
        assert_eq!(challenge(&cookie, Challenge::Missing).unwrap(), "ApiKey cookie=\"sid\"");
    }
}
