//! What the document says of an operation's streamed response: its kind
//! and item type, and whether it resumes (`Last-Event-ID`); read by the
//! positional methods and the builders' alike.

use heck::ToPascalCase;
use quote::format_ident;

use crate::codegen::document::media::{served_response, stream_item_schema, stream_kind};
use crate::codegen::document::{OperationRef, Spec, SpecError, is_error_key};

/// The operation's streamed success response: its kind, and the item
/// schema's component name (when it is one).
pub(super) fn streamed(
    spec: &Spec,
    op: &OperationRef<'_>,
) -> Result<Option<(&'static str, Option<String>)>, SpecError> {
    for (key, response, _) in spec.responses(op)? {
        if is_error_key(&key) || !key.starts_with('2') {
            continue;
        }
        let Some(served) = response["content"].as_object().and_then(served_response) else {
            continue;
        };
        let (media_type, media) = served.primary;
        let Some(kind) = stream_kind(media_type) else { continue };
        let schema = stream_item_schema(media);
        let component = schema
            .and_then(|s| s.get("$ref"))
            .and_then(|r| r.as_str())
            .and_then(|r| r.strip_prefix("#/components/schemas/"))
            .map(str::to_string);
        return Ok(Some((kind, component)));
    }
    Ok(None)
}

/// The Rust type of a stream's items: the item schema's component, or
/// any JSON value.
pub(super) fn item_type(item: Option<String>) -> syn::Type {
    match item {
        Some(name) => {
            let ident = format_ident!("{}", name.to_pascal_case());
            syn::parse_quote!(types::#ident)
        }
        None => syn::parse_quote!(::serde_json::Value),
    }
}

/// Whether the operation takes a `Last-Event-ID` header.
pub(super) fn resumes(spec: &Spec, op: &OperationRef<'_>) -> bool {
    spec.parameters(op).ok().into_iter().flatten().any(|(parameter, _)| {
        parameter["in"] == "header"
            && parameter["name"]
                .as_str()
                .is_some_and(|name| name.eq_ignore_ascii_case("last-event-id"))
    })
}
