//! `multipart/form-data` bodies: which properties of the schema are files
//! (`type: string, format: binary`, or lists of them), kept as bytes, and
//! the schema of the others, the text fields the handler gets typed
//! (`runtime::Multipart`). A schema that is itself `format: binary` (as
//! dropshot writes its multipart bodies) is the whole body: every part is
//! a file, as is one that names no part (`{}`).

use serde_json::{Map, Value};

use super::errors::SpecError;
use super::model::{Spec, required_names};

/// A multipart body's shape.
#[derive(Debug, PartialEq)]
pub enum Multipart<'a> {
    /// Every part is a file.
    Whole,
    /// The files by name (a list, required), and the schema of the text
    /// fields: the object without its file properties.
    Fields {
        files: Vec<(&'a str, bool, bool)>,
        fields: Value,
    },
}

/// The shape of a multipart body of `schema`, or why it has none.
pub fn multipart<'a>(spec: &'a Spec, schema: &'a Value, location: &str) -> Result<Multipart<'a>, SpecError> {
    let resolved = spec.resolve_schema(schema);
    // A schema that names no part (`{}`, an object of no properties)
    // allows any: every part a file, as sent.
    let names_no_part =
        resolved.get("properties").is_none() && resolved.get("type").is_none_or(|ty| ty.as_str() == Some("object"));
    if is_binary(resolved) || names_no_part {
        return Ok(Multipart::Whole);
    }
    let Some(properties) = resolved.get("properties").and_then(Value::as_object) else {
        return Err(SpecError::new(
            location,
            "a multipart body's schema must be an object with properties, or `{type: string, format: binary}`",
        ));
    };
    let required = required_names(resolved);
    let mut files = Vec::new();
    let mut fields = Map::new();
    for (name, property) in properties {
        let property_resolved = spec.resolve_schema(property);
        let list = property_resolved.get("type").and_then(Value::as_str) == Some("array");
        let file = match list {
            true => property_resolved
                .get("items")
                .is_some_and(|items| is_binary(spec.resolve_schema(items))),
            false => is_binary(property_resolved),
        };
        match file {
            true => files.push((name.as_str(), list, required.contains(&name.as_str()))),
            false => {
                fields.insert(name.clone(), property.clone());
            }
        }
    }
    let mut object = resolved.as_object().cloned().unwrap_or_default();
    let text_required: Vec<Value> = required
        .iter()
        .filter(|name| fields.contains_key(**name))
        .map(|name| Value::String(name.to_string()))
        .collect();
    object.insert("properties".into(), Value::Object(fields));
    match text_required.is_empty() {
        true => object.remove("required"),
        false => object.insert("required".into(), Value::Array(text_required)),
    };
    Ok(Multipart::Fields {
        files,
        fields: Value::Object(object),
    })
}

/// `{type: string, format: binary}`: a file's bytes.
fn is_binary(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("string")
        && schema.get("format").and_then(Value::as_str) == Some("binary")
}
