//! What the generator knows of one operation, read from the spec: its
//! parameters, success and error statuses, and deprecation headers. Every
//! construct it cannot map is refused here, with the spec location.

use heck::{ToPascalCase, ToSnakeCase};
use openapiv3::{OpenAPI, ReferenceOr, StatusCode};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::codegen::spec::{self, OperationRef, SpecError};

/// Everything the generator needs to know about one operation.
pub(super) struct Operation {
    pub(super) id: String,
    pub(super) fn_name: syn::Ident,
    pub(super) method: syn::Ident,
    pub(super) http_path: String,
    pub(super) tags: Vec<String>,
    pub(super) doc: String,
    pub(super) deprecated: bool,
    /// For a deprecated operation: the headers its success responses carry.
    pub(super) deprecation: Option<DeprecationHeaders>,
    pub(super) requires_auth: bool,
    pub(super) path_params: Vec<PathParam>,
    pub(super) success: Success,
    /// `(status, variant name, description)` for every error status,
    /// with `5XX` expanded to 500 and 503.
    pub(super) errors: Vec<(u16, syn::Ident, String)>,
}

/// `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) header values.
pub(super) struct DeprecationHeaders {
    pub(super) deprecation: String,
    pub(super) sunset: Option<String>,
}

pub(super) struct PathParam {
    pub(super) name: String,
    pub(super) field: syn::Ident,
    pub(super) ty: TokenStream,
    pub(super) doc: String,
}

pub(super) struct Success {
    pub(super) status: u16,
    pub(super) body: Option<TokenStream>,
    pub(super) description: String,
    /// The response headers the spec documents.
    pub(super) headers: Vec<String>,
}

pub(super) fn describe(spec: &OpenAPI, op: &OperationRef<'_>, base_path: &str) -> Result<Operation, SpecError> {
    let operation = op.operation;
    let id = op.operation_id().to_string();
    let location = op.location();
    let requires_auth = spec::requires_auth(spec, operation);

    let mut path_params = Vec::new();
    for (i, param) in operation.parameters.iter().enumerate() {
        let Some(openapiv3::Parameter::Path { parameter_data, .. }) = spec::resolve_parameter(spec, param) else {
            continue;
        };
        let location = format!("{location}.parameters.{i}");
        let openapiv3::ParameterSchemaOrContent::Schema(schema) = &parameter_data.format else {
            return Err(SpecError {
                location,
                message: "a path parameter needs a schema".into(),
            });
        };
        let ty = scalar_type(schema.as_item()).ok_or_else(|| SpecError {
            location: format!("{location}.schema"),
            message: "a path parameter must be an inline integer or string schema".into(),
        })?;
        path_params.push(PathParam {
            name: parameter_data.name.clone(),
            field: format_ident!("{}", parameter_data.name.to_snake_case()),
            ty,
            doc: parameter_data.description.clone().unwrap_or_default(),
        });
    }

    let mut success = None;
    let mut errors = Vec::new();
    for (status, response) in &operation.responses.responses {
        let key = spec::status_key(status);
        let response = spec::resolve_response(spec, response).expect("checked by spec::parse");
        let description = response.description.trim().to_string();
        match status {
            StatusCode::Code(code) if *code < 400 => {
                let body = spec::json_schema(response)
                    .map(|schema| {
                        body_type(schema).ok_or_else(|| SpecError {
                            location: format!("{location}.responses.{key}"),
                            message: "a success body must be a $ref to components.schemas, or an array of one".into(),
                        })
                    })
                    .transpose()?;
                let headers = response.headers.keys().cloned().collect();
                success = Some(Success {
                    status: *code,
                    body,
                    description,
                    headers,
                });
            }
            StatusCode::Code(code) => errors.push((*code, status_variant(*code), description)),
            StatusCode::Range(_) => {
                for code in [500, 503] {
                    errors.push((code, status_variant(code), description.clone()));
                }
            }
        }
    }
    let success = success.expect("checked by spec::parse");
    match (success.status, &success.body) {
        (204, Some(_)) => {
            return Err(SpecError {
                location: format!("{location}.responses.204"),
                message: "a 204 response has no body".into(),
            });
        }
        (200..=202, None) => {
            return Err(SpecError {
                location: format!("{location}.responses.{}", success.status),
                message: "this success status needs an application/json body".into(),
            });
        }
        _ => {}
    }

    // What the generated layer itself sends must be documented too.
    let documents = |code: u16| errors.iter().any(|(c, _, _)| *c == code);
    if requires_auth && !documents(401) {
        return Err(SpecError {
            location: format!("{location}.responses"),
            message: "a secured operation must document 401 (sent for a missing or invalid key)".into(),
        });
    }
    if requires_auth && !documents(500) {
        return Err(SpecError {
            location: format!("{location}.responses"),
            message: "a secured operation must document 5XX (sent when keys cannot be checked)".into(),
        });
    }
    if !path_params.is_empty() && !documents(400) {
        return Err(SpecError {
            location: format!("{location}.responses"),
            message: "an operation with path parameters must document 400 (sent for a malformed parameter)".into(),
        });
    }

    let deprecation = if operation.deprecated {
        Some(deprecation_headers(op, &success)?)
    } else {
        None
    };

    let doc = match (&operation.summary, &operation.description) {
        (Some(s), Some(d)) => format!("{}\n\n{}", s.trim(), d.trim()),
        (Some(s), None) => s.trim().to_string(),
        (None, Some(d)) => d.trim().to_string(),
        (None, None) => id.clone(),
    };
    Ok(Operation {
        fn_name: format_ident!("{}", id.to_snake_case()),
        method: format_ident!("{}", op.method.to_uppercase()),
        http_path: format!("{base_path}{}", op.path),
        tags: operation.tags.clone(),
        doc,
        deprecated: operation.deprecated,
        deprecation,
        requires_auth,
        path_params,
        success,
        errors,
        id,
    })
}

