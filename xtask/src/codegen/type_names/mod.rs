//! Inline schemas whose Rust type would take a component's name.
//!
//! typify names an inline schema after where it is (`Monitor`'s property
//! `behavior` is `MonitorBehavior`, its list's items `…Item`), or after
//! its `title` (wherever it is, a `oneOf` member too), and does not look
//! whether a component already has that name: a document with a `Monitor` whose `behavior` is inline, and a
//! component `MonitorBehavior` beside it, gets two types of one name, and
//! code that does not compile. Each such inline schema is given a title
//! of its own (`MonitorBehaviorInline`), in the forms typify reads only
//! (the server's types and the client's), so that the document dropshot
//! emits is the one written. An object two of whose properties would be
//! one Rust field (`Guid` and `guid`) is any JSON value there (degrade:
//! validated as written).

use std::collections::BTreeSet;

mod rust_names;
mod titles;

use heck::{ToPascalCase, ToSnakeCase};

pub use rust_names::{component_renames, rename_references, typify_field, typify_name};
use serde_json::{Map, Value};
use titles::named_by_typify;

/// Whether any inline schema of `components` would be named as a
/// component is.
pub fn any_collide(components: &Map<String, Value>) -> bool {
    let mut copy = components.clone();
    distinct(&mut copy)
}

/// Titles each inline schema of `components` whose type would take a
/// component's name (or a title given here); whether any was.
pub fn distinct(components: &mut Map<String, Value>) -> bool {
    let mut taken: BTreeSet<String> = components.keys().map(|name| name.to_pascal_case()).collect();
    let mut changed = false;
    // typify names a component by its name, whatever its title, and its
    // inline schemas after it.
    for (name, schema) in components.iter_mut() {
        children(schema, name, &mut taken, &mut changed, 0);
    }
    // Properties whose Rust fields would have one name (`Guid` and `guid`):
    // typify writes both fields, and the struct does not compile. Such an
    // object is any JSON value in Rust, validated as written.
    for schema in components.values_mut() {
        fields_apart(schema, &mut changed, 0);
    }
    // A title names its type wherever the schema is, `oneOf` members too.
    let names: BTreeSet<String> = components.keys().map(|name| name.to_pascal_case()).collect();
    // A nullable component is typify's newtype over an `Option` of its
    // inner type, which the title names: a title that is a component's
    // name (its own, most often: `auto-merge` titled `Auto merge`) makes
    // two types of one name. The title goes; typify names the inner type
    // `<Name>Inner`.
    for schema in components.values_mut() {
        if let Value::Object(map) = schema
            && map.get("nullable") == Some(&Value::Bool(true))
            && map
                .get("title")
                .and_then(Value::as_str)
                .is_some_and(|title| names.contains(&title.to_pascal_case()))
        {
            map.remove("title");
            changed = true;
        }
    }
    for schema in components.values_mut() {
        titled_inside(schema, &names, &mut taken, &mut changed, 0);
    }
    titles::titles_apart(components, &mut changed);
    changed
}

/// [`fields_apart`] over a whole document (progenitor's, whose inline
/// schemas typify names too); whether anything changed.
pub fn fields_apart_everywhere(value: &mut Value) -> bool {
    let mut changed = false;
    everywhere(value, &mut changed, 0);
    changed
}

