//! Schemas wherever they are: enums and defaults of another type (and
//! `null` in a non-nullable enum, which means nullable), list
//! items without a type, numeric exclusive bounds, arrays without items,
//! object keywords beside a scalar type, and `$ref`s into other parts of
//! the document than `components.schemas`.

use serde_norway::{Mapping, Value};

use super::values::key_text;

/// Every schema of the document, wherever it is, through the schema rules.
pub(super) fn schemas_everywhere(doc: &mut Value, note: &mut impl FnMut(String, &str)) {
    let snapshot = doc.clone();
    walk(doc, String::new(), &snapshot, note, 0);
}

/// Visits every mapping; one under a `schema`, `schemas.<name>`,
/// `properties.<name>`, `items`, `additionalProperties`, `not` or a
/// combinator is a schema.
fn walk(value: &mut Value, at: String, doc: &Value, note: &mut impl FnMut(String, &str), depth: usize) {
    // Deep enough for any real document; a cycle cannot occur in a tree,
    // but an inlined reference could nest: stop there.
    if depth > 64 {
        return;
    }
    let is_schema = {
        let parts: Vec<&str> = at.rsplitn(3, '.').collect();
        let last = parts.first().copied().unwrap_or_default();
        let parent = parts.get(1).copied().unwrap_or_default();
        matches!(last, "schema" | "items" | "additionalProperties" | "not")
            || matches!(parent, "properties" | "allOf" | "anyOf" | "oneOf")
            || (parent == "schemas" && at.starts_with("components.schemas."))
    };
    if is_schema && let Value::Mapping(map) = value {
        schema_rules(map, &at, doc, note);
    }
    match value {
        Value::Mapping(map) => {
            for (key, inner) in map.iter_mut() {
                let key = key_text(key);
                // Examples are data, not schemas.
                if ["example", "examples", "enum", "default", "const"].contains(&key.as_str()) || key.starts_with("x-")
                {
                    continue;
                }
                let next = if at.is_empty() { key } else { format!("{at}.{key}") };
                walk(inner, next, doc, note, depth + 1);
            }
        }
        Value::Sequence(items) => {
            for (i, inner) in items.iter_mut().enumerate() {
                walk(inner, format!("{at}.{i}"), doc, note, depth + 1);
            }
        }
        _ => {}
    }
}

