//! Lint rules about what the generated layer does on its own: the
//! statuses it answers before or around a handler (which our specs
//! document, so that they carry the Error object rather than problem
//! details), and the media types it neither reads nor writes.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::finding::Severity;
use crate::codegen::document::media::served_response;
use crate::designer::spec_json::{items, resolve};

/// The security requirements that apply to `op`: its own, else the
/// document's.
fn requirements<'a>(doc: &'a Value, op: &'a Value) -> impl Iterator<Item = &'a serde_json::Map<String, Value>> {
    op.get("security")
        .or(doc.get("security"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
}

/// Whether a caller can get a 401: a requirement names a scheme (with an
/// optional `{}` beside it, a credential that is sent must still be valid).
pub(super) fn may_be_unauthorized(doc: &Value, op: &Value) -> bool {
    requirements(doc, op).any(|r| !r.is_empty())
}

/// The statuses the generated layer answers on its own, which an
/// operation should document.
pub(super) fn layer_statuses(
    doc: &Value,
    item: &Value,
    op: &Value,
    at: &str,
    responses: &serde_json::Map<String, Value>,
    find: &mut impl FnMut(Severity, String, &'static str, String),
) {
    let secured = may_be_unauthorized(doc, op);
    let has_parameters = items(op, "parameters").next().is_some() || items(item, "parameters").next().is_some();
    let has_body = op.get("requestBody").is_some();
    let scoped = requirements(doc, op).any(|r| r.values().any(|scopes| items_of(scopes) > 0));
    let negotiated = responses.iter().any(|(status, response)| {
        status.starts_with('2')
            && resolve(doc, response)
                .get("content")
                .and_then(Value::as_object)
                .is_some_and(|c| c.len() > 1)
    });
    let layer_statuses = [
        (
            secured,
            "5XX",
            "a secured operation",
            "credentials that cannot be checked",
        ),
        (
            has_parameters,
            "400",
            "an operation with parameters",
            "a malformed or invalid parameter",
        ),
        (
            has_body,
            "400",
            "an operation with a request body",
            "a malformed or invalid body",
        ),
        (
            has_body,
            "413",
            "an operation with a request body",
            "a body over the size limit",
        ),
        (
            has_body,
            "415",
            "an operation with a request body",
            "a body of another media type",
        ),
        (
            scoped,
            "403",
            "an operation that requires OAuth2 scopes",
            "a token without them",
        ),
        (
            negotiated,
            "406",
            "a response in several media types",
            "an `Accept` that allows none of them",
        ),
    ];
    let mut reported = BTreeSet::new();
    for (applies, key, what, why) in layer_statuses {
        let covered = responses.contains_key(key)
            || responses.contains_key(&format!("{}XX", &key[..1]))
            || responses.contains_key("default");
        if applies && !covered && reported.insert(key) {
            find(
                Severity::Error,
                format!("{at}.responses"),
                "layer-statuses",
                format!("{what} should document {key}: the generated layer sends it for {why}"),
            );
        }
    }
}

fn items_of(scopes: &Value) -> usize {
    scopes.as_array().map_or(0, Vec::len)
}

/// Media types a body or response lists that the layer does not read
/// (they get 415) or write (a request that accepts only those gets 406).
pub(super) fn media_types(
    doc: &Value,
    op: &Value,
    at: &str,
    find: &mut impl FnMut(Severity, String, &'static str, String),
) {
    let readable = crate::codegen::document::BODY_MEDIA_TYPES;
    let is_readable = crate::codegen::document::is_readable_body_type;
    if let Some(content) = op
        .get("requestBody")
        .map(|body| resolve(doc, body))
        .and_then(|body| body.get("content"))
        .and_then(Value::as_object)
        .filter(|c| c.len() > 1)
    {
        // XML is read beside JSON or a form of its schema, or alone.
        let structured = |media_type: &str| {
            crate::codegen::document::media::kind(media_type) == crate::codegen::document::media::MediaKind::Json
                || crate::codegen::document::media::essence(media_type) == "application/x-www-form-urlencoded"
        };
        let xml_read = |media_type: &str| {
            let schema = content[media_type].get("schema");
            let beside: Vec<&Value> = content
                .iter()
                .filter(|(other, _)| structured(other))
                .map(|(_, media)| media)
                .collect();
            beside.is_empty() || beside.iter().any(|media| media.get("schema") == schema)
        };
        for media_type in content.keys() {
            if !is_readable(media_type) || (crate::codegen::document::is_xml(media_type) && !xml_read(media_type)) {
                find(
                    Severity::Warning,
                    format!("{at}.requestBody.content.{media_type}"),
                    "media-types",
                    format!(
                        "the generated layer does not read `{media_type}`: a body of it gets 415 (it reads {readable})"
                    ),
                );
            }
        }
    }
    let responses: BTreeMap<&String, &Value> = op
        .get("responses")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .collect();
    for (status, response) in responses {
        let Some(content) = resolve(doc, response).get("content").and_then(Value::as_object) else {
            continue;
        };
        let Some(served) = served_response(content) else {
            continue;
        };
        for media_type in served.unserved {
            find(
                Severity::Warning,
                format!("{at}.responses.{status}.content.{media_type}"),
                "media-types",
                format!(
                    "the generated layer writes this response as {} only: a request that accepts only `{media_type}` gets 406",
                    std::iter::once(served.primary.0)
                        .chain(served.alternatives.iter().copied())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
    }
}
