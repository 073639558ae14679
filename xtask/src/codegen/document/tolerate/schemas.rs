//! Schemas wherever they are: enums and defaults of another type (and
//! `null` in a non-nullable enum, which means nullable), list
//! items without a type, numeric exclusive bounds, arrays without items,
//! object keywords beside a scalar type, and `$ref`s into other parts of
//! the document than `components.schemas`.

use serde_norway::{Mapping, Value};

use super::foreign_schemas::{ForeignSchemas, foreign_reference};
use super::keywords::{integral_counts, numeric_exclusive_bounds, pattern_dialect};
use super::schema_roles::Role;
use super::values::key_text;

/// Every schema of the document, wherever it is, through the schema rules.
pub(super) fn schemas_everywhere(doc: &mut Value, note: &mut impl FnMut(String, &str)) {
    let snapshot = doc.clone();
    let mut foreign = ForeignSchemas::new(&snapshot);
    walk(doc, String::new(), Role::Other, &mut foreign, note, 0);
    // The schemas foreign references point at, as components of their
    // own (through the rules too, which may hoist more).
    let mut hoisted = Vec::new();
    while let Some((name, mut schema)) = foreign.next_pending() {
        walk(
            &mut schema,
            format!("components.schemas.{name}"),
            Role::Schema,
            &mut foreign,
            note,
            1,
        );
        hoisted.push((name, schema));
    }
    if hoisted.is_empty() {
        return;
    }
    let Value::Mapping(root) = doc else { return };
    let components = root
        .entry("components".into())
        .or_insert_with(|| Value::Mapping(Mapping::new()));
    let Value::Mapping(components) = components else { return };
    let schemas = components
        .entry("schemas".into())
        .or_insert_with(|| Value::Mapping(Mapping::new()));
    if let Value::Mapping(schemas) = schemas {
        for (name, schema) in hoisted {
            schemas.insert(name.into(), schema);
        }
    }
}

/// Visits every mapping; the schemas among them (by their [`Role`]) go
/// through the schema rules.
fn walk(
    value: &mut Value,
    at: String,
    role: Role,
    foreign: &mut ForeignSchemas<'_>,
    note: &mut impl FnMut(String, &str),
    depth: usize,
) {
    // Deep enough for any real document; a cycle cannot occur in a tree,
    // but an inlined reference could nest: stop there.
    if depth > 64 {
        return;
    }
    let is_schema = role == Role::Schema;
    if is_schema && let Value::Mapping(map) = value {
        schema_rules(map, &at, foreign, note);
    }
    match value {
        Value::Mapping(map) => {
            for (key, inner) in map.iter_mut() {
                let key = key_text(key);
                // Examples are data, not schemas; so are a schema's enum,
                // default and const (a response's `default` is a response).
                let data = ["example", "examples"].contains(&key.as_str())
                    || (is_schema && ["enum", "default", "const"].contains(&key.as_str()));
                if data || key.starts_with("x-") {
                    continue;
                }
                let child = role.of_key(&key, &at);
                let next = if at.is_empty() { key } else { format!("{at}.{key}") };
                walk(inner, next, child, foreign, note, depth + 1);
            }
        }
        Value::Sequence(items) => {
            for (i, inner) in items.iter_mut().enumerate() {
                walk(inner, format!("{at}.{i}"), role.of_item(), foreign, note, depth + 1);
            }
        }
        _ => {}
    }
}

/// Each rule, in order: what one rewrites, the next reads.
fn schema_rules(map: &mut Mapping, at: &str, foreign: &mut ForeignSchemas<'_>, note: &mut impl FnMut(String, &str)) {
    foreign_reference(map, at, foreign, note);
    schema_under_type(map, at, note);
    type_by_keywords(map, at, note);
    let ty = map.get("type").and_then(Value::as_str).map(str::to_string);
    enum_once(map, at, note);
    null_default(map, at, ty.as_deref(), note);
    object_keywords_beside_a_scalar(map, at, ty.as_deref(), note);
    array_items(map, at, ty.as_deref(), note);
    enum_in_type(map, at, ty.as_deref(), note);
    default_in_type(map, at, ty.as_deref(), note);
    numeric_exclusive_bounds(map, at, note);
    integral_counts(map, at, note);
    pattern_dialect(map, at, note);
}

