//! The document's operations, as progenitor's input needs them: each
//! path item's operations to change, and the multipart ones left out
//! (progenitor's client cannot send them).

use openapiv3::{OpenAPI, ReferenceOr};

use crate::codegen::document::media;
use crate::codegen::document::{Spec, operation_slots, served_body};

/// A path item's operations, in openapiv3's order.
/// progenitor's client cannot send a multipart body: an operation whose
/// body the server reads as multipart is left out of the client (the
/// client's `LEFT_OUT_OF_THE_CLIENT` says which).
pub(super) fn without_multipart_operations(api: &mut OpenAPI, spec: &Spec) {
    let left_out = multipart_operations(spec);
    for (path, item) in api.paths.paths.iter_mut() {
        let ReferenceOr::Item(item) = item else { continue };
        for (method, slot) in operation_slots(item) {
            if left_out
                .iter()
                .any(|(m, p, _)| *m == method.to_uppercase() && p == path)
            {
                *slot = None;
            }
        }
    }
}

/// The operations whose body the server reads as multipart: method, path
/// and name.
pub(in crate::codegen::client_gen) fn multipart_operations(spec: &Spec) -> Vec<(String, String, String)> {
    spec.operations()
        .into_iter()
        .filter(|op| {
            let Some((body, _)) = spec.request_body(op).ok().flatten() else {
                return false;
            };
            let served = body["content"].as_object().and_then(|c| served_body(spec, c));
            served.is_some_and(|served| media::essence(served.primary.0) == "multipart/form-data")
        })
        .map(|op| {
            (
                op.method.to_uppercase(),
                op.path.to_string(),
                op.operation_id().to_string(),
            )
        })
        .collect()
}

pub(super) fn operations_mut(item: &mut openapiv3::PathItem) -> impl Iterator<Item = &mut openapiv3::Operation> {
    operation_slots(item).into_iter().filter_map(|(_, slot)| slot.as_mut())
}
