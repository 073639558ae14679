//! Request bodies documented under a media range alone (`*/*`, as
//! converters from Swagger 2.0 write a body whose `consumes` was not
//! given) with the schema of a JSON value: what a client sends there is
//! that value as JSON, which the range allows, so the body is read as
//! `application/json`. A range over bytes or text stays a range. A body
//! without content (`content: {}`, or none), which says a request has a
//! body but not what it holds, is any body: `*/*`, bytes.

use serde_norway::{Mapping, Value};

use super::values::key_text;
use crate::codegen::document::media::{self, MediaKind};

/// Reads a request body without content as any body (`*/*`).
pub(super) fn any_body_without_content(body: &mut Value, at: &str, note: &mut impl FnMut(String, &str)) {
    let Value::Mapping(body) = body else {
        return;
    };
    if body.contains_key("$ref")
        || body
            .get("content")
            .and_then(Value::as_mapping)
            .is_some_and(|c| !c.is_empty())
    {
        return;
    }
    let mut bytes = Mapping::new();
    bytes.insert("type".into(), "string".into());
    bytes.insert("format".into(), "binary".into());
    let mut media = Mapping::new();
    media.insert("schema".into(), Value::Mapping(bytes));
    let mut content = Mapping::new();
    content.insert("*/*".into(), Value::Mapping(media));
    body.insert("content".into(), Value::Mapping(content));
    note(
        format!("{at}.content"),
        "a request body without content (OpenAPI requires one): read as any body of any media type (`*/*`), as \
         nothing says what it holds",
    );
}

/// Reads `body`'s lone `*/*` or `application/*` as JSON where its schema
/// is a JSON value's (an object, an array, a number, a reference to a
/// component that is not a string).
pub(super) fn json_under_a_range(
    body: &mut Value,
    components: &Mapping,
    at: &str,
    note: &mut impl FnMut(String, &str),
) {
    let Some(Value::Mapping(content)) = body.get_mut("content") else {
        return;
    };
    if content.len() != 1 {
        return;
    }
    let (key, media) = content.iter().next().expect("one");
    let media_type = key_text(key);
    let range = media::kind(&media_type) == MediaKind::Range
        && ["*/*", "application/*"].contains(&media::essence(&media_type).as_str());
    if !range
        || !media
            .get("schema")
            .is_some_and(|schema| is_json_value(schema, components, 0))
    {
        return;
    }
    let media = media.clone();
    content.clear();
    content.insert("application/json".into(), media);
    note(
        format!("{at}.content.{media_type}"),
        "a media range alone over the schema of a JSON value: read as `application/json`, as clients send it",
    );
}

/// Whether `schema` describes a JSON value that is not a string (bytes and
/// text are what a range sends otherwise).
fn is_json_value(schema: &Value, components: &Mapping, depth: usize) -> bool {
    if depth > 8 {
        return false;
    }
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let Some(name) = reference.strip_prefix("#/components/schemas/") else {
            return false;
        };
        return components
            .get(name)
            .is_some_and(|target| is_json_value(target, components, depth + 1));
    }
    match schema.get("type").and_then(Value::as_str) {
        Some(ty) => ty != "string",
        None => ["properties", "items", "allOf", "oneOf", "anyOf"]
            .iter()
            .any(|key| schema.get(*key).is_some()),
    }
}
