//! `WWW-Authenticate` challenges (RFC 9110 §11.6.1, RFC 6750 §3): what a
//! 401 or 403 answers each of the operation's schemes with.

use crate::contract::{Requirement, Scheme};

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
