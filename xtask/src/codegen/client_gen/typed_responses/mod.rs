//! Every documented response typed. progenitor gives an operation one
//! success type and one error type; where the bodies of its successes
//! (or of its errors) differ, `for_progenitor` hands them over as bytes
//! (`response_types.rs`) and progenitor's method returns a
//! `ResponseValue<ByteStream>` (or an `Error<ByteStream>`). This gives
//! each such operation an enum of its statuses in the client's
//! `responses` module (`<Op>Response` for the successes, `<Op>Error` for
//! the errors): a variant per documented status, holding its body
//! decoded (the schema's component type, any JSON value for an inline
//! schema, bytes for another media type) or nothing where the status has
//! no body. The method returns it; its match arms read each status with
//! `api-client-runtime`'s `responses`. An undocumented status stays
//! `Error::UnexpectedResponse`, with the status and the bytes.

use std::collections::BTreeSet;

use heck::{ToPascalCase, ToUpperCamelCase};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::Value;

use super::for_progenitor::TYPED_BODIES;
use super::methods::rewrite_methods;
use crate::codegen::document::media::{MediaKind, kind, served_response};
use crate::codegen::document::{OperationRef, Spec, SpecError};
use crate::codegen::namespace::Namespace;

mod arms;

const MODULE: &str = "responses";

/// Types each operation's successes and errors whose bodies differ.
/// `api` is the document progenitor was given: which component each
/// inline body was typed as is there (`for_progenitor`'s `TYPED_BODIES`).
pub fn type_responses(spec: &Spec, api: &openapiv3::OpenAPI, file: &mut syn::File) -> Result<(), SpecError> {
    let types = type_names(file);
    let mut names = Namespace::reserving([]);
    let mut enums = Vec::new();
    rewrite_methods(spec, file, |op| {
        let mut statuses = documented(spec, op)?;
        let typed_bodies = typed_bodies(api, op);
        for status in &mut statuses {
            if let (Body::Json(component @ None), Some(name)) = (&mut status.body, typed_bodies.get(&status.key)) {
                *component = name.as_str().map(str::to_string);
            }
        }
        // Beside an upgrade (101), progenitor's method has no success arm.
        if statuses.iter().any(|s| s.key == "101") {
            statuses.retain(|s| s.class != Class::Success);
        }
        let mut typed = Typed::default();
        for (class, suffix) in [(Class::Success, "Response"), (Class::Error, "Error")] {
            let of_class: Vec<&Status> = statuses.iter().filter(|s| s.class == class).collect();
            let shapes: BTreeSet<&String> = of_class.iter().map(|s| &s.shape).collect();
            if shapes.len() < 2 {
                continue;
            }
            let name = names.claim(&format!("{}{suffix}", op.operation_id().to_upper_camel_case()));
            let mut variants = Namespace::reserving([]);
            let variants: Vec<Variant> = of_class
                .iter()
                .map(|status| Variant {
                    key: status.key.clone(),
                    name: variants.claim(&variant_name(&status.key)),
                    body: status.body.typed(&types),
                    read: status.body.reader(),
                    description: status.description.clone(),
                })
                .collect();
            enums.push(status_enum(op, &name, class, &variants));
            match class {
                Class::Success => typed.success = Some((name, variants)),
                Class::Error => typed.error = Some((name, variants)),
            }
        }
        Ok((typed.success.is_some() || typed.error.is_some()).then_some(typed))
    })?;
    if !enums.is_empty() {
        let module = format_ident!("{MODULE}");
        file.items.push(syn::parse_quote! {
            /// Each operation's documented statuses whose bodies differ,
            /// one variant per status, as its method returns them.
            pub mod #module {
                #[allow(unused_imports)]
                use super::types;

                #(#enums)*
            }
        });
    }
    Ok(())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Success,
    Error,
}

/// One documented status of an operation.
struct Status {
    key: String,
    class: Class,
    /// What tells its body from another's: its media type and schema.
    shape: String,
    body: Body,
    description: Option<String>,
}

enum Body {
    None,
    /// JSON, of the component named (when it is one).
    Json(Option<String>),
    Bytes,
}

