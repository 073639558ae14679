//! Security schemes the generated layer can check.

use serde_json::Value;

use crate::codegen::spec::{OperationRef, Spec, SpecError, security_of};

/// Security is HTTP bearer or an API key in a header (the schemes the
/// generated layer checks), any one of them, or explicitly none.
pub(super) fn check_security(spec: &Spec, op: &OperationRef<'_>) -> Result<(), SpecError> {
    let (requirements, location) = security_of(spec, op);
    let Some(requirements) = requirements.and_then(Value::as_array) else {
        return Ok(());
    };
    for requirement in requirements {
        let names: Vec<&String> = requirement.as_object().map(|r| r.keys().collect()).unwrap_or_default();
        let name = match names.as_slice() {
            [one] => *one,
            [] => {
                return Err(SpecError::new(
                    location,
                    "an empty requirement (`{}`, authentication optional) is not supported: use `security: []` for a public operation",
                ));
            }
            _ => {
                return Err(SpecError::new(
                    location,
                    "a requirement naming several schemes (all at once) is not supported; list alternatives as separate requirements",
                ));
            }
        };
        let scheme = spec.json.pointer(&format!("/components/securitySchemes/{name}"));
        let Some(scheme) = scheme else {
            return Err(SpecError::new(
                location,
                format!("security scheme `{name}` is not declared in components.securitySchemes"),
            ));
        };
        let kind = scheme.get("type").and_then(Value::as_str);
        let http_scheme = scheme.get("scheme").and_then(Value::as_str).unwrap_or_default();
        let place = scheme.get("in").and_then(Value::as_str);
        match (kind, place) {
            (Some("http"), _) if http_scheme.eq_ignore_ascii_case("bearer") => {}
            (Some("apiKey"), Some("header")) => {
                // `Authorization` may carry a key of a scheme of its own
                // (`Authorization: Token <jwt>`, RealWorld's); the media
                // type headers cannot.
                let header = scheme.get("name").and_then(Value::as_str).unwrap_or_default();
                if ["accept", "content-type"].contains(&header.to_ascii_lowercase().as_str()) || header.is_empty() {
                    return Err(SpecError::new(
                        format!("components.securitySchemes.{name}.name"),
                        "an API key header needs a name of its own (not Accept or Content-Type)",
                    ));
                }
            }
            _ => {
                return Err(SpecError::new(
                    location,
                    format!(
                        "security scheme `{name}` must be HTTP bearer or an API key in a header: the generated layer checks only those"
                    ),
                ));
            }
        }
    }
    Ok(())
}
