//! What the generator knows of one operation, read from the spec: its
//! security, parameters, body, success and error statuses, and the
//! deprecation headers. Every construct it cannot map is refused here (or
//! by the spec's checks), with the spec location.

use heck::{ToPascalCase, ToShoutySnakeCase, ToSnakeCase};
use quote::format_ident;
use serde_json::Value;

use super::bodies::{RequestBody, describe_body};
use super::parameters::{Parameter, describe_parameters};
use super::responses::{Success, describe_successes};
use super::schemas::Schemas;
use super::types::Types;
use crate::codegen::spec::{OperationRef, Spec, SpecError, is_error_key, security_of};

/// Everything the generator needs to know about one operation.
pub(super) struct Operation {
    pub(super) id: String,
    /// The marker type through which the runtime finds the table.
    pub(super) marker: syn::Ident,
    /// The static table's name.
    pub(super) table: syn::Ident,
    pub(super) fn_name: syn::Ident,
    pub(super) method: syn::Ident,
    pub(super) http_path: String,
    pub(super) tags: Vec<String>,
    pub(super) doc: String,
    pub(super) deprecated: bool,
    pub(super) deprecation: Option<DeprecationHeaders>,
    pub(super) security: Vec<SchemeRef>,
    pub(super) parameters: Vec<Parameter>,
    pub(super) body: Option<RequestBody>,
    pub(super) successes: Vec<Success>,
    /// The documented error keys (`400`, `5XX`), in the spec's order.
    pub(super) error_keys: Vec<String>,
    /// `(status, variant name, description)` for every error status,
    /// with `5XX` expanded to 500 and 503.
    pub(super) errors: Vec<(u16, syn::Ident, String)>,
}

impl Operation {
    pub(super) fn requires_auth(&self) -> bool {
        !self.security.is_empty()
    }

    pub(super) fn name_of(&self, part: &str) -> syn::Ident {
        format_ident!("{}{}", self.id.to_pascal_case(), part)
    }
}

/// A security scheme an operation accepts.
pub(super) enum SchemeRef {
    Bearer { name: String },
    ApiKeyHeader { name: String, header: String },
}

/// `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) header values.
pub(super) struct DeprecationHeaders {
    pub(super) deprecation: String,
    pub(super) sunset: Option<String>,
}

/// What building the model of an operation needs.
pub(super) struct Context<'a> {
    pub(super) spec: &'a Spec,
    pub(super) types: &'a mut Types,
    pub(super) schemas: &'a mut Schemas,
}

pub(super) fn describe(cx: &mut Context<'_>, op: &OperationRef<'_>, base_path: &str) -> Result<Operation, SpecError> {
    let operation = op.operation;
    let id = op.operation_id().to_string();
    let location = op.location();

    let security = security(cx.spec, op)?;
    let parameters = describe_parameters(cx, op)?;
    let body = describe_body(cx, op)?;
    let successes = describe_successes(cx, op)?;

    let mut error_keys = Vec::new();
    let mut errors = Vec::new();
    for (key, response, _) in cx.spec.responses(op)? {
        if !is_error_key(&key) {
            continue;
        }
        let description = response["description"].as_str().unwrap_or_default().trim().to_string();
        let codes: Vec<u16> = match key.parse() {
            Ok(code) => vec![code],
            // `5XX`: what the generated layer and handlers send.
            Err(_) => vec![500, 503],
        };
        for code in codes {
            if !errors.iter().any(|(c, _, _)| *c == code) {
                errors.push((code, status_variant(code), description.clone()));
            }
        }
        error_keys.push(key);
    }

    // What the generated layer itself sends must be documented too.
    let documents = |code: u16| errors.iter().any(|(c, _, _)| *c == code);
    let mut required = Vec::new();
    if !security.is_empty() {
        required.push((401, "a secured operation", "a missing or invalid key"));
        required.push((500, "a secured operation", "keys that cannot be checked (5XX)"));
    }
    if !parameters.is_empty() {
        required.push((400, "an operation with parameters", "a malformed or invalid parameter"));
    }
    if body.is_some() {
        required.push((400, "an operation with a request body", "a malformed or invalid body"));
        required.push((
            413,
            "an operation with a request body",
            "a body over the server's size limit",
        ));
        required.push((415, "an operation with a request body", "a body of another media type"));
    }
    for (code, what, why) in required {
        if !documents(code) {
            let key = if code == 500 {
                "5XX".to_string()
            } else {
                code.to_string()
            };
            return Err(SpecError::new(
                format!("{location}.responses"),
                format!("{what} must document {key} (the generated layer sends it for {why})"),
            ));
        }
    }

    let deprecation = match operation.deprecated {
        true => Some(deprecation_headers(op, &successes)?),
        false => None,
    };
    let doc = match (&operation.summary, &operation.description) {
        (Some(s), Some(d)) => format!("{}\n\n{}", s.trim(), d.trim()),
        (Some(s), None) => s.trim().to_string(),
        (None, Some(d)) => d.trim().to_string(),
        (None, None) => id.clone(),
    };
    Ok(Operation {
        marker: format_ident!("{}", id.to_pascal_case()),
        table: format_ident!("{}", id.to_shouty_snake_case()),
        fn_name: format_ident!("{}", id.to_snake_case()),
        method: format_ident!("{}", op.method.to_uppercase()),
        http_path: format!("{base_path}{}", op.path),
        tags: operation.tags.clone(),
        doc,
        deprecated: operation.deprecated,
        deprecation,
        security,
        parameters,
        body,
        successes,
        error_keys,
        errors,
        id,
    })
}

