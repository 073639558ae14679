//! The document's operations, as progenitor's input needs them: each
//! path item's operations to change, and the multipart ones as bodies of
//! bytes or left out (progenitor's client cannot send them).

use openapiv3::{OpenAPI, ReferenceOr};

use crate::codegen::document::media;
use crate::codegen::document::{OperationRef, Spec, SpecError, operation_slots, served_body};

/// What progenitor gets of an operation whose body the server reads as
/// multipart, which progenitor's client cannot send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::codegen::client_gen) enum MultipartBodies {
    /// A body of bytes (`application/octet-stream`), so that progenitor
    /// writes the method, which `client_gen/multipart.rs` then makes take
    /// the operation's parts.
    AsBytes,
    /// Nothing: the operation is left out (the client's
    /// `LEFT_OUT_OF_THE_CLIENT` says which).
    LeftOut,
}

/// Each operation whose body the server reads as multipart, as
/// `multipart` says progenitor gets it.
pub(super) fn multipart_operations_for_progenitor(api: &mut OpenAPI, spec: &Spec, multipart: MultipartBodies) {
    let multiparts = multipart_operations(spec);
    for (path, item) in api.paths.paths.iter_mut() {
        let ReferenceOr::Item(item) = item else { continue };
        for (method, slot) in operation_slots(item) {
            if !multiparts
                .iter()
                .any(|(m, p, _)| *m == method.to_uppercase() && p == path)
            {
                continue;
            }
            match (multipart, slot.as_mut()) {
                (MultipartBodies::AsBytes, Some(operation)) => {
                    let required = match &operation.request_body {
                        Some(ReferenceOr::Item(body)) => body.required,
                        _ => true,
                    };
                    operation.request_body = Some(ReferenceOr::Item(bytes_body(required)));
                }
                _ => *slot = None,
            }
        }
    }
}

/// A required body of bytes.
fn bytes_body(required: bool) -> openapiv3::RequestBody {
    let schema = openapiv3::Schema {
        schema_data: Default::default(),
        schema_kind: openapiv3::SchemaKind::Type(openapiv3::Type::String(openapiv3::StringType {
            format: openapiv3::VariantOrUnknownOrEmpty::Item(openapiv3::StringFormat::Binary),
            ..Default::default()
        })),
    };
    let media = openapiv3::MediaType {
        schema: Some(ReferenceOr::Item(schema)),
        ..Default::default()
    };
    openapiv3::RequestBody {
        content: [("application/octet-stream".to_string(), media)].into_iter().collect(),
        required,
        ..Default::default()
    }
}

/// The operations whose body the server reads as multipart: method, path
/// and name.
pub(in crate::codegen::client_gen) fn multipart_operations(spec: &Spec) -> Vec<(String, String, String)> {
    spec.operations()
        .into_iter()
        .filter(|op| multipart_media(spec, op).ok().flatten().is_some())
        .map(|op| {
            (
                op.method.to_uppercase(),
                op.path.to_string(),
                op.operation_id().to_string(),
            )
        })
        .collect()
}

/// A path item's operations, in openapiv3's order.
pub(super) fn operations_mut(item: &mut openapiv3::PathItem) -> impl Iterator<Item = &mut openapiv3::Operation> {
    operation_slots(item).into_iter().filter_map(|(_, slot)| slot.as_mut())
}

/// The media type object of the body the server reads as multipart, and
/// where its schema is (`….content.multipart/form-data.schema`); `None`
/// where the body is not read as multipart.
pub(in crate::codegen::client_gen) fn multipart_media(
    spec: &Spec,
    op: &OperationRef<'_>,
) -> Result<Option<(serde_json::Value, String)>, SpecError> {
    let Some((body, location)) = spec.request_body(op)? else {
        return Ok(None);
    };
    let Some(served) = body["content"].as_object().and_then(|c| served_body(spec, c)) else {
        return Ok(None);
    };
    let (media_type, media) = served.primary;
    Ok((media::essence(media_type) == "multipart/form-data")
        .then(|| (media.clone(), format!("{location}.content.{media_type}.schema"))))
}
