//! Webhooks (3.1's `webhooks`) and callbacks (an operation's `callbacks`,
//! 3.0 and 3.1): requests the service sends rather than serves.
//!
//! [`receiver_document`] reads them into a document of their own, each
//! operation at a path of the receiver, with the spec's components: the
//! receiver's contract is then generated as any server's (the same
//! checks, validation, per-operation refusals), and the sender from the
//! same tables. A webhook is served at `/<name>`; a callback at
//! `/<name>` followed by what its URL expression appends
//! (`{$request.query.callbackUrl}/data` → `/onData/data`), or at the path
//! of a literal URL.

use std::collections::BTreeSet;

use heck::ToSnakeCase;
use serde_norway::{Mapping, Value};

use super::METHODS;

/// The webhooks and callbacks of a document, as a document of their own.
pub struct ReceiverDocument {
    /// An OpenAPI 3.0 document (YAML) whose paths are the receiver's.
    pub text: String,
    /// Each receiver path, with where its operations are written in the
    /// source (`webhooks.shapeAdded`), and the URL a callback is sent to
    /// (its runtime expression), for the sender's documentation.
    pub origins: Vec<Origin>,
}

/// Where one receiver path comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// `/shapeAdded`.
    pub path: String,
    /// `webhooks.shapeAdded`, or
    /// `paths./streams.post.callbacks.onData.{$request.query.callbackUrl}/data`.
    pub location: String,
    /// A callback's URL expression; `None` for a webhook.
    pub expression: Option<String>,
}

/// The receiver's document of `document` (a 3.0 document, or a 3.1
/// document's rendering, which keeps `webhooks`); `None` when it has no
/// webhook and no callback.
pub fn receiver_document(document: &Value) -> Option<ReceiverDocument> {
    let mut paths = Mapping::new();
    let mut origins = Vec::new();
    let mut taken = BTreeSet::new();
    let mut add =
        |wanted: String, prefix: Option<String>, mut item: Mapping, origin: (String, Option<String>), name: &str| {
            let mut path = wanted.clone();
            if paths.contains_key(path.as_str()) {
                path = match &prefix {
                    Some(prefix) => format!("/{prefix}{wanted}"),
                    None => wanted.clone(),
                };
            }
            let base = path.clone();
            let mut n = 2;
            while paths.contains_key(path.as_str()) {
                path = format!("{base}-{n}");
                n += 1;
            }
            name_operations(&mut item, name, prefix.as_deref(), &mut taken);
            // The receiver's server is its own: the sender's servers say
            // nothing of it.
            item.shift_remove("servers");
            origins.push(Origin {
                path: path.clone(),
                location: origin.0,
                expression: origin.1,
            });
            paths.insert(path.into(), Value::Mapping(item));
        };
    if let Some(Value::Mapping(webhooks)) = document.get("webhooks") {
        for (name, item) in webhooks {
            let (Some(name), Value::Mapping(item)) = (name.as_str(), item) else {
                continue;
            };
            add(
                format!("/{}", path_segment(name)),
                None,
                item.clone(),
                (format!("webhooks.{name}"), None),
                name,
            );
        }
    }
    let components = document.get("components");
    if let Some(Value::Mapping(source_paths)) = document.get("paths") {
        for (path, item) in source_paths {
            let Some(path) = path.as_str() else { continue };
            for method in METHODS {
                let Some(op) = item.get(method) else { continue };
                let Some(Value::Mapping(callbacks)) = op.get("callbacks") else {
                    continue;
                };
                let op_name = op
                    .get("operationId")
                    .and_then(Value::as_str)
                    .map(path_segment)
                    .unwrap_or_else(|| format!("{method}{}", path_segment(path)));
                for (name, callback) in callbacks {
                    let Some(name) = name.as_str() else { continue };
                    let Some(callback) = follow_callback(callback, components) else {
                        continue;
                    };
                    for (expression, item) in &callback {
                        let (Some(expression), Value::Mapping(item)) = (expression.as_str(), item) else {
                            continue;
                        };
                        add(
                            receiver_path(name, expression),
                            Some(op_name.clone()),
                            item.clone(),
                            (
                                format!("paths.{path}.{method}.callbacks.{name}.{expression}"),
                                Some(expression.to_string()),
                            ),
                            name,
                        );
                    }
                }
            }
        }
    }
    if origins.is_empty() {
        return None;
    }
    let mut out = Mapping::new();
    out.insert("openapi".into(), "3.0.3".into());
    let title = document
        .get("info")
        .and_then(|info| info.get("title"))
        .and_then(Value::as_str)
        .unwrap_or("API");
    let version = document
        .get("info")
        .and_then(|info| info.get("version"))
        .cloned()
        .unwrap_or_else(|| "1.0.0".into());
    let mut info = Mapping::new();
    info.insert("title".into(), format!("{title} webhooks").into());
    info.insert(
        "description".into(),
        format!("The webhooks and callbacks of `{title}`: what a receiver serves.").into(),
    );
    info.insert("version".into(), version);
    out.insert("info".into(), Value::Mapping(info));
    out.insert("paths".into(), Value::Mapping(paths));
    // Every component, as the service's own contract has them: the same
    // schemas give the same Rust types, which the two then share.
    if let Some(components) = components {
        out.insert("components".into(), components.clone());
    }
    let text = serde_norway::to_string(&Value::Mapping(out)).ok()?;
    Some(ReceiverDocument { text, origins })
}

/// A callback object, or the `components.callbacks` entry it refers to.
fn follow_callback(callback: &Value, components: Option<&Value>) -> Option<Mapping> {
    let target = match callback.get("$ref").and_then(Value::as_str) {
        Some(reference) => {
            let name = reference.strip_prefix("#/components/callbacks/")?;
            components?.get("callbacks")?.get(name)?
        }
        None => callback,
    };
    target.as_mapping().cloned()
}