fn schema_rules(map: &mut Mapping, at: &str, doc: &Value, note: &mut impl FnMut(String, &str)) {
    // A reference into another part of the document: the schema there.
    if let Some(target) = map.get("$ref").and_then(Value::as_str).map(str::to_string)
        && !target.starts_with("#/components/schemas/")
        && let Some(pointer) = target.strip_prefix('#')
        && let Some(found) = pointed(doc, pointer)
        && found
            .get("$ref")
            .is_none_or(|r| r.as_str().is_some_and(|r| r.starts_with("#/components/schemas/")))
        && let Value::Mapping(found) = found
    {
        *map = found.clone();
        note(
            format!("{at}.$ref"),
            &format!("a reference to `{target}`, not into components.schemas: read as the schema it points at"),
        );
    }
    let ty = map.get("type").and_then(Value::as_str).map(str::to_string);
    // The same value twice in an enum says it once (typify cannot name
    // two variants alike).
    if let Some(Value::Sequence(values)) = map.get_mut("enum") {
        let mut distinct: Vec<Value> = Vec::with_capacity(values.len());
        for value in values.iter() {
            if !distinct.contains(value) {
                distinct.push(value.clone());
            }
        }
        if distinct.len() < values.len() {
            *values = distinct;
            note(format!("{at}.enum"), "a value listed twice is listed once");
        }
    }
    // `default: null` on a schema that does not allow null (a Python
    // `None` written out): the value is absent when not given, not null,
    // so there is no default. typify cannot write null as the type's
    // default (it panicked), and null would fail the schema.
    if map.get("default") == Some(&Value::Null)
        && ty.as_deref().is_some_and(|t| t != "null")
        && map.get("nullable") != Some(&Value::Bool(true))
        && !map
            .get("enum")
            .and_then(Value::as_sequence)
            .is_some_and(|values| values.contains(&Value::Null))
    {
        map.shift_remove("default");
        note(
            format!("{at}.default"),
            "`null`, which the schema does not allow: read as no default (absent when not given)",
        );
    }
    // JSON Schema applies object keywords to objects only: beside a
    // scalar type they say nothing (httpbin's `freeform`, a string with
    // `additionalProperties`), and dropshot refuses such a parameter.
    if let Some(scalar) = ty
        .as_deref()
        .filter(|t| matches!(*t, "string" | "integer" | "number" | "boolean"))
    {
        const OBJECT_ONLY: [&str; 5] = [
            "properties",
            "additionalProperties",
            "required",
            "minProperties",
            "maxProperties",
        ];
        let found: Vec<&str> = OBJECT_ONLY.iter().copied().filter(|k| map.contains_key(*k)).collect();
        if !found.is_empty() {
            for key in &found {
                map.shift_remove(*key);
            }
            note(
                at.to_string(),
                &format!(
                    "`{}` beside `type: {scalar}` apply to objects only: not read",
                    found.join("`, `")
                ),
            );
        }
    }
    if ty.as_deref() == Some("array") && !map.contains_key("items") {
        let items = match map.shift_remove("enum") {
            Some(values) => {
                let mut items = Mapping::new();
                items.insert("enum".into(), values);
                Value::Mapping(items)
            }
            None => Value::Mapping(Mapping::new()),
        };
        map.insert("items".into(), items);
        note(at.to_string(), "an array without `items` holds anything");
    }
    if ty.as_deref() == Some("array")
        && let Some(Value::Sequence(values)) = map.get("enum")
        && values.iter().all(|v| !matches!(v, Value::Sequence(_)))
    {
        let values = map.shift_remove("enum").unwrap_or(Value::Null);
        if let Some(Value::Mapping(items)) = map.get_mut("items")
            && !items.contains_key("enum")
        {
            items.insert("enum".into(), values);
        }
        note(
            format!("{at}.enum"),
            "an array's `enum` of single values is read as its items' `enum`",
        );
    }
    if let Some(ty) = ty.as_deref()
        && matches!(ty, "string" | "integer" | "number" | "boolean")
        && let Some(Value::Sequence(values)) = map.get_mut("enum")
    {
        let mut changed = false;
        for value in values.iter_mut() {
            if value.is_null() {
                continue;
            }
            if let Some(fixed) = in_type(value, ty)
                && fixed != *value
            {
                *value = fixed;
                changed = true;
            }
        }
        let before = values.len();
        values.retain(|v| v.is_null() || in_type(v, ty).as_ref() == Some(v));
        if changed || values.len() != before {
            note(
                format!("{at}.enum"),
                &format!(
                    "`enum` values of another type than `{ty}` are read as `{ty}` values (those that cannot be are dropped)"
                ),
            );
        }
        // `null` among the values of a type that is not nullable: what
        // the designer evidently meant is a nullable enum.
        let null = values.iter().any(Value::is_null);
        if values.is_empty() {
            map.shift_remove("enum");
        }
        if null && map.get("nullable").and_then(Value::as_bool) != Some(true) {
            map.insert("nullable".into(), Value::Bool(true));
            note(
                format!("{at}.enum"),
                &format!("`null` among the `enum` values of a `{ty}` that is not nullable: read as nullable"),
            );
        }
    }
    // A `default` written in another type (`type: string, default: 1`).
    if let Some(ty) = ty.as_deref()
        && matches!(ty, "string" | "integer" | "number" | "boolean")
        && let Some(default) = map.get("default").cloned()
        && !default.is_null()
        && in_type(&default, ty).as_ref() != Some(&default)
    {
        match in_type(&default, ty) {
            Some(fixed) => {
                map.insert("default".into(), fixed);
            }
            None => {
                map.shift_remove("default");
            }
        }
        note(
            format!("{at}.default"),
            &format!("a `default` of another type than `{ty}` is read as a `{ty}` (dropped where it cannot be)"),
        );
    }
    for (exclusive, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
        if let Some(number @ Value::Number(_)) = map.get(exclusive).cloned() {
            map.insert(bound.into(), number);
            map.insert(exclusive.into(), Value::Bool(true));
            note(
                format!("{at}.{exclusive}"),
                &format!(
                    "OpenAPI 3.1's numeric `{exclusive}` in a 3.0 document is read as `{bound}` with `{exclusive}: true`"
                ),
            );
        }
    }
}

/// `value` as a value of JSON type `ty`, where it reads as one.
fn in_type(value: &Value, ty: &str) -> Option<Value> {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => return None,
    };
    match ty {
        "string" => Some(Value::String(text)),
        "integer" => text.parse::<i64>().ok().map(Value::from),
        "number" => match value {
            Value::Number(_) => Some(value.clone()),
            _ => text.parse::<f64>().ok().map(Value::from),
        },
        "boolean" => text.parse::<bool>().ok().map(Value::Bool),
        _ => None,
    }
}

/// The value at a JSON pointer of the document.
pub(super) fn pointed<'a>(doc: &'a Value, pointer: &str) -> Option<&'a Value> {
    let mut value = doc;
    for part in pointer.split('/').skip(1) {
        let part = part.replace("~1", "/").replace("~0", "~");
        value = match value {
            Value::Mapping(map) => map.get(part.as_str())?,
            Value::Sequence(items) => items.get(part.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(value)
}
