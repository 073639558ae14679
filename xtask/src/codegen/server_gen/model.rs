//! What the generator knows of one operation, read from the spec: its
//! security, parameters, body, success and error statuses, and the
//! deprecation headers. Every construct it cannot map is refused here (or
//! by the spec's checks), with the spec location.

use heck::{ToPascalCase, ToShoutySnakeCase, ToSnakeCase};
use quote::format_ident;
use serde_json::Value;

use super::bodies::{RequestBody, describe_body};
use super::context::Context;
use super::errors::{ErrorArm, describe_errors, problem_keys};
use super::parameters::{Parameter, describe_parameters};
use super::responses::{Success, describe_successes};
use crate::codegen::document::{OperationRef, Spec, SpecError, security_of};

/// Everything the generator needs to know about one operation.
pub(super) struct Operation {
    pub(super) id: String,
    /// The marker type through which the runtime finds the table.
    pub(super) marker: syn::Ident,
    /// The names of its other types (`Path`, `Params`, `Response`,
    /// `<Variant>Headers`), each claimed in the module's namespace.
    pub(super) type_names: std::collections::BTreeMap<String, syn::Ident>,
    /// The static table's name.
    pub(super) table: syn::Ident,
    pub(super) fn_name: syn::Ident,
    pub(super) method: syn::Ident,
    pub(super) http_path: String,
    /// Whether dropshot's router cannot hold `http_path` beside the
    /// others, so that the runtime's dispatch serves it
    /// (`runtime::routing`): not an endpoint of the API trait.
    pub(super) routed: bool,
    pub(super) tags: Vec<String>,
    pub(super) doc: String,
    pub(super) deprecated: bool,
    pub(super) deprecation: Option<DeprecationHeaders>,
    /// The ways a caller may authenticate, any one of them; empty for a
    /// public operation.
    pub(super) security: Vec<Requirement>,
    pub(super) parameters: Vec<Parameter>,
    pub(super) body: Option<RequestBody>,
    pub(super) successes: Vec<Success>,
    /// The documented error keys (`400`, `5XX`) whose body is the Error
    /// object, in the spec's order.
    pub(super) error_keys: Vec<String>,
    /// The response enum's error variants.
    pub(super) errors: Vec<ErrorArm>,
}

impl Operation {
    pub(super) fn requires_auth(&self) -> bool {
        !self.security.is_empty()
    }

    /// Whether a caller may also come without credentials (an empty
    /// requirement, `{}`): the handler then gets an `Option`.
    pub(super) fn optional_auth(&self) -> bool {
        self.security.iter().any(|r| r.0.is_empty())
    }

    /// Whether the operation documents a WebSocket upgrade (`101`).
    pub(super) fn upgrades(&self) -> bool {
        self.successes.iter().any(|s| s.upgrade)
    }

    /// The name of its type `part` (`Params`), as [`describe`] claimed it.
    pub(super) fn name_of(&self, part: &str) -> syn::Ident {
        self.type_names
            .get(part)
            .unwrap_or_else(|| panic!("`{}` claims no `{part}` type", self.id))
            .clone()
    }
}

/// One way to authenticate: every scheme listed (with the scopes it
/// needs), or none for `{}`.
pub(super) struct Requirement(pub(super) Vec<(SchemeRef, Vec<String>)>);

/// A security scheme, as the runtime reads it (`runtime::Scheme`).
pub(super) enum SchemeRef {
    /// HTTP bearer, OAuth2 and OpenID Connect.
    Bearer {
        name: String,
    },
    Basic {
        name: String,
    },
    ApiKeyHeader {
        name: String,
        header: String,
    },
    ApiKeyQuery {
        name: String,
        parameter: String,
    },
    ApiKeyCookie {
        name: String,
        cookie: String,
    },
}

/// `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) header values.
pub(super) struct DeprecationHeaders {
    pub(super) deprecation: String,
    pub(super) sunset: Option<String>,
}

