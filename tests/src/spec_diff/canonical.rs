//! Schemas brought to one form before they are compared, and flattened
//! into facts (`...properties.quantity.type = "integer"`), so a difference
//! is reported at the keyword where it is.
//!
//! Each step is an equivalence of OpenAPI 3.0 itself, not a dropshot limit
//! (those are in `normalize`): a `$ref`'s siblings are ignored, a keyword
//! at its default (`uniqueItems: false`) is absent, `required` is a set,
//! `1` and `1.0` are one number, text is compared with whitespace
//! collapsed.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// Annotations for XML and for further reading: dropshot's document
/// carries neither on a schema, and neither changes what is sent. And
/// `discriminator`: a dropshot limit, not an equivalence. schemars'
/// schema, which dropshot's document is built from, has no place for it,
/// so it is lost there; the generated layer reads it all the same
/// (crates/kitchen-sink/tests/integration/schemas.rs).
const NOT_COMPARED: [&str; 3] = ["xml", "externalDocs", "discriminator"];

/// Keywords that are false when absent.
const FALSE_BY_DEFAULT: [&str; 7] = [
    "exclusiveMinimum",
    "exclusiveMaximum",
    "uniqueItems",
    "nullable",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// A schema in the one form both documents are compared in.
pub fn schema(value: &Value) -> Value {
    let Value::Object(map) = value else {
        return value.clone();
    };
    if let Some(reference) = map.get("$ref") {
        return Value::Object(Map::from_iter([("$ref".to_string(), reference.clone())]));
    }
    let mut out = Map::new();
    for (key, inner) in map {
        let inner = match key.as_str() {
            k if FALSE_BY_DEFAULT.contains(&k) && inner == &Value::Bool(false) => continue,
            k if NOT_COMPARED.contains(&k) => continue,
            "properties" => Value::Object(
                inner
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(name, s)| (name.clone(), schema(s)))
                    .collect(),
            ),
            "items" | "not" => schema(inner),
            "additionalProperties" if inner.is_object() => schema(inner),
            "allOf" | "anyOf" | "oneOf" => Value::Array(inner.as_array().into_iter().flatten().map(schema).collect()),
            "required" => {
                let mut names: Vec<Value> = inner.as_array().cloned().unwrap_or_default();
                names.sort_by_key(|v| v.to_string());
                Value::Array(names)
            }
            _ => number(inner),
        };
        out.insert(key.clone(), inner);
    }
    Value::Object(out)
}

/// A number as a float when it has a fraction, as an integer otherwise.
fn number(value: &Value) -> Value {
    match value.as_f64() {
        Some(f) if value.is_number() && f.fract() == 0.0 && f.abs() < 9.0e15 => Value::from(f as i64),
        _ => value.clone(),
    }
}

/// A value's text as a fact: strings with whitespace collapsed.
pub fn text(value: Option<&Value>) -> String {
    match value {
        Some(Value::String(s)) => s.split_whitespace().collect::<Vec<_>>().join(" "),
        Some(other) => other.to_string(),
        None => String::new(),
    }
}

/// Every leaf of a (canonical) schema as `prefix.path = value`.
pub fn flatten(prefix: &str, value: &Value, facts: &mut BTreeMap<String, String>) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (key, inner) in map {
                let at = format!("{prefix}.{key}");
                match key.as_str() {
                    // Lists of values are one fact; lists of schemas, one per schema.
                    "required" | "enum" | "type" | "example" | "default" => {
                        facts.insert(at, text(Some(inner)));
                    }
                    "allOf" | "anyOf" | "oneOf" => {
                        for (i, item) in inner.as_array().into_iter().flatten().enumerate() {
                            flatten(&format!("{at}.{i}"), item, facts);
                        }
                    }
                    _ => flatten(&at, inner, facts),
                }
            }
        }
        other => {
            facts.insert(prefix.to_string(), text(Some(other)));
        }
    }
}

/// schemars' form of a schema (the generator's documentation form) in
/// OpenAPI's: exclusive bounds as booleans beside their bound.
pub fn from_doc_form(value: &Value) -> Value {
    let Value::Object(map) = value else {
        return value.clone();
    };
    let mut out = Map::new();
    for (key, inner) in map {
        match key.as_str() {
            "exclusiveMinimum" | "exclusiveMaximum" if inner.is_number() => {
                let bound = if key == "exclusiveMinimum" {
                    "minimum"
                } else {
                    "maximum"
                };
                out.insert(bound.to_string(), inner.clone());
                out.insert(key.clone(), Value::Bool(true));
            }
            "properties" => {
                let properties = inner
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(name, s)| (name.clone(), from_doc_form(s)))
                    .collect();
                out.insert(key.clone(), Value::Object(properties));
            }
            "items" | "not" | "additionalProperties" => {
                out.insert(key.clone(), from_doc_form(inner));
            }
            "allOf" | "anyOf" | "oneOf" => {
                let items = inner.as_array().into_iter().flatten().map(from_doc_form).collect();
                out.insert(key.clone(), Value::Array(items));
            }
            _ => {
                out.insert(key.clone(), inner.clone());
            }
        }
    }
    Value::Object(out)
}
