//! Error responses: one arm of the response enum per documented error key.
//!
//! - A status (`404`) is a variant of its own; a range (`4XX`) or
//!   `default` is a variant that carries the status the handler chose,
//!   checked against what the key covers.
//! - A response whose body is the spec's Error object carries a
//!   [`runtime::Problem`], which the layer turns into that object (a `5XX`
//!   of it is two variants, 500 and 503, what servers send); any other
//!   body is the type of its own schema, sent as the handler gives it; a
//!   response without content has no body.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::Value;

use super::context::{Context, status_variant};
use crate::codegen::document::media::{self, MediaKind};
use crate::codegen::document::{OperationRef, SpecError, is_error_key};

pub(super) struct ErrorArm {
    /// `404`, `4XX` or `default`.
    pub(super) key: String,
    pub(super) statuses: Statuses,
    pub(super) variant: syn::Ident,
    pub(super) description: String,
    pub(super) body: ErrorBody,
    /// A body other than the Error object: its media type and the
    /// schema's static, for the table.
    pub(super) content: Option<(String, syn::Ident)>,
}

pub(super) enum Statuses {
    One(u16),
    /// The handler chooses, within `first..=last`.
    Range(u16, u16),
}

#[derive(Clone)]
pub(super) enum ErrorBody {
    /// The spec's Error object, filled by the layer.
    Problem,
    Json(TokenStream),
    Raw {
        media_type: String,
        ty: TokenStream,
    },
    /// A media range (`*/*`): bytes of the type the handler chooses.
    Range {
        media_type: String,
    },
    None,
}

/// The error keys an operation documents, in the spec's order, with the
/// variants each becomes. `error_schema` is the `$ref` of the Error object,
/// if the spec has one the layer can fill.
pub(super) fn describe_errors(
    cx: &mut Context<'_>,
    op: &OperationRef<'_>,
    error_schema: Option<&str>,
) -> Result<Vec<ErrorArm>, SpecError> {
    let id = op.operation_id();
    let mut arms: Vec<ErrorArm> = Vec::new();
    let responses = cx.spec.responses(op)?;
    let has_success = responses.iter().any(|(key, _, _)| key.starts_with('2'));
    for (key, response, location) in responses {
        if !is_error_key(&key) {
            continue;
        }
        let description = response["description"].as_str().unwrap_or_default().trim().to_string();
        let content = response
            .get("content")
            .and_then(Value::as_object)
            .and_then(|c| c.iter().next());
        let documented = match content {
            Some((media_type, media)) if !is_error_object(media, error_schema) => {
                let at = format!("{location}.content.{media_type}.schema");
                let any = Value::Object(Default::default());
                let schema = media.get("schema").unwrap_or(&any);
                let name = format!("{id}_error_{key}");
                Some((media_type.clone(), cx.schemas.add(&mut cx.names, &name, schema, &at)?))
            }
            _ => None,
        };
        let body = match content {
            None => ErrorBody::None,
            Some((media_type, media)) => {
                let schema = media
                    .get("schema")
                    .cloned()
                    .unwrap_or(Value::Object(Default::default()));
                let reference = schema.get("$ref").and_then(Value::as_str);
                let media_type = media_type.clone();
                match media::kind(&media_type) {
                    MediaKind::Json if reference.is_some() && reference == error_schema => ErrorBody::Problem,
                    MediaKind::Json => {
                        let at = format!("{location}.content.{media_type}.schema");
                        ErrorBody::Json(cx.types.add(&schema, &format!("{id}-{key}-error-body"), &at)?)
                    }
                    MediaKind::Text => ErrorBody::Raw {
                        media_type,
                        ty: quote!(::std::string::String),
                    },
                    MediaKind::Binary => ErrorBody::Raw {
                        media_type,
                        ty: quote!(runtime::Bytes),
                    },
                    MediaKind::Range => ErrorBody::Range { media_type },
                }
            }
        };
        let statuses: Vec<(Statuses, syn::Ident)> = match (key.as_str(), &body) {
            ("5XX", ErrorBody::Problem) => [500, 503]
                .into_iter()
                .map(|code| (Statuses::One(code), status_variant(code)))
                .collect(),
            // Without a 2xx, `default` stands for the success too.
            ("default", _) if !has_success => vec![(Statuses::Range(200, 599), format_ident!("Default"))],
            ("default", _) => vec![(Statuses::Range(400, 599), format_ident!("Default"))],
            (range, _) if range.ends_with("XX") => {
                let first = u16::from(range.as_bytes()[0] - b'0') * 100;
                let name = match first {
                    400 => "ClientError",
                    _ => "ServerError",
                };
                vec![(Statuses::Range(first, first + 99), format_ident!("{name}"))]
            }
            (code, _) => {
                let code: u16 = code.parse().unwrap_or(500);
                vec![(Statuses::One(code), status_variant(code))]
            }
        };
        for (statuses, variant) in statuses {
            let taken =
                |arms: &[ErrorArm], code: u16| arms.iter().any(|a| matches!(a.statuses, Statuses::One(c) if c == code));
            if let Statuses::One(code) = statuses
                && taken(&arms, code)
            {
                continue;
            }
            arms.push(ErrorArm {
                key: key.clone(),
                statuses,
                variant,
                description: description.clone(),
                body: body.clone(),
                content: documented.clone(),
            });
        }
    }
    Ok(arms)
}