/// Where a receiver serves a callback named `name` sent to `expression`:
/// a literal URL's own path; otherwise `/<name>` and the path the
/// expression appends after its last runtime expression (up to a query).
fn receiver_path(name: &str, expression: &str) -> String {
    let own = format!("/{}", path_segment(name));
    if !expression.contains('{') {
        let after_scheme = expression.split_once("://").map_or(expression, |(_, rest)| rest);
        let path = after_scheme.find('/').map_or("", |at| &after_scheme[at..]);
        let path = path.split(['?', '#']).next().unwrap_or_default();
        return match path.is_empty() || path == "/" {
            true => own,
            false => path.to_string(),
        };
    }
    let suffix = expression.rsplit_once('}').map_or("", |(_, rest)| rest);
    let suffix = suffix.split(['?', '#']).next().unwrap_or_default();
    match suffix.starts_with('/') && suffix.len() > 1 {
        true => format!("{own}{}", suffix.trim_end_matches('/')),
        false => own,
    }
}

/// `name` as one path segment: what a URL path may hold as is, anything
/// else `-`.
fn path_segment(name: &str) -> String {
    name.chars()
        .map(|c| match c.is_ascii_alphanumeric() || "-._~".contains(c) {
            true => c,
            false => '-',
        })
        .collect()
}

/// Operations without an `operationId` are named after the webhook or
/// callback (`shapeAdded`; `shapeAdded_put` where it has several); a
/// callback whose name is taken (`taken`, in snake case) after the
/// operation that registers it too (`subscribe_shapeAdded`).
fn name_operations(item: &mut Mapping, name: &str, prefix: Option<&str>, taken: &mut BTreeSet<String>) {
    let methods: Vec<&str> = METHODS.into_iter().filter(|m| item.contains_key(*m)).collect();
    let several = methods.len() > 1;
    for method in methods {
        let Some(Value::Mapping(op)) = item.get_mut(method) else {
            continue;
        };
        if op.get("operationId").and_then(Value::as_str).is_none() {
            let mut id = match several {
                true => format!("{name}_{method}"),
                false => name.to_string(),
            };
            if let Some(prefix) = prefix
                && taken.contains(&id.to_snake_case())
            {
                id = format!("{prefix}_{id}");
            }
            op.insert("operationId".into(), id.into());
        }
        if let Some(id) = op.get("operationId").and_then(Value::as_str) {
            taken.insert(id.to_snake_case());
        }
        // A callback of a callback is the receiver's to send: not this
        // contract's.
        op.shift_remove("callbacks");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_callback_is_served_at_its_name_and_what_its_expression_appends() {
        assert_eq!(
            receiver_path("onData", "{$request.query.callbackUrl}/data"),
            "/onData/data"
        );
        assert_eq!(receiver_path("onData", "{$request.body#/url}"), "/onData");
        assert_eq!(
            receiver_path("onData", "{$request.body#/url}/v1/hook?x={$request.body#/id}"),
            "/onData"
        );
        assert_eq!(
            receiver_path("onData", "{$request.body#/url}/v1/hook?x=1"),
            "/onData/v1/hook"
        );
        assert_eq!(
            receiver_path("on data", "https://example.com/hooks/data?x=1"),
            "/hooks/data"
        );
        assert_eq!(receiver_path("on data", "https://example.com"), "/on-data");
    }

    #[test]
    fn webhooks_and_callbacks_become_paths_with_their_origins() {
        let document: Value = serde_norway::from_str(
            r#"
openapi: 3.0.3
info: {title: Shapes, version: 2.0.0}
paths:
  /subscriptions:
    post:
      operationId: subscribe
      callbacks:
        shapeAdded:
          '{$request.body#/url}':
            post:
              responses: {'204': {description: received}}
      responses: {'201': {description: subscribed}}
webhooks:
  shapeAdded:
    post:
      responses: {'200': {description: received}}
    put:
      operationId: replaceShape
      responses: {'200': {description: received}}
components:
  schemas:
    Shape: {type: object}
"#,
        )
        .unwrap();
        let receiver = receiver_document(&document).unwrap();
        let paths: Vec<&str> = receiver.origins.iter().map(|o| o.path.as_str()).collect();
        assert_eq!(paths, ["/shapeAdded", "/subscribe/shapeAdded"]);
        assert_eq!(
            receiver.origins[1].location,
            "paths./subscriptions.post.callbacks.shapeAdded.{$request.body#/url}"
        );
        assert_eq!(receiver.origins[1].expression.as_deref(), Some("{$request.body#/url}"));
        let doc: Value = serde_norway::from_str(&receiver.text).unwrap();
        assert_eq!(doc["info"]["title"], Value::from("Shapes webhooks"));
        assert_eq!(doc["info"]["version"], Value::from("2.0.0"));
        assert_eq!(
            doc["paths"]["/shapeAdded"]["post"]["operationId"],
            Value::from("shapeAdded_post")
        );
        assert_eq!(
            doc["paths"]["/shapeAdded"]["put"]["operationId"],
            Value::from("replaceShape")
        );
        assert_eq!(
            doc["paths"]["/subscribe/shapeAdded"]["post"]["operationId"],
            Value::from("shapeAdded"),
            "no other operation has its name"
        );
        assert!(doc["components"]["schemas"].get("Shape").is_some());
        assert!(doc.get("webhooks").is_none());
    }

    #[test]
    fn a_document_without_either_has_no_receiver() {
        let document: Value =
            serde_norway::from_str("openapi: 3.0.3\ninfo: {title: A, version: '1'}\npaths: {}\n").unwrap();
        assert!(receiver_document(&document).is_none());
    }
}