fn everywhere(value: &mut Value, changed: &mut bool, depth: usize) {
    if depth > 64 {
        return;
    }
    match value {
        Value::Object(map) => {
            if map.get("properties").is_some_and(Value::is_object) || map.get("required").is_some_and(Value::is_array) {
                fields_apart(value, changed, depth);
                return;
            }
            for (key, inner) in map.iter_mut() {
                // Examples and defaults are data, not schemas.
                if !["example", "examples", "default", "enum", "const"].contains(&key.as_str())
                    && !key.starts_with("x-")
                {
                    everywhere(inner, changed, depth + 1);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| everywhere(item, changed, depth + 1)),
        _ => {}
    }
}

/// `schema`, and each schema inside it, as any JSON value where two of
/// its properties (those it names, and those its `required` list names)
/// would be one Rust field.
pub fn fields_apart(schema: &mut Value, changed: &mut bool, depth: usize) {
    if depth > 32 {
        return;
    }
    let Value::Object(map) = schema else { return };
    let named = map
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|p| p.keys());
    let required = map
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str);
    let names: BTreeSet<&str> = named.map(String::as_str).chain(required).collect();
    if names.len() > 1 {
        let mut fields = BTreeSet::new();
        if !names.iter().all(|name| fields.insert(typify_field(name))) {
            let description = map.get("description").cloned();
            map.clear();
            if let Some(description) = description {
                map.insert("description".into(), description);
            }
            *changed = true;
            return;
        }
    }
    for (key, value) in map.iter_mut() {
        match (key.as_str(), value) {
            ("properties", Value::Object(properties)) => properties
                .values_mut()
                .for_each(|p| fields_apart(p, changed, depth + 1)),
            ("items" | "additionalProperties" | "not", value @ Value::Object(_)) => {
                fields_apart(value, changed, depth + 1)
            }
            ("allOf" | "anyOf" | "oneOf", Value::Array(members)) => {
                members.iter_mut().for_each(|m| fields_apart(m, changed, depth + 1))
            }
            _ => {}
        }
    }
}

/// Each titled schema inside `schema` whose title is a component's name
/// (one of `names`); `taken` holds every name given.
fn titled_inside(
    schema: &mut Value,
    names: &BTreeSet<String>,
    taken: &mut BTreeSet<String>,
    changed: &mut bool,
    depth: usize,
) {
    if depth > 32 {
        return;
    }
    let Value::Object(map) = schema else { return };
    let mut inner: Vec<&mut Value> = Vec::new();
    for (key, value) in map.iter_mut() {
        match (key.as_str(), value) {
            ("properties", Value::Object(properties)) => inner.extend(properties.values_mut()),
            ("items" | "additionalProperties" | "not", value @ Value::Object(_)) => inner.push(value),
            ("allOf" | "anyOf" | "oneOf", Value::Array(members)) => inner.extend(members.iter_mut()),
            _ => {}
        }
    }
    for value in inner {
        if let Value::Object(child) = value
            && !child.contains_key("$ref")
            && named_by_typify(child)
            && let Some(title) = child.get("title").and_then(Value::as_str).map(str::to_pascal_case)
            && names.contains(&title)
            && !narrows(child, &title)
        {
            let mut fresh = format!("{title}Inline");
            let mut n = 2;
            while taken.contains(&fresh) {
                fresh = format!("{title}Inline{n}");
                n += 1;
            }
            child.insert("title".into(), Value::String(fresh.clone()));
            taken.insert(fresh);
            *changed = true;
        }
        titled_inside(value, names, taken, changed, depth + 1);
    }
}

/// The schemas inside `schema`, whose type is named `base`.
fn children(schema: &mut Value, base: &str, taken: &mut BTreeSet<String>, changed: &mut bool, depth: usize) {
    if depth > 32 {
        return;
    }
    let Value::Object(map) = schema else { return };
    if let Some(Value::Object(properties)) = map.get_mut("properties") {
        for (property, inner) in properties.iter_mut() {
            let suggested = format!("{base}_{}", property.to_snake_case());
            inline(inner, &suggested, taken, changed, depth);
        }
    }
    if let Some(items) = map.get_mut("items") {
        inline(items, &format!("{base}_item"), taken, changed, depth);
    }
    // typify merges `allOf`'s members into the schema's own type: their
    // properties are named after it. (The members of a `oneOf`/`anyOf`
    // are variants, whose tags and fields typify names otherwise; they
    // are left as they are.)
    if let Some(Value::Array(members)) = map.get_mut("allOf") {
        for member in members {
            children(member, base, taken, changed, depth + 1);
        }
    }
}

