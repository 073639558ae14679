//! An OpenAPI 3.0 Schema Object in the three forms the generated code
//! needs, and the schema constructs the generator refuses (each with its
//! location and reason):
//!
//! - the **validation** form, JSON Schema 2020-12, which the generated
//!   layer checks requests against (the `jsonschema` crate): `nullable`
//!   becomes a `null` type, boolean `exclusiveMinimum` a number, an
//!   integer `format`'s range (`int32`, `int64`) explicit bounds, and
//!   references point at `$defs`;
//! - the **typify** form, the same reading for the Rust types, which
//!   typify takes as JSON Schema (references stay as the spec writes them;
//!   `format: float` reads as a double, since an `f32` would round values
//!   the schema allows, 5e-324 to 0);
//! - the **documentation** form, schemars' JSON in OpenAPI's terms, which
//!   dropshot turns back into the document it emits.

use serde_json::{Map, Value, json};

use crate::codegen::document::errors::SpecError;
use crate::codegen::document::keywords::{JSON_SCHEMA_KEY, KEYWORDS};

pub use super::references::COMPONENTS_PREFIX;

/// Checks what the generator can map, everywhere in `schema`; `components`
/// is the spec's `components.schemas`, where references must lead.
pub fn check(schema: &Value, location: &str, components: &Map<String, Value>) -> Result<(), SpecError> {
    let error = |at: &str, message: String| SpecError::new(at, message);
    let Value::Object(map) = schema else {
        return Err(error(location, "a schema must be an object".into()));
    };
    for key in map.keys() {
        if !KEYWORDS.contains(&key.as_str()) && !key.starts_with("x-") {
            return Err(error(
                &format!("{location}.{key}"),
                format!("`{key}` is not an OpenAPI 3.0 schema keyword (3.1's JSON Schema keywords are not read)"),
            ));
        }
    }
    if let Some(reference) = map.get("$ref") {
        let name = reference
            .as_str()
            .and_then(|r| r.strip_prefix(COMPONENTS_PREFIX))
            .ok_or_else(|| {
                error(
                    &format!("{location}.$ref"),
                    format!("only references to `{COMPONENTS_PREFIX}<name>` are supported, not {reference}"),
                )
            })?;
        if !components.contains_key(name) {
            return Err(error(
                &format!("{location}.$ref"),
                format!("`{name}` is not in components.schemas"),
            ));
        }
        return Ok(());
    }
    super::discriminator::check(map, location)?;
    if let Some(ty) = map.get("type")
        && !matches!(
            ty.as_str(),
            Some("string" | "integer" | "number" | "boolean" | "array" | "object")
        )
    {
        return Err(error(
            &format!("{location}.type"),
            format!("{ty} is not an OpenAPI 3.0 type"),
        ));
    }
    if map.get("type").and_then(Value::as_str) == Some("array") && !map.contains_key("items") {
        return Err(error(location, "an array needs `items`".into()));
    }
    for (key, inner) in children(map) {
        check(inner, &format!("{location}.{key}"), components)?;
    }
    Ok(())
}

/// The nested schemas of a schema, with their keys relative to it.
fn children(map: &Map<String, Value>) -> Vec<(String, &Value)> {
    let mut out = Vec::new();
    if let Some(Value::Object(properties)) = map.get("properties") {
        out.extend(properties.iter().map(|(name, s)| (format!("properties.{name}"), s)));
    }
    for key in ["items", "not"] {
        if let Some(inner) = map.get(key) {
            out.push((key.to_string(), inner));
        }
    }
    if let Some(inner @ Value::Object(_)) = map.get("additionalProperties") {
        out.push(("additionalProperties".to_string(), inner));
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(items)) = map.get(key) {
            out.extend(items.iter().enumerate().map(|(i, s)| (format!("{key}.{i}"), s)));
        }
    }
    out
}

/// Applies `f` to every nested schema of `map`, in place.
fn map_children(map: &mut Map<String, Value>, f: &dyn Fn(&Value) -> Value) {
    if let Some(Value::Object(properties)) = map.get_mut("properties") {
        for schema in properties.values_mut() {
            *schema = f(schema);
        }
    }
    for key in ["items", "not"] {
        if let Some(inner) = map.get_mut(key) {
            *inner = f(inner);
        }
    }
    if let Some(inner @ Value::Object(_)) = map.get_mut("additionalProperties") {
        *inner = f(inner);
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(items)) = map.get_mut(key) {
            for item in items {
                *item = f(item);
            }
        }
    }
}

/// Keywords that only document, in OpenAPI terms; JSON Schema and typify
/// have no use for them.
const OPENAPI_ONLY: [&str; 4] = ["example", "xml", "externalDocs", "nullable"];

