//! The document's operations, as progenitor's input needs them: each
//! path item's operations to change, and the multipart ones left out
//! (progenitor's client cannot send them).

use openapiv3::{OpenAPI, ReferenceOr};

use crate::codegen::spec::media;
use crate::codegen::spec::{Spec, served_body};

/// A path item's operations, in openapiv3's order.
/// progenitor's client cannot send a multipart body: an operation whose
/// body the server reads as multipart is left out of the client (the
/// client's `LEFT_OUT_OF_THE_CLIENT` says which).
pub(super) fn without_multipart_operations(api: &mut OpenAPI, spec: &Spec) {
    let left_out = multipart_operations(spec);
    for (path, item) in api.paths.paths.iter_mut() {
        let ReferenceOr::Item(item) = item else { continue };
        for (method, slot) in [
            ("get", &mut item.get),
            ("put", &mut item.put),
            ("post", &mut item.post),
            ("delete", &mut item.delete),
            ("options", &mut item.options),
            ("head", &mut item.head),
            ("patch", &mut item.patch),
            ("trace", &mut item.trace),
        ] {
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
    [
        &mut item.get,
        &mut item.put,
        &mut item.post,
        &mut item.delete,
        &mut item.options,
        &mut item.head,
        &mut item.patch,
        &mut item.trace,
    ]
    .into_iter()
    .flatten()
}