/// An inline schema that typify would name `suggested` (or its title).
fn inline(schema: &mut Value, suggested: &str, taken: &mut BTreeSet<String>, changed: &mut bool, depth: usize) {
    let Value::Object(map) = schema else { return };
    if map.contains_key("$ref") || !named_by_typify(map) {
        children(schema, suggested, taken, changed, depth + 1);
        return;
    }
    let name = map
        .get("title")
        .and_then(Value::as_str)
        .unwrap_or(suggested)
        .to_pascal_case();
    // Only a component's name is looked for: typify tells its inline
    // types apart itself.
    let name = if taken.contains(&name) {
        let mut fresh = format!("{name}Inline");
        let mut n = 2;
        while taken.contains(&fresh) {
            fresh = format!("{name}Inline{n}");
            n += 1;
        }
        map.insert("title".into(), Value::String(fresh.clone()));
        taken.insert(fresh.clone());
        *changed = true;
        fresh
    } else {
        name
    };
    children(schema, &name, taken, changed, depth + 1);
}

/// Whether the schema is the component its title names, narrowed (a
/// discriminated member: `{title: Cat, allOf: [{$ref: Cat}, ...]}`),
/// whose name is the component's on purpose.
fn narrows(map: &Map<String, Value>, title: &str) -> bool {
    map.get("allOf").and_then(Value::as_array).is_some_and(|members| {
        members.iter().any(|member| {
            member
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.rsplit('/').next())
                .is_some_and(|name| name.to_pascal_case() == title)
        })
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_inline_schema_named_as_a_component_gets_a_title_of_its_own() {
        let mut components = json!({
            "Monitor": {"type": "object", "properties": {
                "behavior": {"type": "object", "properties": {"config": {"type": "object", "properties": {}}}},
                "cadence": {"type": "object", "properties": {}},
            }},
            "MonitorBehavior": {"type": "object"},
        })
        .as_object()
        .unwrap()
        .clone();
        assert!(any_collide(&components));
        assert!(distinct(&mut components));
        let behavior = &components["Monitor"]["properties"]["behavior"];
        assert_eq!(behavior["title"], "MonitorBehaviorInline");
        assert!(components["Monitor"]["properties"]["cadence"].get("title").is_none());
        assert!(!distinct(&mut components), "once distinct, nothing more changes");
    }

    #[test]
    fn properties_that_would_be_one_field_make_their_object_any_json_value() {
        let mut components = json!({
            "Media": {"type": "object", "description": "d", "properties": {
                "guid": {"type": "string"},
                "Guid": {"type": "array", "items": {"type": "string"}},
            }},
            "Other": {"type": "object", "properties": {"inner": {"type": "object", "properties": {
                "Rating": {"type": "number"}, "rating": {"type": "string"},
            }}}},
        })
        .as_object()
        .unwrap()
        .clone();
        assert!(distinct(&mut components));
        assert_eq!(components["Media"], json!({"description": "d"}));
        assert_eq!(components["Other"]["properties"]["inner"], json!({}));
    }

    #[test]
    fn a_titled_schema_anywhere_inside_is_named_apart_from_the_component_of_its_title() {
        let mut components = json!({
            "Output": {"oneOf": [{"type": "object", "properties": {"a": {"type": "string"}}}]},
            "Response": {"oneOf": [{"type": "object", "properties": {"outputs": {"type": "array", "items": {
                "title": "Output",
                "oneOf": [{"type": "object", "properties": {"b": {"type": "string"}}}, {"type": "string"}],
            }}}}]},
        })
        .as_object()
        .unwrap()
        .clone();
        assert!(distinct(&mut components));
        let items = &components["Response"]["oneOf"][0]["properties"]["outputs"]["items"];
        assert_eq!(items["title"], "OutputInline");
        assert!(!distinct(&mut components));
    }
}