pub(super) fn describe(cx: &mut Context<'_>, op: &OperationRef<'_>, base_path: &str) -> Result<Operation, SpecError> {
    let operation = op.operation;
    let id = op.operation_id().to_string();

    let security = security(cx.spec, op)?;
    let parameters = describe_parameters(cx, op)?;
    let body = describe_body(cx, op)?;
    let successes = describe_successes(cx, op)?;

    // What the generated layer sends on its own (400, 401, 413, 415, 5XX)
    // need not be documented: an undocumented one goes out as RFC 9457
    // problem details, and `cargo xtask lint` holds our own specs to
    // documenting them.
    let error_ref = cx.error_ref.clone();
    let errors = describe_errors(cx, op, error_ref.as_deref())?;
    let error_keys = problem_keys(&errors);

    let deprecation = match operation.deprecated {
        true => deprecation_headers(op)?,
        false => None,
    };
    let doc = match (&operation.summary, &operation.description) {
        (Some(s), Some(d)) => format!("{}\n\n{}", s.trim(), d.trim()),
        (Some(s), None) => s.trim().to_string(),
        (None, Some(d)) => d.trim().to_string(),
        // Nothing for dropshot's document to take a summary from.
        (None, None) => String::new(),
    };
    // Every name the operation gives the module, claimed in document
    // order: the parts its Rust has, after its schemas' statics.
    let pascal = id.to_pascal_case();
    let marker = cx.names.claim(&pascal);
    let mut parts = vec!["Response".to_string()];
    if parameters.iter().any(Parameter::in_path) {
        parts.push("Path".into());
    }
    if parameters.iter().any(|p| !p.in_path()) {
        parts.push("Params".into());
    }
    parts.extend(
        successes
            .iter()
            .filter(|s| s.handler_headers().next().is_some())
            .map(|s| format!("{}Headers", s.variant)),
    );
    let type_names = parts
        .into_iter()
        .map(|part| {
            let name = cx.names.claim(&format!("{pascal}{part}"));
            (part, name)
        })
        .collect();
    Ok(Operation {
        marker,
        type_names,
        table: cx.names.claim(&id.to_shouty_snake_case()),
        fn_name: cx.methods.claim(&id.to_snake_case()),
        method: format_ident!("{}", op.method.to_uppercase()),
        http_path: format!("{base_path}{}", op.path),
        routed: false,
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

/// The ways an operation accepts callers (the schemes checked by the
/// spec's checks). Requirements that are all empty make it public.
fn security(spec: &Spec, op: &OperationRef<'_>) -> Result<Vec<Requirement>, SpecError> {
    let (requirements, _) = security_of(spec, op);
    let mut out = Vec::new();
    for requirement in requirements.and_then(Value::as_array).into_iter().flatten() {
        let mut needs = Vec::new();
        for (name, scopes) in requirement.as_object().into_iter().flatten() {
            let scheme = &spec.json["components"]["securitySchemes"][name.as_str()];
            let key = scheme["name"].as_str().unwrap_or_default().to_string();
            let name = name.clone();
            let scheme = match (scheme["type"].as_str(), scheme["in"].as_str()) {
                (Some("apiKey"), Some("query")) => SchemeRef::ApiKeyQuery { name, parameter: key },
                (Some("apiKey"), Some("cookie")) => SchemeRef::ApiKeyCookie { name, cookie: key },
                (Some("apiKey"), _) => SchemeRef::ApiKeyHeader { name, header: key },
                (Some("http"), _)
                    if scheme["scheme"]
                        .as_str()
                        .is_some_and(|s| s.eq_ignore_ascii_case("basic")) =>
                {
                    SchemeRef::Basic { name }
                }
                _ => SchemeRef::Bearer { name },
            };
            let scopes = scopes.as_array().into_iter().flatten();
            needs.push((scheme, scopes.filter_map(Value::as_str).map(str::to_string).collect()));
        }
        out.push(Requirement(needs));
    }
    if out.iter().all(|r| r.0.is_empty()) {
        out.clear();
    }
    Ok(out)
}

/// A deprecated operation's responses carry `Deprecation: @<unix time>` of
/// its `x-deprecation-date` (RFC 9745) and, when `x-sunset` is set,
/// `Sunset: <HTTP-date>` (RFC 8594). Without a deprecation date there is
/// nothing to send (the client's `#[deprecated]` still warns). Lint asks
/// our own specs for the date and for both headers documented.
fn deprecation_headers(op: &OperationRef<'_>) -> Result<Option<DeprecationHeaders>, SpecError> {
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
    let Some(deprecated_on) = date("x-deprecation-date")? else {
        return Ok(None);
    };
    let sunset = date("x-sunset")?;
    if sunset.is_some_and(|s| s < deprecated_on) {
        return Err(SpecError::new(
            format!("{location}.x-sunset"),
            "comes before x-deprecation-date",
        ));
    }
    let midnight = |d: chrono::NaiveDate| d.and_hms_opt(0, 0, 0).expect("midnight exists").and_utc();
    Ok(Some(DeprecationHeaders {
        deprecation: format!("@{}", midnight(deprecated_on).timestamp()),
        sunset: sunset.map(|d| midnight(d).format("%a, %d %b %Y %H:%M:%S GMT").to_string()),
    }))
}
