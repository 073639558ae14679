//! Operation names. The generators name code after `operationId`; an
//! operation without one, or with one that is not an identifier (`find pet
//! by id`), gets a stable name here, before anything else reads the
//! document, so the server and progenitor's client agree on it.
//!
//! Names are compared in the forms the code uses (snake_case for methods,
//! PascalCase for types), so `getPet` and `get_pet` collide; the later
//! operation in document order gets a numbered suffix. A name whose
//! snake_case is a Rust keyword gets `_operation` appended.

use std::collections::BTreeSet;

use heck::{ToPascalCase, ToSnakeCase};
use serde_json::Value;

use super::model::{DerivedName, METHODS};

/// Gives every operation of `json` (the document) a usable, unique
/// `operationId`, and lists those it had to name or rename.
pub fn name_operations(json: &mut Value) -> Vec<DerivedName> {
    let mut taken = BTreeSet::new();
    let mut wanted: Vec<(String, String, Option<String>, String)> = Vec::new();
    for (path, item) in json.get("paths").and_then(Value::as_object).into_iter().flatten() {
        for method in METHODS {
            let Some(operation) = item.get(method).filter(|o| o.is_object()) else {
                continue;
            };
            let written = operation.get("operationId").and_then(Value::as_str).map(str::to_string);
            let candidate = match &written {
                Some(id) if is_identifier(id) => id.clone(),
                Some(id) => identifier_from_words(id).unwrap_or_else(|| derived(method, path)),
                None => derived(method, path),
            };
            wanted.push((path.clone(), method.to_string(), written, candidate));
        }
    }
    let mut derived_names = Vec::new();
    for (path, method, written, candidate) in wanted {
        let mut given = match is_keyword(&candidate) {
            true => format!("{candidate}_operation"),
            false => candidate,
        };
        if taken.contains(&key(&given)) {
            let base = given.clone();
            given = (2..)
                .map(|n| format!("{base}_{n}"))
                .find(|name| !taken.contains(&key(name)))
                .expect("some suffix is free");
        }
        taken.insert(key(&given));
        if written.as_deref() != Some(given.as_str()) {
            json["paths"][path.as_str()][method.as_str()]["operationId"] = Value::String(given.clone());
            derived_names.push(DerivedName {
                path,
                method,
                written,
                given,
            });
        }
    }
    derived_names
}

/// Writes `name` into the YAML reading of the document.
pub fn set_operation_id(raw: &mut serde_norway::Value, name: &DerivedName) {
    let operation = raw
        .get_mut("paths")
        .and_then(|paths| paths.get_mut(name.path.as_str()))
        .and_then(|item| item.get_mut(name.method.as_str()))
        .and_then(serde_norway::Value::as_mapping_mut);
    if let Some(operation) = operation {
        operation.insert("operationId".into(), name.given.clone().into());
    }
}

/// Two names collide when the code would spell them the same.
fn key(name: &str) -> (String, String) {
    (name.to_snake_case(), name.to_pascal_case())
}

fn is_identifier(id: &str) -> bool {
    id.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `find pet by id` → `find_pet_by_id`; none when nothing usable is left.
fn identifier_from_words(text: &str) -> Option<String> {
    let words: Vec<&str> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let joined = words.join("_");
    is_identifier(&joined).then_some(joined)
}

/// `get /pets/{petId}/photos` → `get_pets_by_pet_id_photos`.
fn derived(method: &str, path: &str) -> String {
    let mut words = vec![method.to_string()];
    for segment in path.split('/').filter(|s| !s.is_empty()) {
        match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            Some(variable) => {
                words.push("by".to_string());
                words.push(variable.to_string());
            }
            None => words.push(segment.to_string()),
        }
    }
    if words.len() == 1 {
        words.push("root".to_string());
    }
    let text = words.join(" ");
    identifier_from_words(&text)
        .unwrap_or_else(|| method.to_string())
        .to_snake_case()
}

/// Rust would not take the name's snake_case as a function, or its
/// PascalCase as a type.
fn is_keyword(name: &str) -> bool {
    syn::parse_str::<syn::Ident>(&name.to_snake_case()).is_err()
        || syn::parse_str::<syn::Ident>(&name.to_pascal_case()).is_err()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn missing_invalid_colliding_and_keyword_names_are_resolved() {
        let mut doc = json!({"paths": {
            "/pets/{petId}": {"get": {}, "delete": {"operationId": "find pet by id"}},
            "/": {"get": {"operationId": "getPet"}, "post": {"operationId": "get_pet"}},
            "/x": {"get": {"operationId": "type"}, "put": {"operationId": "42"}},
        }});
        let derived = name_operations(&mut doc);
        let id = |path: &str, method: &str| doc["paths"][path][method]["operationId"].as_str().unwrap().to_string();
        assert_eq!(id("/pets/{petId}", "get"), "get_pets_by_pet_id");
        assert_eq!(id("/pets/{petId}", "delete"), "find_pet_by_id");
        assert_eq!(id("/", "get"), "getPet");
        assert_eq!(id("/", "post"), "get_pet_2");
        assert_eq!(id("/x", "get"), "type_operation");
        assert_eq!(id("/x", "put"), "put_x");
        assert_eq!(derived.len(), 5, "{derived:?}");
    }
}
