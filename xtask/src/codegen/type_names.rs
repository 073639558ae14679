//! Inline schemas whose Rust type would take a component's name.
//!
//! typify names an inline schema after where it is (`Monitor`'s property
//! `behavior` is `MonitorBehavior`, its list's items `…Item`), or after
//! its `title`, and does not look whether a component already has that
//! name: a document with a `Monitor` whose `behavior` is inline, and a
//! component `MonitorBehavior` beside it, gets two types of one name, and
//! code that does not compile. Each such inline schema is given a title
//! of its own (`MonitorBehaviorInline`), in the forms typify reads only
//! (the server's types and the client's), so that the document dropshot
//! emits is the one written.

use std::collections::BTreeSet;

use heck::{ToPascalCase, ToSnakeCase};
use serde_json::{Map, Value};

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
    for (name, schema) in components.iter_mut() {
        let base = schema.get("title").and_then(Value::as_str).unwrap_or(name).to_string();
        children(schema, &base, &mut taken, &mut changed, 0);
    }
    changed
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
        while taken.contains(&fresh) {
            fresh.push('_');
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

/// Whether typify gives the schema a type of its own: an object with
/// properties, an enum, or a combination of more than one schema (one
/// alone, as in `allOf: [$ref]`, is that schema's type).
fn named_by_typify(map: &Map<String, Value>) -> bool {
    map.contains_key("properties")
        || map.contains_key("enum")
        || ["allOf", "anyOf", "oneOf"].iter().any(|key| {
            map.get(*key)
                .and_then(Value::as_array)
                .is_some_and(|members| members.len() > 1)
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
}
