//! Webhooks and callbacks compared: each document's receiver document
//! (`codegen::document::webhooks`), whose operations are compared as any
//! document's with the directions reversed (the service sends the
//! request, the receiver the response), each change named where the
//! webhook is written (`webhooks.shapeAdded.post...`).

use serde_json::Value;

use super::differ::{Change, Differ, unchanged_schemas};
use crate::codegen::document::webhooks::{Origin, receiver_document};

/// Every change to the webhooks and callbacks from `old` to `new`.
pub(super) fn diff(old: &Value, new: &Value, today: &str) -> Vec<Change> {
    let (Some((old_receiver, old_origins)), Some((new_receiver, new_origins))) = (receiver(old), receiver(new)) else {
        return removed_or_added(old, new, today);
    };
    diff_receivers(&old_receiver, &new_receiver, today, &new_origins, &old_origins)
}

/// When one side has no webhook at all: each of the other's is added or
/// removed, against an empty receiver.
fn removed_or_added(old: &Value, new: &Value, today: &str) -> Vec<Change> {
    let empty = serde_json::json!({"openapi": "3.0.3", "paths": {}});
    match (receiver(old), receiver(new)) {
        (Some((old_receiver, origins)), None) => diff_receivers(&old_receiver, &empty, today, &origins, &origins),
        (None, Some((new_receiver, origins))) => diff_receivers(&empty, &new_receiver, today, &origins, &origins),
        _ => Vec::new(),
    }
}

/// The changes from one receiver document to another, located by the new
/// document's origins (the old one's for a removal).
fn diff_receivers(
    old: &Value,
    new: &Value,
    today: &str,
    new_origins: &[Origin],
    old_origins: &[Origin],
) -> Vec<Change> {
    let mut differ = Differ {
        old,
        new,
        today,
        unchanged: unchanged_schemas(old, new),
        in_parameter: false,
        webhooks: true,
        changes: Vec::new(),
    };
    differ.operations();
    differ
        .changes
        .into_iter()
        .map(|change| at_origin(change, new_origins, old_origins))
        .collect()
}

/// A document's receiver document as JSON, with where each path comes from.
fn receiver(document: &Value) -> Option<(Value, Vec<Origin>)> {
    let yaml: serde_norway::Value = serde_json::from_value(document.clone()).ok()?;
    let receiver = receiver_document(&yaml)?;
    let text: serde_norway::Value = serde_norway::from_str(&receiver.text).ok()?;
    Some((serde_json::to_value(text).ok()?, receiver.origins))
}

/// `change` located where its webhook is written: `paths./shapeAdded.post`
/// becomes `webhooks.shapeAdded.post` (by the new document's origins, or
/// the old one's for a removal).
fn at_origin(mut change: Change, new: &[Origin], old: &[Origin]) -> Change {
    for origin in new.iter().chain(old) {
        let prefix = format!("paths.{}.", origin.path);
        if let Some(rest) = change.location.strip_prefix(&prefix) {
            change.location = format!("{}.{rest}", origin.location);
            break;
        }
    }
    change
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::designer::diff::Level;

    fn document(event: &str) -> Value {
        serde_norway::from_str(&format!(
            r#"
openapi: 3.0.3
info: {{title: t, version: 1.0.0}}
paths: {{}}
webhooks:
  shapeAdded:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [kind]
              properties:
                kind: {{type: string, enum: [{event}]}}
      responses: {{'204': {{description: ok}}}}
"#
        ))
        .unwrap()
    }

    /// A webhook's body flows to the receiver: a new enum value is what
    /// a response's would be (receivers may not expect it), and one taken
    /// away is no harm to them.
    #[test]
    fn a_webhooks_body_is_compared_as_what_its_receiver_receives() {
        let changes = diff(&document("circle"), &document("circle, square"), "2026-01-01");
        assert_eq!(changes.len(), 1, "{changes:?}");
        assert!(
            changes[0].location.starts_with("webhooks.shapeAdded.post.requestBody"),
            "{changes:?}"
        );
        assert_ne!(changes[0].level, Level::Compatible, "{changes:?}");
        let narrowed = diff(&document("circle, square"), &document("circle"), "2026-01-01");
        assert!(narrowed.iter().all(|c| c.level == Level::Compatible), "{narrowed:?}");
    }

    #[test]
    fn a_removed_webhook_is_named_where_it_was_written() {
        let mut without: Value = document("circle");
        without.as_object_mut().unwrap().remove("webhooks");
        let changes = diff(&document("circle"), &without, "2026-01-01");
        assert_eq!(changes.len(), 1, "{changes:?}");
        assert_eq!(changes[0].location, "webhooks.shapeAdded.post");
    }
}
