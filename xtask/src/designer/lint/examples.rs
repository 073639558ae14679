//! The lint rule that every example matches its schema: each `example`
//! and `examples.*.value`, wherever the document has one, checked against
//! the schema beside it.

use serde_json::Value;

use super::finding::Severity;
use crate::designer::spec_json::{items, resolve};

/// Checks every `example` (of a schema, parameter or media type) and every
/// `examples.*.value` against the schema beside it.
pub(super) fn examples(
    doc: &Value,
    at: &str,
    value: &Value,
    find: &mut impl FnMut(Severity, String, &'static str, String),
) {
    match value {
        Value::Object(map) => {
            // A schema's own example; a parameter's or media type's example
            // goes with their `schema`.
            let schema = if map.contains_key("type") || map.contains_key("properties") {
                Some(value)
            } else {
                map.get("schema")
            };
            if let Some(schema) = schema {
                let mut check = |location: String, example: &Value| {
                    if let Err(problem) = validate(doc, schema, example, 0) {
                        find(
                            Severity::Error,
                            location,
                            "examples",
                            format!("example does not match its schema: {problem}"),
                        );
                    }
                };
                if let Some(example) = map.get("example") {
                    check(join(at, "example"), example);
                }
                if schema != value {
                    for (name, example) in map.get("examples").and_then(Value::as_object).into_iter().flatten() {
                        if let Some(example_value) = resolve(doc, example).get("value") {
                            check(join(at, &format!("examples.{name}")), example_value);
                        }
                    }
                }
            }
            for (key, child) in map {
                if key != "example" && key != "examples" {
                    examples(doc, &join(at, key), child, find);
                }
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                examples(doc, &join(at, &i.to_string()), child, find);
            }
        }
        _ => {}
    }
}

fn join(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_string()
    } else {
        format!("{at}.{key}")
    }
}

/// The OpenAPI 3.0 schema subset this project uses: type, format (integer
/// sizes, date-time), enum, required, properties, items, nullable.
fn validate(doc: &Value, schema: &Value, value: &Value, depth: usize) -> Result<(), String> {
    let schema = resolve(doc, schema);
    if depth > 32 || schema.is_null() {
        return Ok(());
    }
    if value.is_null() {
        return match schema.get("nullable").and_then(Value::as_bool) {
            Some(true) => Ok(()),
            _ => Err("null where the schema is not nullable".into()),
        };
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array)
        && !allowed.contains(value)
    {
        return Err(format!("{value} is not one of {}", Value::Array(allowed.clone())));
    }
    let format = schema.get("format").and_then(Value::as_str);
    match schema.get("type").and_then(Value::as_str) {
        Some("integer") => {
            let n = value.as_i64().ok_or_else(|| format!("{value} is not an integer"))?;
            if format == Some("int32") && i32::try_from(n).is_err() {
                return Err(format!("{n} does not fit int32"));
            }
        }
        Some("number") if !value.is_number() => return Err(format!("{value} is not a number")),
        Some("boolean") if !value.is_boolean() => return Err(format!("{value} is not a boolean")),
        Some("string") => {
            let s = value.as_str().ok_or_else(|| format!("{value} is not a string"))?;
            if format == Some("date-time") && chrono::DateTime::parse_from_rfc3339(s).is_err() {
                return Err(format!("{s:?} is not an RFC 3339 date-time"));
            }
        }
        Some("array") => {
            let items = value.as_array().ok_or_else(|| format!("{value} is not an array"))?;
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.iter().enumerate() {
                    validate(doc, item_schema, item, depth + 1).map_err(|e| format!("[{i}]: {e}"))?;
                }
            }
        }
        Some("object") | None if schema.get("properties").is_some() || value.is_object() => {
            let object = value.as_object().ok_or_else(|| format!("{value} is not an object"))?;
            for name in items(schema, "required").filter_map(Value::as_str) {
                if !object.contains_key(name) {
                    return Err(format!("required `{name}` is missing"));
                }
            }
            let properties = schema.get("properties").and_then(Value::as_object);
            for (name, field) in object {
                match properties.and_then(|p| p.get(name)) {
                    Some(field_schema) => {
                        validate(doc, field_schema, field, depth + 1).map_err(|e| format!("{name}: {e}"))?
                    }
                    None if schema.get("additionalProperties") == Some(&Value::Bool(false)) => {
                        return Err(format!("`{name}` is not a property"));
                    }
                    None => {}
                }
            }
        }
        _ => {}
    }
    Ok(())
}
