//! Security schemes the generated layer can check.

use serde_json::Value;

use crate::codegen::document::errors::SpecError;
use crate::codegen::document::model::{OperationRef, Spec, security_of};

/// Security is any of the schemes the generated layer reads: HTTP bearer
/// and basic, OAuth2 and OpenID Connect (a bearer token and the scopes),
/// and API keys in a header, the query or a cookie. A requirement may name
/// several (all must pass) or none (`{}`: optional).
pub(super) fn check_security(spec: &Spec, op: &OperationRef<'_>) -> Result<(), SpecError> {
    let (requirements, location) = security_of(spec, op);
    let Some(requirements) = requirements.and_then(Value::as_array) else {
        return Ok(());
    };
    for requirement in requirements {
        let Some(requirement) = requirement.as_object() else {
            return Err(SpecError::new(
                location,
                "a security requirement is an object of scheme names",
            ));
        };
        for name in requirement.keys() {
            let scheme = spec
                .json
                .pointer(&format!("/components/securitySchemes/{}", escape(name)));
            let Some(scheme) = scheme else {
                return Err(SpecError::new(
                    location,
                    format!("security scheme `{name}` is not declared in components.securitySchemes"),
                ));
            };
            check_scheme(name, scheme, &location)?;
        }
    }
    Ok(())
}

fn check_scheme(name: &str, scheme: &Value, location: &str) -> Result<(), SpecError> {
    let kind = scheme.get("type").and_then(Value::as_str);
    let http_scheme = scheme.get("scheme").and_then(Value::as_str).unwrap_or_default();
    let at = format!("components.securitySchemes.{name}");
    match kind {
        Some("http") if ["bearer", "basic"].contains(&http_scheme.to_ascii_lowercase().as_str()) => Ok(()),
        Some("http") => Err(SpecError::new(
            format!("{at}.scheme"),
            format!("HTTP `{http_scheme}` authentication is not mapped: bearer and basic are"),
        )),
        Some("oauth2" | "openIdConnect") => Ok(()),
        Some("apiKey") => {
            let key = scheme.get("name").and_then(Value::as_str).unwrap_or_default();
            match scheme.get("in").and_then(Value::as_str) {
                // `Authorization` may carry a key of a scheme of its own
                // (`Authorization: Token <jwt>`, RealWorld's); the media
                // type headers cannot.
                Some("header")
                    if ["accept", "content-type"].contains(&key.to_ascii_lowercase().as_str()) || key.is_empty() =>
                {
                    Err(SpecError::new(
                        format!("{at}.name"),
                        "an API key header needs a name of its own (not Accept or Content-Type)",
                    ))
                }
                Some("header" | "query" | "cookie") if !key.is_empty() => Ok(()),
                Some("header" | "query" | "cookie") => {
                    Err(SpecError::new(format!("{at}.name"), "an API key needs a name"))
                }
                _ => Err(SpecError::new(
                    format!("{at}.in"),
                    "an API key is in a header, the query or a cookie",
                )),
            }
        }
        _ => Err(SpecError::new(
            location,
            format!(
                "security scheme `{name}` is not one the generated layer reads (http bearer or basic, oauth2, \
                 openIdConnect, apiKey)"
            ),
        )),
    }
}

/// A JSON pointer segment.
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}