/// OpenAPI 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum` as JSON
/// Schema's numbers.
fn exclusive_bounds(map: &mut Map<String, Value>) {
    for (exclusive, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
        match map.remove(exclusive) {
            Some(Value::Bool(true)) => {
                if let Some(value) = map.remove(bound) {
                    map.insert(exclusive.to_string(), value);
                }
            }
            Some(Value::Bool(false)) | None => {}
            Some(other) => {
                map.insert(exclusive.to_string(), other);
            }
        }
    }
}

/// A reference alone: OpenAPI 3.0 ignores a `$ref`'s siblings.
fn reference(map: &Map<String, Value>, prefix: &str) -> Option<Value> {
    let name = map.get("$ref")?.as_str()?.strip_prefix(COMPONENTS_PREFIX)?;
    Some(json!({ "$ref": format!("{prefix}{name}") }))
}

/// `nullable: true` as JSON Schema says it: `null` among the types (and
/// the enum's values), or a `null` alternative.
fn nullable(mut map: Map<String, Value>) -> Value {
    if let Some(Value::String(ty)) = map.get("type").cloned() {
        map.insert("type".into(), json!([ty, "null"]));
        if let Some(Value::Array(values)) = map.get_mut("enum")
            && !values.contains(&Value::Null)
        {
            values.push(Value::Null);
        }
        return Value::Object(map);
    }
    json!({ "anyOf": [{ "type": "null" }, Value::Object(map)] })
}

fn is_nullable(map: &Map<String, Value>) -> bool {
    map.get("nullable") == Some(&Value::Bool(true))
}

/// The JSON Schema (2020-12) requests are validated against.
pub fn validation_form(schema: &Value) -> Value {
    let Value::Object(source) = schema else {
        return schema.clone();
    };
    if let Some(reference) = reference(source, "#/$defs/") {
        return reference;
    }
    let mut map = source.clone();
    let kept = map.remove(JSON_SCHEMA_KEY);
    let nullable_ = is_nullable(&map);
    // Requests are what is validated: a readOnly property is the server's
    // to give, never required of a caller.
    unrequire(&mut map, &["readOnly"]);
    map.retain(|key, _| !OPENAPI_ONLY.contains(&key.as_str()) && !key.starts_with("x-"));
    exclusive_bounds(&mut map);
    // A pattern only an ECMA-262 engine reads is checked by one.
    if let Some(Value::String(pattern)) = map.get("pattern")
        && super::patterns::reading(pattern) == super::patterns::Reading::Ecma
        && let Some(pattern) = map.remove("pattern")
    {
        map.insert(super::patterns::ECMA_PATTERN.into(), pattern);
    }
    map_children(&mut map, &validation_form);
    if let Some(Value::Object(kept)) = kept {
        // The rendering's `items: {}` beside `prefixItems` is for the Rust
        // type: items the document left to `unevaluatedItems` stay so.
        if kept.contains_key("prefixItems") && !kept.contains_key("items") {
            map.remove("items");
        }
        put_back(&mut map, kept);
    }
    super::discriminator::for_validation(&mut map);
    // A format's range, which JSON Schema does not know, as bounds of its
    // own (alongside the schema's own, which may be narrower).
    let range = match (
        map.get("type").and_then(Value::as_str),
        map.get("format").and_then(Value::as_str),
    ) {
        (Some("integer"), Some("int32")) => Some(json!({"minimum": i32::MIN, "maximum": i32::MAX})),
        (Some("integer"), Some("int64")) => Some(json!({"minimum": i64::MIN, "maximum": i64::MAX})),
        _ => None,
    };
    if let Some(range) = range {
        let all_of = map.entry("allOf").or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(all_of) = all_of {
            all_of.push(range);
        }
    }
    match nullable_ {
        true => nullable(map),
        false => Value::Object(map),
    }
}

/// The keywords a 3.1 document's rendering kept for validation
/// ([`JSON_SCHEMA_KEY`]), back beside the others, each schema among them
/// in its validation form.
fn put_back(map: &mut Map<String, Value>, kept: Map<String, Value>) {
    for (key, mut value) in kept {
        match (key.as_str(), &mut value) {
            ("prefixItems", Value::Array(items)) => {
                for item in items {
                    *item = validation_form(item);
                }
            }
            ("dependentSchemas" | "patternProperties", Value::Object(schemas)) => {
                for schema in schemas.values_mut() {
                    *schema = validation_form(schema);
                }
            }
            (
                "if"
                | "then"
                | "else"
                | "items"
                | "contains"
                | "propertyNames"
                | "unevaluatedProperties"
                | "unevaluatedItems"
                | "additionalProperties",
                inner @ Value::Object(_),
            ) => *inner = validation_form(inner),
            _ => {}
        }
        map.insert(key, value);
    }
}

