//! Request bodies documented under a media range alone (`*/*`, as
//! converters from Swagger 2.0 write a body whose `consumes` was not
//! given) with the schema of a JSON value: what a client sends there is
//! that value as JSON, which the range allows, so the body is read as
//! `application/json`. A range over bytes or text stays a range.

use serde_norway::{Mapping, Value};

use super::values::key_text;
use crate::codegen::document::media::{self, MediaKind};

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
