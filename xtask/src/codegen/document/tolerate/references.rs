//! References that lead elsewhere than OpenAPI says they may: a
//! parameter's (or a response's, a body's, a response header's) `$ref`
//! to the one written in another operation
//! (`#/paths/~1a/get/parameters/2`), which is that parameter; and definitions kept inside a component schema
//! (`definitions`, `$defs`), each a component of its own, every reference
//! to it leading there.

use serde_norway::{Mapping, Value};

use super::values::{key_text, pointed};

/// The places whose entries may be references, and the components they
/// must lead into.
const REFERABLE: [(&str, &str); 3] = [
    ("parameters", "#/components/parameters/"),
    ("responses", "#/components/responses/"),
    ("requestBody", "#/components/requestBodies/"),
];

/// Each parameter, response and request body that refers to another part
/// of the document than its components: the object it points at.
pub(super) fn foreign_references(doc: &mut Value, note: &mut impl FnMut(String, &str)) {
    let snapshot = doc.clone();
    let Some(Value::Mapping(paths)) = doc.get_mut("paths") else {
        return;
    };
    for (path, item) in paths.iter_mut() {
        let path = key_text(path);
        let Value::Mapping(item) = item else { continue };
        resolve_in(item, &format!("paths.{path}"), &snapshot, note);
        for (method, operation) in item.iter_mut() {
            let method = key_text(method);
            if let Value::Mapping(operation) = operation {
                resolve_in(operation, &format!("paths.{path}.{method}"), &snapshot, note);
            }
        }
    }
}

fn resolve_in(owner: &mut Mapping, at: &str, doc: &Value, note: &mut impl FnMut(String, &str)) {
    for (key, prefix) in REFERABLE {
        let entries: Vec<(String, &mut Value)> = match owner.get_mut(key) {
            Some(Value::Sequence(items)) => items
                .iter_mut()
                .enumerate()
                .map(|(i, v)| (format!("{at}.{key}.{i}"), v))
                .collect(),
            Some(Value::Mapping(map)) if key == "responses" => map
                .iter_mut()
                .map(|(status, v)| (format!("{at}.{key}.{}", key_text(status)), v))
                .collect(),
            Some(value @ Value::Mapping(_)) => vec![(format!("{at}.{key}"), value)],
            _ => continue,
        };
        for (location, entry) in entries {
            read_where_it_points(entry, prefix, doc, &location, note);
        }
    }
}

/// `entry`, a reference elsewhere than under `prefix` (its components),
/// as what it points at. One step only: what it leads to may itself be a
/// reference into the components, which is read as usual.
fn read_where_it_points(
    entry: &mut Value,
    prefix: &str,
    doc: &Value,
    location: &str,
    note: &mut impl FnMut(String, &str),
) {
    let Some(target) = entry.get("$ref").and_then(Value::as_str).map(str::to_string) else {
        return;
    };
    if target.starts_with(prefix) {
        return;
    }
    let Some(found) = target.strip_prefix('#').and_then(|pointer| pointed(doc, pointer)) else {
        return;
    };
    if found
        .get("$ref")
        .is_some_and(|r| r.as_str().is_none_or(|r| !r.starts_with(prefix)))
    {
        return;
    }
    *entry = found.clone();
    note(
        format!("{location}.$ref"),
        &format!("a reference to `{target}`, not into components: read as what it points at"),
    );
}

/// Each response header that refers to another part of the document than
/// `components.headers` (a bundler's `#/paths/~1a/get/responses/200/
/// headers/x`, written once and pointed at from every other response):
/// the header it points at.
pub(super) fn foreign_header_references(doc: &mut Value, note: &mut impl FnMut(String, &str)) {
    let snapshot = doc.clone();
    let mut responses: Vec<(String, &mut Value)> = Vec::new();
    if let Some(Value::Mapping(paths)) = doc.get_mut("paths") {
        for (path, item) in paths.iter_mut() {
            let path = key_text(path);
            let Value::Mapping(item) = item else { continue };
            for (method, operation) in item.iter_mut() {
                let method = key_text(method);
                if let Some(Value::Mapping(map)) = operation.get_mut("responses") {
                    for (status, response) in map.iter_mut() {
                        responses.push((
                            format!("paths.{path}.{method}.responses.{}", key_text(status)),
                            response,
                        ));
                    }
                }
            }
        }
    }
    for (location, response) in responses {
        let Some(Value::Mapping(headers)) = response.get_mut("headers") else {
            continue;
        };
        for (name, header) in headers.iter_mut() {
            let at = format!("{location}.headers.{}", key_text(name));
            read_where_it_points(header, "#/components/headers/", &snapshot, &at, note);
        }
    }
}

/// Definitions inside component schemas as components of their own
/// (`super::super::openapi31::defs`, for a 3.0 document too).
pub(super) fn nested_definitions(doc: &mut Value, note: &mut impl FnMut(String, &str)) {
    let Some(Value::Mapping(schemas)) = doc.get("components").and_then(|c| c.get("schemas")) else {
        return;
    };
    let holding: Vec<(String, &str)> = schemas
        .iter()
        .flat_map(|(name, schema)| {
            let name = key_text(name);
            ["$defs", "definitions"]
                .into_iter()
                .filter(move |keyword| schema.get(*keyword).is_some_and(Value::is_mapping))
                .map(move |keyword| (name.clone(), keyword))
        })
        .collect();
    if holding.is_empty() {
        return;
    }
    let Value::Mapping(top) = doc else { return };
    super::super::openapi31::defs::hoist(top);
    for (name, keyword) in holding {
        note(
            format!("components.schemas.{name}.{keyword}"),
            &format!(
                "`{keyword}` inside a component: each definition is a component of its own (`{name}_<definition>`)"
            ),
        );
    }
}
