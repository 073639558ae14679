//! A 3.1 schema (JSON Schema 2020-12) said as OpenAPI 3.0 says it, where
//! 3.0 can, so that the validation form the generator derives from the
//! rendering validates what the original does:
//!
//! - `null` among the types, or a `{type: null}` member of `anyOf`/`oneOf`,
//!   is `nullable: true` (unless an `enum` leaves null out, which allows no
//!   null anyway);
//! - one type in a list is that type; several are kept for validation;
//! - `const` is a one-value `enum` (of the value's type);
//! - `examples` is `example` (its first);
//! - numeric `exclusiveMinimum`/`exclusiveMaximum` are 3.0's bound and flag;
//! - a `$ref` with constraints beside it is `allOf: [$ref]` with them (3.1
//!   applies both; 3.0 would ignore the siblings), one with annotations
//!   only stays a reference;
//! - `contentEncoding: base64` is `format: byte`, a `contentMediaType`
//!   of bytes (`application/octet-stream`) `format: binary`; `$schema`, `$id`,
//!   `$comment`, `contentMediaType` and the like only annotate, and go;
//! - `true` and `false` as schemas are `{}` and `{not: {}}`;
//! - an event stream's schema that describes the event (`data` with a
//!   JSON `contentSchema`, as OpenAPI 3.2 reads it) is its data's;
//! - a keyword JSON Schema does not know (`additional_properties`), which
//!   2020-12 reads as an annotation, goes (named).
//!
//! Keywords with no 3.0 form (and no Rust type) move under
//! [`JSON_SCHEMA_KEY`] ([`super::kept`]): the Rust type is looser, the
//! validation is exact.
//! 3.0 habits (`nullable`, boolean exclusive bounds) are read as 3.0
//! reads them, each named.

use serde_norway::{Mapping, Value};

use super::super::keywords::JSON_SCHEMA_KEY;
use super::kept::{extension, unknown, validated_only};
use super::respelled::{annotations, bounds, constant};

/// Siblings of a `$ref` that annotate or that the generator reads beside
/// one (`readOnly`): the reference stays one.
const REFERENCE_ANNOTATIONS: [&str; 9] = [
    "description",
    "title",
    "example",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "default",
    "externalDocs",
];

/// Every schema of the document, wherever it is: a value under `schema`
/// (or `itemSchema`), or a component schema, which [`schema`] reads whole.
pub(super) fn everywhere(doc: &mut Value, note: &mut dyn FnMut(String, &str)) {
    walk(doc, String::new(), note);
}

fn walk(value: &mut Value, at: String, note: &mut dyn FnMut(String, &str)) {
    match value {
        Value::Mapping(map) => {
            for (key, inner) in map.iter_mut() {
                let Some(key) = key.as_str().map(str::to_string) else {
                    continue;
                };
                // Examples are data, and extensions someone else's.
                if key == "example" || key == "examples" || key.starts_with("x-") {
                    continue;
                }
                let next = if at.is_empty() {
                    key.clone()
                } else {
                    format!("{at}.{key}")
                };
                if key == "schema" || key == "itemSchema" {
                    if at.ends_with("text/event-stream") {
                        event_data(inner);
                    }
                    schema(inner, &next, note);
                } else if at == "components" && key == "schemas" {
                    if let Value::Mapping(schemas) = inner {
                        for (name, component) in schemas.iter_mut() {
                            let name = name.as_str().unwrap_or_default();
                            schema(component, &format!("{next}.{name}"), note);
                        }
                    }
                } else {
                    walk(inner, next, note);
                }
            }
        }
        Value::Sequence(items) => {
            for (i, inner) in items.iter_mut().enumerate() {
                walk(inner, format!("{at}.{i}"), note);
            }
        }
        _ => {}
    }
}

/// An event stream's schema that describes the event (OpenAPI 3.2's
/// reading, which 3.1 documents follow: `data` a string whose
/// `contentSchema` is the item's, beside `event`, `id` and `retry`) is
/// read as its data's schema, the item the handler and the client type.
fn event_data(value: &mut Value) {
    let data = value.get("properties").and_then(|p| p.get("data"));
    let Some(content) = data.and_then(|d| d.get("contentSchema")) else {
        return;
    };
    let json = data
        .and_then(|d| d.get("contentMediaType"))
        .and_then(Value::as_str)
        .is_none_or(|media_type| media_type.contains("json"));
    if json {
        *value = content.clone();
    }
}

/// One schema, and every schema inside it. `alone`: whether the schema
/// decides its instances' type by itself (not a member of an `allOf`,
/// whose other members may).
fn schema(value: &mut Value, at: &str, note: &mut dyn FnMut(String, &str)) {
    schema_where(value, at, note, true);
}