/// A deprecated operation's success responses carry `Deprecation: @<unix
/// time>` of its `x-deprecation-date` and, when `x-sunset` is set, `Sunset:
/// <HTTP-date>`; the spec must document both on the success response.
pub(super) fn deprecation_headers(op: &OperationRef<'_>, success: &Success) -> Result<DeprecationHeaders, SpecError> {
    let location = op.location();
    let date = |key: &str| -> Result<Option<chrono::NaiveDate>, SpecError> {
        let Some(value) = op.operation.extensions.get(key) else {
            return Ok(None);
        };
        let text = value.as_str().unwrap_or_default();
        chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d")
            .map(Some)
            .map_err(|_| SpecError {
                location: format!("{location}.{key}"),
                message: format!("`{value}` is not a date (YYYY-MM-DD)"),
            })
    };
    let deprecated_on = date("x-deprecation-date")?.ok_or_else(|| SpecError {
        location: location.clone(),
        message: "a deprecated operation needs `x-deprecation-date` (YYYY-MM-DD): the Deprecation header carries it"
            .into(),
    })?;
    let sunset = date("x-sunset")?;
    if sunset.is_some_and(|s| s < deprecated_on) {
        return Err(SpecError {
            location: format!("{location}.x-sunset"),
            message: "comes before x-deprecation-date".into(),
        });
    }
    let midnight = |d: chrono::NaiveDate| d.and_hms_opt(0, 0, 0).expect("midnight exists").and_utc();
    for (header, needed) in [("Deprecation", true), ("Sunset", sunset.is_some())] {
        if needed && !success.headers.iter().any(|h| h.eq_ignore_ascii_case(header)) {
            return Err(SpecError {
                location: format!("{location}.responses.{}.headers", success.status),
                message: format!("the server sends a `{header}` header on this deprecated operation: document it"),
            });
        }
    }
    Ok(DeprecationHeaders {
        deprecation: format!("@{}", midnight(deprecated_on).timestamp()),
        sunset: sunset.map(|d| midnight(d).format("%a, %d %b %Y %H:%M:%S GMT").to_string()),
    })
}

pub(super) fn scalar_type(schema: Option<&openapiv3::Schema>) -> Option<TokenStream> {
    use openapiv3::{IntegerFormat, SchemaKind, Type, VariantOrUnknownOrEmpty};
    match &schema?.schema_kind {
        SchemaKind::Type(Type::Integer(i)) => Some(match i.format {
            VariantOrUnknownOrEmpty::Item(IntegerFormat::Int32) => quote!(i32),
            _ => quote!(i64),
        }),
        SchemaKind::Type(Type::String(_)) => Some(quote!(::std::string::String)),
        _ => None,
    }
}

pub(super) fn body_type(schema: &ReferenceOr<openapiv3::Schema>) -> Option<TokenStream> {
    let named = |reference: &str| {
        let name = format_ident!("{}", reference.strip_prefix("#/components/schemas/")?.to_pascal_case());
        Some(quote!(types::#name))
    };
    match schema {
        ReferenceOr::Reference { reference } => named(reference),
        ReferenceOr::Item(item) => match &item.schema_kind {
            openapiv3::SchemaKind::Type(openapiv3::Type::Array(array)) => match array.items.as_ref()? {
                ReferenceOr::Reference { reference } => {
                    let inner = named(reference)?;
                    Some(quote!(::std::vec::Vec<#inner>))
                }
                ReferenceOr::Item(_) => None,
            },
            _ => None,
        },
    }
}

/// The variant name of a status: its reason phrase in PascalCase.
pub(super) fn status_variant(code: u16) -> syn::Ident {
    let name = match code {
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
