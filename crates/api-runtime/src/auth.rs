//! Authentication before any handler runs: the credentials a caller sent
//! by one of the operation's security requirements, each checked by the
//! server's [`Authenticator`], or the error to send (a 401 with its
//! challenges, a 403 for a token without the scopes the operation needs).

use std::future::Future;

use crate::challenge::Challenge;
use crate::contract::{Need, Requirement, Scheme};
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

    /// The check, made now where nothing needs waiting for (the keys in
    /// memory, say); `None` hands the credential to
    /// [`Authenticator::authenticate`]. The generated layer asks this
    /// first and boxes `authenticate`'s future only when it is needed:
    /// a request's future is moved whole when it starts (and its size
    /// decides how cheaply it is allocated), so a request checked here
    /// should not carry the one that waits. Without it, every check is
    /// `authenticate`'s, in a box of its own.
    fn authenticate_now(&self, _credential: &Credential<'_>) -> Option<Result<Self::Principal, AuthError>> {
        None
    }

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
    // Not a `match`: its scrutinee would be kept across the `await`.
    if let Some(decided) = authenticated_now(authenticator, request, security) {
        return decided;
    }
    // Boxed: see `Authenticator::authenticate_now`.
    Box::pin(authenticated_waiting(authenticator, request, security)).await
}

/// [`authenticate_optional`]'s answer where every credential is checked
/// by [`Authenticator::authenticate_now`]; `None` where one is not.
fn authenticated_now<A: Authenticator>(
    authenticator: &A,
    request: &dropshot::RequestInfo,
    security: &'static [Requirement],
) -> Option<Result<Option<A::Principal>, Rejection>> {
    let sent = sent(request);
    let Some(requirement) = chosen(&sent, security) else {
        return Some(Ok(None));
    };
    let mut principal = None;
    for need in requirement.0 {
        let credential = match sent.read(&need.scheme, need.scopes) {
            Ok(credential) => credential,
            Err(reason) => return Some(Err(missing(reason))),
        };
        match authenticator.authenticate_now(&credential)? {
            Ok(this) => principal.get_or_insert(this),
            Err(error) => return Some(Err(refused(need, error))),
        };
    }
    Some(Ok(principal))
}

/// [`authenticate_optional`]'s answer, each credential checked by
/// [`Authenticator::authenticate`].
async fn authenticated_waiting<A: Authenticator>(
    authenticator: &A,
    request: &dropshot::RequestInfo,
    security: &'static [Requirement],
) -> Result<Option<A::Principal>, Rejection> {
    let sent = sent(request);
    let Some(requirement) = chosen(&sent, security) else {
        return Ok(None);
    };
    let mut principal = None;
    for need in requirement.0 {
        let credential = sent.read(&need.scheme, need.scopes).map_err(missing)?;
        let this = authenticator
            .authenticate(credential)
            .await
            .map_err(|error| refused(need, error))?;
        principal.get_or_insert(this);
    }
    Ok(principal)
}

/// The requirement the request is checked by: the first whose credentials
/// it carries; `None` when it carries none and a requirement is empty.
fn chosen(sent: &Sent<'_>, security: &'static [Requirement]) -> Option<&'static Requirement> {
    let complete = |r: &&Requirement| !r.0.is_empty() && r.0.iter().all(|need| sent.carries(&need.scheme));
    let partial = |r: &&Requirement| r.0.iter().any(|need| sent.carries(&need.scheme));
    let requirement = match security {
        // One way to authenticate: the search below would choose it
        // whatever the request carries, and its header lookups are a cost
        // every request of most operations would pay.
        [only] if !only.0.is_empty() => Some(only),
        _ => security.iter().find(complete).or_else(|| security.iter().find(partial)),
    };
    match requirement {
        Some(requirement) => Some(requirement),
        None if security.iter().any(|r| r.0.is_empty()) => None,
        // The first way, whose reading says what is missing.
        None => security.first(),
    }
}

/// What the request carries that a credential may be read from.
fn sent(request: &dropshot::RequestInfo) -> Sent<'_> {
    Sent {
        headers: request.headers(),
        uri: request.uri(),
    }
}

/// A credential the chosen requirement needs is not in the request.
fn missing(reason: String) -> Rejection {
    Rejection::challenging(401, Problem::new("unauthorized", reason), Challenge::Missing)
}

/// The answer to a credential the authenticator did not accept.
fn refused(need: &Need, error: AuthError) -> Rejection {
    match error {
        AuthError::InvalidKey => Rejection::challenging(
            401,
            Problem::new("unauthorized", invalid(&need.scheme)),
            Challenge::InvalidToken(need.scheme),
        ),
        AuthError::InsufficientScope => Rejection::challenging(
            403,
            Problem::new(
                "insufficient_scope",
                format!("this operation needs the scopes {}", need.scopes.join(", ")),
            ),
            Challenge::InsufficientScope(need.scopes),
        ),
        AuthError::Unavailable(problem) => Rejection::new(503, problem),
        AuthError::Internal(problem) => Rejection::new(500, problem),
    }
}

fn invalid(scheme: &Scheme) -> &'static str {
    match scheme {
        Scheme::Basic { .. } => "invalid user or password",
        _ => "invalid API key",
    }
}