fn schema_where(value: &mut Value, at: &str, note: &mut dyn FnMut(String, &str), alone: bool) {
    let map = match value {
        Value::Bool(true) => {
            *value = Value::Mapping(Mapping::new());
            return;
        }
        Value::Bool(false) => {
            let mut never = Mapping::new();
            never.insert("not".into(), Value::Mapping(Mapping::new()));
            *value = Value::Mapping(never);
            return;
        }
        Value::Mapping(map) => map,
        _ => return,
    };
    annotations(map);
    if let Some(Value::Bool(_)) = map.get("nullable") {
        note(
            format!("{at}.nullable"),
            "`nullable` is OpenAPI 3.0's, not 3.1's: read as 3.0 reads it (null allowed)",
        );
    }
    bounds(map, at, note);
    constant(map);
    types(map);
    null_members(map);
    validated_only(map, at, note);
    unknown(map, at, note);
    children(map, at, note);
    reference_siblings(map);
    if alone && VALIDATED_ONLY.get() == 0 {
        any_type_where_typeless(map);
    }
}

thread_local! {
    /// How deep the walk is inside the keywords kept for validation only
    /// (`if`, `then`, `prefixItems`, ...), which no Rust type is made
    /// from: their schemas need no `type` to keep typify from narrowing.
    static VALIDATED_ONLY: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Keywords that say something of one type of instance only.
const TYPED_KEYWORDS: [&str; 18] = [
    "properties",
    "additionalProperties",
    "required",
    "minProperties",
    "maxProperties",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "format",
];

/// A schema without a type whose keywords each say something of one type
/// (`properties`, `maxLength`): JSON Schema lets an instance of any other
/// type through, so its Rust type is any JSON value (kept for validation,
/// `type` is every type); the constraints are checked as written.
fn any_type_where_typeless(map: &mut Mapping) {
    let kept_type = map.get(JSON_SCHEMA_KEY).and_then(|kept| kept.get("type")).is_some();
    let typed = map
        .keys()
        .filter_map(Value::as_str)
        .any(|key| TYPED_KEYWORDS.contains(&key))
        || map
            .get(JSON_SCHEMA_KEY)
            .and_then(Value::as_mapping)
            .is_some_and(|kept| {
                kept.keys().filter_map(Value::as_str).any(|key| {
                    TYPED_KEYWORDS.contains(&key) || ["prefixItems", "contains", "patternProperties"].contains(&key)
                })
            });
    // A reference or a combination says the type (`{$ref: Name,
    // maxLength: 12}` is read as `allOf: [Name]` beside its constraint).
    let combined = ["$ref", "allOf", "anyOf", "oneOf", "enum", "const"]
        .iter()
        .any(|key| map.contains_key(*key));
    if map.contains_key("type") || kept_type || combined || !typed {
        return;
    }
    let every: Vec<Value> = ["array", "boolean", "integer", "null", "number", "object", "string"]
        .into_iter()
        .map(Value::from)
        .collect();
    extension(map).insert("type".into(), Value::Sequence(every));
}

/// A list of types: `null` among them is `nullable`; one other type is
/// that type; several (or `null` alone) are kept for validation, and the
/// Rust type is any JSON value.
fn types(map: &mut Mapping) {
    let types: Vec<String> = match map.get("type") {
        Some(Value::Sequence(types)) => types.iter().filter_map(Value::as_str).map(str::to_string).collect(),
        Some(Value::String(ty)) if ty == "null" => vec![ty.clone()],
        _ => return,
    };
    let others: Vec<&String> = types.iter().filter(|t| *t != "null").collect();
    let null = others.len() < types.len();
    match others.as_slice() {
        [one] => {
            map.insert("type".into(), one.as_str().into());
            if null {
                allow_null(map);
            }
        }
        _ => {
            let ty = map.shift_remove("type").unwrap_or(Value::Null);
            extension(map).insert("type".into(), ty);
        }
    }
}

/// `nullable: true`, unless an `enum` leaves null out (then no null is
/// allowed whatever the type says).
fn allow_null(map: &mut Mapping) {
    let enum_without_null = map
        .get("enum")
        .and_then(Value::as_sequence)
        .is_some_and(|values| !values.contains(&Value::Null));
    if !enum_without_null {
        map.insert("nullable".into(), Value::Bool(true));
    }
}

/// `{type: null}` members of `anyOf`/`oneOf` as `nullable`; one member
/// left is the schema (as `allOf: [it]`).
fn null_members(map: &mut Mapping) {
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Sequence(members)) = map.get_mut(key) else {
            continue;
        };
        // Members that are all `null`: nothing else to be nullable; they
        // stay, each read as its type is.
        let nulls = members.iter().filter(|member| is_null_only(member)).count();
        if nulls == 0 || nulls == members.len() {
            continue;
        }
        members.retain(|member| !is_null_only(member));
        if members.len() == 1 {
            let member = members.remove(0);
            map.shift_remove(key);
            match map.get_mut("allOf") {
                Some(Value::Sequence(all)) => all.push(member),
                _ => {
                    map.insert("allOf".into(), Value::Sequence(vec![member]));
                }
            }
        }
        map.insert("nullable".into(), Value::Bool(true));
    }
}

