//! Authentication before any handler runs: the credentials a caller sent
//! by one of the operation's security requirements, each checked by the
//! server's [`Authenticator`], or the error to send (a 401 with its
//! challenges, a 403 for a token without the scopes the operation needs).

use std::future::Future;

use crate::challenge::Challenge;
use crate::contract::{Requirement, Scheme};
use crate::credentials::{Credential, Sent};
use crate::problem::Problem;
use crate::rejection::Rejection;

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

    fn authenticate(
        &self,
        credential: Credential<'_>,
    ) -> impl Future<Output = Result<Self::Principal, AuthError>> + Send;
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
        None => Err(Rejection::challenging(
            401,
            Problem::new("unauthorized", "this operation needs credentials"),
            Challenge::Missing,
        )),
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
    let requirement = match security {
        // One way to authenticate: the search below would choose it
        // whatever the request carries, and its header lookups are a cost
        // every request of most operations would pay.
        [only] if !only.0.is_empty() => Some(only),
        _ => security.iter().find(complete).or_else(|| security.iter().find(partial)),
    };
    let requirement = match requirement {
        Some(requirement) => requirement,
        None if security.iter().any(|r| r.0.is_empty()) => return Ok(None),
        // The first way, whose reading says what is missing.
        None => match security.first() {
            Some(first) => first,
            None => return Ok(None),
        },
    };
    let rejection = |status, problem, challenge: Option<Challenge>| match challenge {
        Some(challenge) => Rejection::challenging(status, problem, challenge),
        None => Rejection::new(status, problem),
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