/// Whether a media type object's body is the spec's Error object (JSON,
/// by `error_schema`'s reference).
fn is_error_object(media: &Value, error_schema: Option<&str>) -> bool {
    let reference = media.pointer("/schema/$ref").and_then(Value::as_str);
    reference.is_some() && reference == error_schema
}

/// The table's rows of the error responses whose body is not the Error
/// object, each key once.
pub(super) fn other_error_rows(arms: &[ErrorArm]) -> TokenStream {
    let mut seen: Vec<&str> = Vec::new();
    let rows = arms
        .iter()
        .filter(|arm| !matches!(arm.body, ErrorBody::Problem))
        .filter_map(|arm| {
            if seen.contains(&arm.key.as_str()) {
                return None;
            }
            seen.push(&arm.key);
            let (key, description) = (&arm.key, &arm.description);
            let content = match &arm.content {
                Some((media_type, schema)) => quote!(::std::option::Option::Some(runtime::Content {
                    media_type: #media_type,
                    alternatives: &[],
                    schema: &#schema,
                    doc_name: "",
                })),
                None => quote!(::std::option::Option::None),
            };
            Some(quote!(runtime::ErrorResponse { key: #key, description: #description, content: #content },))
        });
    let rows: Vec<TokenStream> = rows.collect();
    quote!(&[#(#rows)*])
}

/// The keys whose body is the Error object, for the operation's table.
pub(super) fn problem_keys(arms: &[ErrorArm]) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for arm in arms.iter().filter(|a| matches!(a.body, ErrorBody::Problem)) {
        if !keys.contains(&arm.key) {
            keys.push(arm.key.clone());
        }
    }
    keys
}

/// The arm's variant in the response enum.
pub(super) fn variant(arm: &ErrorArm) -> TokenStream {
    let variant = &arm.variant;
    let body = match &arm.body {
        ErrorBody::Problem => Some(quote!(runtime::Problem)),
        ErrorBody::Json(ty) => Some(quote!(#ty)),
        ErrorBody::Raw { ty, .. } => Some(ty.clone()),
        ErrorBody::Range { .. } => Some(quote!(runtime::Payload)),
        ErrorBody::None => None,
    };
    match (&arm.statuses, body) {
        (Statuses::One(code), body) => {
            let doc = format!("{code}: {}", arm.description);
            match body {
                Some(body) => quote!(#[doc = #doc] #variant(#body),),
                None => quote!(#[doc = #doc] #variant,),
            }
        }
        (Statuses::Range(first, last), body) => {
            let doc = format!("{} ({first}-{last}, the status given): {}", arm.key, arm.description);
            match body {
                Some(body) => quote!(#[doc = #doc] #variant { status: u16, body: #body },),
                None => quote!(#[doc = #doc] #variant { status: u16 },),
            }
        }
    }
}

/// The arm of `into_http` that sends the variant.
pub(super) fn reply_arm(arm: &ErrorArm, enum_name: &syn::Ident) -> TokenStream {
    let variant = &arm.variant;
    let has_body = !matches!(arm.body, ErrorBody::None);
    let reply = |status: TokenStream| match &arm.body {
        ErrorBody::Problem => quote!(runtime::Reply::problem(#status, problem)),
        ErrorBody::Json(_) => quote!(runtime::Reply::error(#status, &body)),
        ErrorBody::Raw { media_type, .. } => quote!(runtime::Reply::error_bytes(#status, #media_type, body)),
        ErrorBody::Range { media_type } => quote!(runtime::Reply::error_payload(#status, #media_type, body)),
        ErrorBody::None => quote!(runtime::Reply::error_empty(#status)),
    };
    let binding = match arm.body {
        ErrorBody::Problem => quote!(problem),
        _ => quote!(body),
    };
    match arm.statuses {
        Statuses::One(code) => {
            let reply = reply(quote!(#code));
            match has_body {
                true => quote!(#enum_name::#variant(#binding) => #reply,),
                false => quote!(#enum_name::#variant => #reply,),
            }
        }
        Statuses::Range(first, last) => {
            let reply = reply(quote!(status));
            let body = match arm.body {
                ErrorBody::None => None,
                ErrorBody::Problem => Some(quote!(body: problem)),
                _ => Some(quote!(body)),
            };
            quote! {
                #enum_name::#variant { status, #body } => runtime::Reply::within(status, #first, #last, |status| #reply),
            }
        }
    }
}