/// `{type: null}` (with annotations at most).
fn is_null_only(schema: &Value) -> bool {
    let Some(map) = schema.as_mapping() else {
        return false;
    };
    let null = match map.get("type") {
        Some(Value::String(ty)) => ty == "null",
        Some(Value::Sequence(types)) => types.iter().all(|t| t.as_str() == Some("null")),
        _ => false,
    };
    null && map
        .keys()
        .filter_map(Value::as_str)
        .all(|k| ["type", "description", "title"].contains(&k))
}

/// Every schema inside this one, kept ones included.
fn children(map: &mut Mapping, at: &str, note: &mut dyn FnMut(String, &str)) {
    for (key, inner) in map.iter_mut() {
        let Some(key) = key.as_str().map(str::to_string) else {
            continue;
        };
        let here = format!("{at}.{key}");
        match key.as_str() {
            "properties" => each_value(inner, &here, note),
            "items" | "not" => schema(inner, &here, note),
            "additionalProperties" if inner.is_mapping() => schema(inner, &here, note),
            "allOf" => {
                if let Value::Sequence(items) = inner {
                    for (i, member) in items.iter_mut().enumerate() {
                        schema_where(member, &format!("{here}.{i}"), note, false);
                    }
                }
            }
            "anyOf" | "oneOf" => each_item(inner, &here, note),
            k if k == JSON_SCHEMA_KEY => {
                let Value::Mapping(kept) = inner else { continue };
                VALIDATED_ONLY.set(VALIDATED_ONLY.get() + 1);
                for (kept_key, kept_inner) in kept.iter_mut() {
                    let kept_key = kept_key.as_str().unwrap_or_default().to_string();
                    let there = format!("{at}.{kept_key}");
                    match kept_key.as_str() {
                        "prefixItems" => each_item(kept_inner, &there, note),
                        "dependentSchemas" | "patternProperties" => each_value(kept_inner, &there, note),
                        "if" | "then" | "else" | "items" | "contains" | "propertyNames" => {
                            schema(kept_inner, &there, note)
                        }
                        "unevaluatedProperties" | "unevaluatedItems" | "additionalProperties"
                            if kept_inner.is_mapping() =>
                        {
                            schema(kept_inner, &there, note)
                        }
                        _ => {}
                    }
                }
                VALIDATED_ONLY.set(VALIDATED_ONLY.get() - 1);
            }
            _ => {}
        }
    }
}

fn each_value(value: &mut Value, at: &str, note: &mut dyn FnMut(String, &str)) {
    if let Value::Mapping(map) = value {
        for (name, inner) in map.iter_mut() {
            let name = name.as_str().unwrap_or_default().to_string();
            schema(inner, &format!("{at}.{name}"), note);
        }
    }
}

fn each_item(value: &mut Value, at: &str, note: &mut dyn FnMut(String, &str)) {
    if let Value::Sequence(items) = value {
        for (i, inner) in items.iter_mut().enumerate() {
            schema(inner, &format!("{at}.{i}"), note);
        }
    }
}

/// A `$ref` with constraints beside it: 3.1 applies both, so the
/// reference becomes `allOf: [$ref]` beside them. With annotations only,
/// the reference stays one.
fn reference_siblings(map: &mut Mapping) {
    let Some(reference) = map.get("$ref").cloned() else {
        return;
    };
    let constrains = map
        .keys()
        .filter_map(Value::as_str)
        .any(|key| key != "$ref" && !key.starts_with("x-") && !REFERENCE_ANNOTATIONS.contains(&key));
    if !constrains {
        return;
    }
    map.shift_remove("$ref");
    let mut alone = Mapping::new();
    alone.insert("$ref".into(), reference);
    match map.get_mut("allOf") {
        Some(Value::Sequence(all)) => all.insert(0, Value::Mapping(alone)),
        _ => {
            map.insert("allOf".into(), Value::Sequence(vec![Value::Mapping(alone)]));
        }
    }
}