/// The JSON Schema typify reads the Rust types from.
pub fn typify_form(schema: &Value) -> Value {
    let Value::Object(source) = schema else {
        return schema.clone();
    };
    // Several types (a 3.1 list without a 3.0 form): any JSON value.
    if source
        .get(JSON_SCHEMA_KEY)
        .is_some_and(|kept| kept.get("type").is_some())
    {
        return json!({});
    }
    if let Some(reference) = reference(source, COMPONENTS_PREFIX) {
        return reference;
    }
    // `not` says what a value is not, which no Rust type says (typify
    // writes an enum of no variant, or fails): any JSON value.
    if source.contains_key("not") {
        return json!({});
    }
    let mut map = source.clone();
    // A pattern typify's type would read otherwise than the layer does
    // is the layer's alone to check.
    if map
        .get("pattern")
        .and_then(Value::as_str)
        .is_some_and(|pattern| !super::patterns::typify_reads_alike(pattern))
    {
        map.remove("pattern");
    }
    // An enum of values beyond ASCII would name its variants in another
    // script (`Μ`), which Rust warns of crate-wide: the values are the
    // layer's to check, the type their type's.
    if map
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|values| values.iter().any(|v| v.as_str().is_some_and(|s| !s.is_ascii())))
    {
        map.remove("enum");
    }
    let nullable_ = is_nullable(&map);
    // One Rust type serves both directions: a property required in one
    // only (readOnly: in responses; writeOnly: in requests) is an `Option`.
    unrequire(&mut map, &["readOnly", "writeOnly"]);
    map.retain(|key, _| !OPENAPI_ONLY.contains(&key.as_str()) && !key.starts_with("x-"));
    if map.get("format").and_then(Value::as_str) == Some("float") {
        map.remove("format");
    }
    // A format means something for strings and numbers only (Twilio's
    // `type: object, format: uri-map`); typify stops at one elsewhere.
    let scalar = ["string", "integer", "number"].contains(&map.get("type").and_then(Value::as_str).unwrap_or("string"));
    if !scalar {
        map.remove("format");
    }
    exclusive_bounds(&mut map);
    map_children(&mut map, &typify_form);
    // A choice one of whose members is any value narrows nothing (its
    // value is the rest of the schema's): typify would make a struct of it.
    for key in ["anyOf", "oneOf"] {
        if map
            .get(key)
            .and_then(Value::as_array)
            .is_some_and(|members| members.iter().any(|m| *m == json!({}) || *m == json!(true)))
        {
            map.remove(key);
        }
    }
    super::discriminator::for_typify(&mut map);
    match nullable_ {
        true => nullable(map),
        false => Value::Object(map),
    }
}

/// Takes out of `required` each property whose schema says one of
/// `keys` (`readOnly`, `writeOnly`): required only in one direction.
fn unrequire(map: &mut Map<String, Value>, keys: &[&str]) {
    let one_way: Vec<String> = map
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter(|(_, property)| keys.iter().any(|key| property.get(*key) == Some(&Value::Bool(true))))
        .map(|(name, _)| name.clone())
        .collect();
    if let Some(Value::Array(required)) = map.get_mut("required") {
        required.retain(|name| !name.as_str().is_some_and(|n| one_way.iter().any(|o| o == n)));
    }
}

/// The schema as schemars holds an OpenAPI 3.0 schema, which dropshot
/// turns back into OpenAPI for its document: the same but for boolean
/// exclusive bounds, which schemars holds as numbers.
pub fn doc_form(schema: &Value) -> Value {
    let Value::Object(source) = schema else {
        return schema.clone();
    };
    if let Some(reference) = reference(source, COMPONENTS_PREFIX) {
        return reference;
    }
    let mut map = source.clone();
    // What 3.0 cannot say, dropshot's document cannot either.
    map.remove(JSON_SCHEMA_KEY);
    exclusive_bounds(&mut map);
    map_children(&mut map, &doc_form);
    nest_combinators(&mut map);
    Value::Object(map)
}

/// schemars (and so dropshot's document) holds one of allOf, anyOf, oneOf
/// and not per schema; a schema with several says the same with each
/// nested in an allOf (every part must hold, as before).
fn nest_combinators(map: &mut Map<String, Value>) {
    const COMBINATORS: [&str; 4] = ["allOf", "anyOf", "oneOf", "not"];
    if COMBINATORS.iter().filter(|k| map.contains_key(**k)).count() < 2 {
        return;
    }
    let parts: Vec<Value> = COMBINATORS
        .iter()
        .filter_map(|key| map.remove(*key).map(|value| serde_json::json!({ *key: value })))
        .collect();
    map.insert("allOf".into(), Value::Array(parts));
}

/// Whether reading a parameter's text as its type already enforces the
/// whole schema (a plain string or boolean), so no validator is needed.
pub fn is_type_alone(validation: &Value) -> bool {
    let Value::Object(map) = validation else {
        return false;
    };
    matches!(map.get("type").and_then(Value::as_str), Some("string" | "boolean"))
        && map
            .keys()
            .all(|k| ["type", "description", "title", "deprecated", "default"].contains(&k.as_str()))
}

#[cfg(test)]
mod tests;