/// The schemes an operation accepts (checked by the spec's checks: each
/// requirement names one bearer or API-key-header scheme).
fn security(spec: &Spec, op: &OperationRef<'_>) -> Result<Vec<SchemeRef>, SpecError> {
    let (requirements, _) = security_of(spec, op);
    let mut schemes = Vec::new();
    for requirement in requirements.and_then(Value::as_array).into_iter().flatten() {
        for name in requirement.as_object().into_iter().flat_map(|r| r.keys()) {
            let scheme = &spec.json["components"]["securitySchemes"][name.as_str()];
            schemes.push(match scheme["type"].as_str() {
                Some("apiKey") => SchemeRef::ApiKeyHeader {
                    name: name.clone(),
                    header: scheme["name"].as_str().unwrap_or_default().to_string(),
                },
                _ => SchemeRef::Bearer { name: name.clone() },
            });
        }
    }
    Ok(schemes)
}

/// A deprecated operation's responses carry `Deprecation: @<unix time>` of
/// its `x-deprecation-date` and, when `x-sunset` is set, `Sunset:
/// <HTTP-date>`; the spec must document both on every success response.
fn deprecation_headers(op: &OperationRef<'_>, successes: &[Success]) -> Result<DeprecationHeaders, SpecError> {
    let location = op.location();
    let date = |key: &str| -> Result<Option<chrono::NaiveDate>, SpecError> {
        let Some(value) = op.operation.extensions.get(key) else {
            return Ok(None);
        };
        let text = value.as_str().unwrap_or_default();
        chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d")
            .map(Some)
            .map_err(|_| {
                SpecError::new(
                    format!("{location}.{key}"),
                    format!("`{value}` is not a date (YYYY-MM-DD)"),
                )
            })
    };
    let deprecated_on = date("x-deprecation-date")?.ok_or_else(|| {
        SpecError::new(
            &location,
            "a deprecated operation needs `x-deprecation-date` (YYYY-MM-DD): the Deprecation header carries it",
        )
    })?;
    let sunset = date("x-sunset")?;
    if sunset.is_some_and(|s| s < deprecated_on) {
        return Err(SpecError::new(
            format!("{location}.x-sunset"),
            "comes before x-deprecation-date",
        ));
    }
    let midnight = |d: chrono::NaiveDate| d.and_hms_opt(0, 0, 0).expect("midnight exists").and_utc();
    for success in successes {
        for (header, needed) in [("Deprecation", true), ("Sunset", sunset.is_some())] {
            if needed && !success.headers.iter().any(|h| h.name.eq_ignore_ascii_case(header)) {
                return Err(SpecError::new(
                    format!("{location}.responses.{}.headers", success.status),
                    format!("the server sends a `{header}` header on this deprecated operation: document it"),
                ));
            }
        }
    }
    Ok(DeprecationHeaders {
        deprecation: format!("@{}", midnight(deprecated_on).timestamp()),
        sunset: sunset.map(|d| midnight(d).format("%a, %d %b %Y %H:%M:%S GMT").to_string()),
    })
}

/// A Rust identifier for a name from the spec: snake case, never a
/// keyword, never starting with a digit.
pub(super) fn rust_field(name: &str) -> syn::Ident {
    let mut snake = name.to_snake_case();
    if snake.is_empty() || snake.starts_with(|c: char| c.is_ascii_digit()) {
        snake.insert(0, '_');
    }
    // Keywords, and the names the handler's own arguments take.
    if syn::parse_str::<syn::Ident>(&snake).is_err() || ["caller", "params", "body"].contains(&snake.as_str()) {
        snake.push('_');
    }
    format_ident!("{}", snake)
}

/// The variant name of a status: its reason phrase in PascalCase.
pub(super) fn status_variant(code: u16) -> syn::Ident {
    let name = match code {
        200 => "Ok",
        201 => "Created",
        202 => "Accepted",
        203 => "NonAuthoritativeInformation",
        204 => "NoContent",
        205 => "ResetContent",
        206 => "PartialContent",
        400 => "BadRequest",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "NotFound",
        405 => "MethodNotAllowed",
        406 => "NotAcceptable",
        409 => "Conflict",
        410 => "Gone",
        412 => "PreconditionFailed",
        413 => "PayloadTooLarge",
        415 => "UnsupportedMediaType",
        422 => "UnprocessableEntity",
        428 => "PreconditionRequired",
        429 => "TooManyRequests",
        500 => "InternalServerError",
        501 => "NotImplemented",
        502 => "BadGateway",
        503 => "ServiceUnavailable",
        504 => "GatewayTimeout",
        _ => return format_ident!("Status{code}"),
    };
    format_ident!("{name}")
}
