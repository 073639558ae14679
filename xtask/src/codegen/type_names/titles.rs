//! Titled schemas typify would take for one type: each titled schema
//! whose title another, different one has first gets a title of its own.

use std::collections::{BTreeMap, BTreeSet};

use heck::ToPascalCase;
use serde_json::{Map, Value};

/// typify names a titled schema by its title wherever it is, and takes
/// two schemas of one title for one type: the second's values then do
/// not fit it (its `default`, typify's "value does not conform"), or two
/// types of one name are written (`NullTime`, twice). Each titled schema
/// whose title another, different one has first (in document order)
/// gets a title of its own (`Type2`); the same schema under the same
/// title is one type, as typify makes it.
pub(super) fn titles_apart(components: &mut Map<String, Value>, changed: &mut bool) {
    let mut seen: BTreeMap<String, Value> = std::collections::BTreeMap::new();
    let mut taken: BTreeSet<String> = components.keys().map(|name| name.to_pascal_case()).collect();
    for schema in components.values_mut() {
        titled_apart(schema, &mut seen, &mut taken, changed, 0);
    }
}

fn titled_apart(
    schema: &mut Value,
    seen: &mut BTreeMap<String, Value>,
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
        {
            let mut this = child.clone();
            this.remove("title");
            match seen.get(&title) {
                // The same schema: the same type.
                Some(first) if *first == Value::Object(this.clone()) => {}
                Some(_) => {
                    let fresh = (2..)
                        .map(|n| format!("{title}{n}"))
                        .find(|name| !taken.contains(name) && !seen.contains_key(name))
                        .expect("some number is free");
                    child.insert("title".into(), Value::String(fresh.clone()));
                    seen.insert(fresh.clone(), Value::Object(this));
                    taken.insert(fresh);
                    *changed = true;
                }
                None => {
                    seen.insert(title.clone(), Value::Object(this));
                    taken.insert(title);
                }
            }
        }
        titled_apart(value, seen, taken, changed, depth + 1);
    }
}

/// Whether typify gives the schema a type of its own: an object with
/// properties, an enum, or a combination of more than one schema (one
/// alone, as in `allOf: [$ref]`, is that schema's type).
pub(super) fn named_by_typify(map: &Map<String, Value>) -> bool {
    map.contains_key("properties")
        || map.contains_key("enum")
        || ["allOf", "anyOf", "oneOf"].iter().any(|key| {
            map.get(*key)
                .and_then(Value::as_array)
                .is_some_and(|members| members.len() > 1)
        })
}