impl Body {
    /// The variant's payload type, if it has one.
    fn typed(&self, types: &BTreeSet<String>) -> Option<TokenStream> {
        match self {
            Body::None => None,
            Body::Json(Some(component)) if types.contains(&component.to_pascal_case()) => {
                let ident = format_ident!("{}", component.to_pascal_case());
                Some(quote!(types::#ident))
            }
            Body::Json(_) => Some(quote!(::serde_json::Value)),
            Body::Bytes => Some(quote!(::std::vec::Vec<u8>)),
        }
    }

    /// How the client reads it.
    fn reader(&self) -> Reader {
        match self {
            Body::None => Reader::Empty,
            Body::Json(_) => Reader::Json,
            Body::Bytes => Reader::Bytes,
        }
    }
}

/// The runtime's reader of a status's body (`responses::empty`, `json`,
/// `bytes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reader {
    Empty,
    Json,
    Bytes,
}

struct Variant {
    key: String,
    name: syn::Ident,
    body: Option<TokenStream>,
    read: Reader,
    description: Option<String>,
}

#[derive(Default)]
struct Typed {
    success: Option<(syn::Ident, Vec<Variant>)>,
    error: Option<(syn::Ident, Vec<Variant>)>,
}

/// The components the operation's inline bodies were typed as, by status.
fn typed_bodies(api: &openapiv3::OpenAPI, op: &OperationRef<'_>) -> serde_json::Map<String, Value> {
    let Some(openapiv3::ReferenceOr::Item(item)) = api.paths.paths.get(op.path) else {
        return Default::default();
    };
    let operation = item.iter().find(|(method, _)| method.eq_ignore_ascii_case(op.method));
    operation
        .map(|(_, operation)| operation)
        .and_then(|operation| operation.extensions.get(TYPED_BODIES))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

/// The names the client's `types` module declares.
fn type_names(file: &syn::File) -> BTreeSet<String> {
    let items = super::pages::types_module(file).into_iter().flatten();
    items
        .filter_map(|item| match item {
            syn::Item::Struct(s) => Some(s.ident.to_string()),
            syn::Item::Enum(e) => Some(e.ident.to_string()),
            syn::Item::Type(t) => Some(t.ident.to_string()),
            _ => None,
        })
        .collect()
}

/// The operation's documented statuses, `default` as an error.
fn documented(spec: &Spec, op: &OperationRef<'_>) -> Result<Vec<Status>, SpecError> {
    let mut statuses = Vec::new();
    for (key, response, _) in spec.responses(op)? {
        let class = match key.chars().next() {
            Some('2') => Class::Success,
            Some('4' | '5') => Class::Error,
            _ if key == "default" => Class::Error,
            _ => continue,
        };
        let served = response["content"].as_object().and_then(served_response);
        let (shape, body) = match served {
            None => (String::new(), Body::None),
            Some(served) => {
                let (media_type, media) = served.primary;
                let schema = media.get("schema").unwrap_or(&Value::Null);
                let body = match kind(media_type) {
                    MediaKind::Json => Body::Json(
                        schema["$ref"]
                            .as_str()
                            .and_then(|r| r.strip_prefix("#/components/schemas/"))
                            .map(str::to_string),
                    ),
                    _ => Body::Bytes,
                };
                (format!("{media_type} {schema}"), body)
            }
        };
        let body = match key.as_str() {
            // The server sends none, whatever the spec gives them.
            "204" | "205" => Body::None,
            _ => body,
        };
        statuses.push(Status {
            key,
            class,
            shape,
            body,
            description: response["description"].as_str().map(str::to_string),
        });
    }
    Ok(statuses)
}

/// A status's variant name: its reason phrase (`NotFound`), its class for
/// a range (`ClientError`), `Default`.
fn variant_name(key: &str) -> String {
    let reason = key
        .parse::<u16>()
        .ok()
        .and_then(|code| http::StatusCode::from_u16(code).ok())
        .and_then(|status| status.canonical_reason());
    match (reason, key) {
        (Some(reason), _) => reason.to_upper_camel_case(),
        (None, "1XX") => "Informational".into(),
        (None, "2XX") => "Success".into(),
        (None, "3XX") => "Redirection".into(),
        (None, "4XX") => "ClientError".into(),
        (None, "5XX") => "ServerError".into(),
        (None, "default") => "Default".into(),
        (None, other) => format!("Status{other}"),
    }
}

fn status_enum(op: &OperationRef<'_>, name: &syn::Ident, class: Class, variants: &[Variant]) -> TokenStream {
    let what = match class {
        Class::Success => "successes",
        Class::Error => "errors",
    };
    let doc = format!(" `{}`'s {what}, a variant per documented status.", op.operation_id());
    let variants = variants.iter().map(|variant| {
        let mut doc = format!(" `{}`", variant.key);
        if let Some(description) = &variant.description {
            doc.push_str(&format!(": {description}"));
        }
        let ident = &variant.name;
        match &variant.body {
            Some(ty) => quote!(#[doc = #doc] #ident(#ty)),
            None => quote!(#[doc = #doc] #ident),
        }
    });
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone)]
        pub enum #name {
            #(#variants,)*
        }
    }
}