/// A schema written under `type` (`itemType: {type: {type: string,
/// enum: [...]}}`): the schema it holds.
fn schema_under_type(map: &mut Mapping, at: &str, note: &mut impl FnMut(String, &str)) {
    let Some(Value::Mapping(inner)) = map.get("type").cloned() else {
        return;
    };
    if !inner.get("type").is_some_and(|t| t.is_string() || t.is_sequence()) && !inner.contains_key("$ref") {
        return;
    }
    map.shift_remove("type");
    for (key, value) in inner {
        if !map.contains_key(&key) {
            map.insert(key, value);
        }
    }
    note(
        format!("{at}.type"),
        "a schema written under `type`: read as the schema it holds",
    );
}

/// A schema of an OpenAPI 3.0 document without a `type` whose keywords
/// each say something of one type (`properties`, `maxLength`): its
/// designer evidently means that type (JSON Schema would let any other
/// type through, which the Rust type, and common tools, do not). Not an
/// `allOf` member, whose siblings may say the type, nor a choice, an
/// enum or a reference. (A 3.1 document is JSON Schema's own: there, such
/// a schema is any JSON value in Rust, `openapi31::schemas`.)
fn type_by_keywords(map: &mut Mapping, at: &str, note: &mut impl FnMut(String, &str)) {
    const IMPLY: [(&str, &str); 17] = [
        ("properties", "object"),
        ("additionalProperties", "object"),
        ("required", "object"),
        ("minProperties", "object"),
        ("maxProperties", "object"),
        ("items", "array"),
        ("minItems", "array"),
        ("maxItems", "array"),
        ("uniqueItems", "array"),
        ("minLength", "string"),
        ("maxLength", "string"),
        ("pattern", "string"),
        ("minimum", "number"),
        ("maximum", "number"),
        ("exclusiveMinimum", "number"),
        ("exclusiveMaximum", "number"),
        ("multipleOf", "number"),
    ];
    let in_all_of = at.rsplit('.').nth(1) == Some("allOf");
    let decided = [
        "type",
        "$ref",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "enum",
        "x-json-schema-2020-12",
    ]
    .iter()
    .any(|key| map.contains_key(*key));
    if in_all_of || decided {
        return;
    }
    let mut implied: Vec<&str> = IMPLY
        .iter()
        .filter(|(key, _)| map.contains_key(*key))
        .map(|(_, ty)| *ty)
        .collect();
    implied.sort_unstable();
    implied.dedup();
    let [ty] = implied.as_slice() else { return };
    map.insert("type".into(), (*ty).into());
    let article = if ty.starts_with(['a', 'o']) { "an" } else { "a" };
    note(
        format!("{at}.type"),
        &format!("absent, where every keyword is {article} {ty}'s: read as `type: {ty}`"),
    );
}

/// The same value twice in an enum says it once (typify cannot name
/// two variants alike).
fn enum_once(map: &mut Mapping, at: &str, note: &mut impl FnMut(String, &str)) {
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
}

/// `default: null` on a schema that does not allow null (a Python
/// `None` written out): the value is absent when not given, not null,
/// so there is no default. typify cannot write null as the type's
/// default (it panicked), and null would fail the schema.
fn null_default(map: &mut Mapping, at: &str, ty: Option<&str>, note: &mut impl FnMut(String, &str)) {
    if map.get("default") == Some(&Value::Null)
        && ty.is_some_and(|t| t != "null")
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
}

/// JSON Schema applies object keywords to objects only: beside a
/// scalar type they say nothing (httpbin's `freeform`, a string with
/// `additionalProperties`), and dropshot refuses such a parameter.
fn object_keywords_beside_a_scalar(map: &mut Mapping, at: &str, ty: Option<&str>, note: &mut impl FnMut(String, &str)) {
    if let Some(scalar) = ty.filter(|t| matches!(*t, "string" | "integer" | "number" | "boolean")) {
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
}

/// An array without `items` holds anything; an array's `enum` of single
/// values is its items'.
fn array_items(map: &mut Mapping, at: &str, ty: Option<&str>, note: &mut impl FnMut(String, &str)) {
    if ty == Some("array") && !map.contains_key("items") {
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
    if ty == Some("array")
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
}

/// `enum` values written in another type than the schema's; `null`
/// among them, where the type is not nullable, means nullable.
fn enum_in_type(map: &mut Mapping, at: &str, ty: Option<&str>, note: &mut impl FnMut(String, &str)) {
    if let Some(ty) = ty
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
}

/// A `default` written in another type (`type: string, default: 1`).
fn default_in_type(map: &mut Mapping, at: &str, ty: Option<&str>, note: &mut impl FnMut(String, &str)) {
    if let Some(ty) = ty
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
