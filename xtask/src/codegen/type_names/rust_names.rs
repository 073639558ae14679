//! The names typify gives what a document names: a type's (its
//! `sanitize`, in PascalCase) and a field's (in snake case), and the
//! components whose names it would write as one (`type` and `Type`),
//! renamed for its eyes only.

use std::collections::{BTreeMap, BTreeSet};

use heck::{ToPascalCase, ToSnakeCase};
use serde_json::{Map, Value};

/// The name typify gives a type called `name` (its `sanitize`, in
/// PascalCase).
pub fn typify_name(name: &str) -> String {
    let cleaned = name
        .replace('\'', "")
        .replace(|c: char| !(c.is_alphanumeric() || c == '_'), "-");
    let pascal = cleaned.to_pascal_case();
    match pascal.chars().next() {
        None => "X".to_string(),
        Some(c) if c.is_alphabetic() || c == '_' => pascal,
        Some(_) => format!("X{pascal}"),
    }
}

/// Components whose names typify would write as one type name (`type`
/// and `Type`, `foo-bar` and `foo_bar`): each after the first, in
/// document order, under a name of its own (`Type2`), for typify's eyes
/// only (the document and its validation keep the written names).
pub fn component_renames(components: &Map<String, Value>) -> BTreeMap<String, String> {
    let mut taken = BTreeSet::new();
    let mut renames = BTreeMap::new();
    for name in components.keys() {
        let typed = typify_name(name);
        if taken.insert(typed.clone()) {
            continue;
        }
        let fresh = (2..)
            .map(|n| format!("{typed}{n}"))
            .find(|fresh| !taken.contains(fresh) && !components.contains_key(fresh))
            .expect("some number is free");
        taken.insert(fresh.clone());
        renames.insert(name.clone(), fresh);
    }
    renames
}

/// Every `$ref` to a renamed component, in `value`, to its new name.
pub fn rename_references(value: &mut Value, renames: &BTreeMap<String, String>) {
    if renames.is_empty() {
        return;
    }
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get_mut("$ref")
                && let Some(name) = reference.strip_prefix("#/components/schemas/")
                && let Some(fresh) = renames.get(name)
            {
                *reference = format!("#/components/schemas/{fresh}");
            }
            map.values_mut().for_each(|inner| rename_references(inner, renames));
        }
        Value::Array(items) => items.iter_mut().for_each(|inner| rename_references(inner, renames)),
        _ => {}
    }
}

/// The field typify writes for a property `name` (its `sanitize`, in
/// snake case, a keyword given a `_`).
pub fn typify_field(name: &str) -> String {
    let cleaned = name
        .replace('\'', "")
        .replace(|c: char| !(c.is_alphanumeric() || c == '_'), "-");
    let snake = cleaned.to_snake_case();
    let snake = match snake.chars().next() {
        None => "x".to_string(),
        Some(c) if c.is_alphabetic() || c == '_' => snake,
        Some(_) => format!("x{snake}"),
    };
    match syn::parse_str::<syn::Ident>(&snake) {
        Ok(_) => snake,
        Err(_) => format!("{snake}_"),
    }
}
