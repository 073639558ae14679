//! Paths: path items that refer to others, query strings and fragments
//! written into them, two variables with nothing between them where one
//! allows a single value, and path parameters their path does not name
//! (or path variables no parameter declares).

use serde_norway::{Mapping, Value};

use super::values::owned;
use super::values::pointed;
use crate::codegen::document::model::METHODS;
use crate::codegen::document::router::path_variables;

/// A path item that is a `$ref` (3.0 allows one, to an item written
/// elsewhere): one in this document (`#/paths/~1other`) is the item it
/// points at; one elsewhere (another file) cannot be read, and its path
/// is left out, named, instead of the document.
pub(super) fn path_item_references(doc: &mut Value, note: &mut impl FnMut(String, &str)) {
    let Some(Value::Mapping(paths)) = doc.get("paths") else {
        return;
    };
    let mut resolved: Vec<(Value, Option<Value>, String)> = Vec::new();
    for (path, item) in paths {
        let Some(target) = item.get("$ref").and_then(Value::as_str) else {
            continue;
        };
        let found = target
            .strip_prefix('#')
            .and_then(|pointer| pointed(doc, pointer))
            .filter(|found| found.is_mapping() && found.get("$ref").is_none())
            .cloned();
        resolved.push((path.clone(), found, target.to_string()));
    }
    let Some(Value::Mapping(paths)) = doc.get_mut("paths") else {
        return;
    };
    for (path, found, target) in resolved {
        let at = format!("paths.{}", path.as_str().unwrap_or_default());
        match found {
            Some(item) => {
                paths.insert(path, item);
                note(
                    format!("{at}.$ref"),
                    &format!("a path item that refers to `{target}`: read as the item there"),
                );
            }
            None => {
                paths.shift_remove(&path);
                note(
                    at,
                    &format!(
                        "(left out) a path item that refers to `{target}`, which this document does not hold: not served"
                    ),
                );
            }
        }
    }
}

/// `/x?a={a}&b={b}`: the path is `/x`, and `a` and `b` are in the query.
pub(super) fn query_strings_in_paths(doc: &mut Value, note: &mut impl FnMut(String, &str)) {
    let Some(Value::Mapping(paths)) = doc.get_mut("paths") else {
        return;
    };
    let with_query: Vec<String> = paths
        .keys()
        .filter_map(Value::as_str)
        .filter(|p| p.contains(['?', '#']))
        .map(str::to_string)
        .collect();
    for original in with_query {
        // `/x?a={a}`, and `/x#Action=Y` (a fragment, which no client
        // sends: converters write one to tell apart operations of one path).
        let cut = original.find(['?', '#']).unwrap_or(original.len());
        let path = &original[..cut];
        let query = original[cut..]
            .strip_prefix('?')
            .map(|query| query.split('#').next().unwrap_or_default())
            .unwrap_or_default();
        let in_query: Vec<String> = owned(path_variables(query));
        let Some(Value::Mapping(mut item)) = paths.get(original.as_str()).cloned() else {
            continue;
        };
        // Taken only where the path is free for every method.
        let clash = paths.get(path).and_then(Value::as_mapping).is_some_and(|existing| {
            METHODS
                .iter()
                .any(|m| existing.contains_key(*m) && item.contains_key(*m))
        });
        if clash {
            continue;
        }
        move_to_query(item.get_mut("parameters"), &in_query);
        for method in METHODS {
            if let Some(op) = item.get_mut(method) {
                move_to_query(op.get_mut("parameters"), &in_query);
            }
        }
        paths.shift_remove(original.as_str());
        match paths.get_mut(path) {
            Some(Value::Mapping(existing)) => existing.extend(item),
            _ => {
                paths.insert(path.into(), Value::Mapping(item));
            }
        }
        note(
            format!("paths.{original}"),
            &format!(
                "a query string or fragment in a path is read as the path `{path}`, with the query's variables in the query"
            ),
        );
    }
}

/// `/blog/{page}{extension}`, where `extension` allows one value
/// (`.json`): nothing separates the two variables, but the one value is
/// the text that does. The path is read with it written in
/// (`/blog/{page}.json`), and the parameter, which could hold nothing
/// else, is not read.
pub(super) fn one_valued_variables(doc: &mut Value, note: &mut impl FnMut(String, &str)) {
    let Some(Value::Mapping(paths)) = doc.get_mut("paths") else {
        return;
    };
    let adjacent: Vec<String> = paths
        .keys()
        .filter_map(Value::as_str)
        .filter(|p| p.contains("}{"))
        .map(str::to_string)
        .collect();
    for original in adjacent {
        let Some(Value::Mapping(item)) = paths.get(original.as_str()).cloned() else {
            continue;
        };
        // Every declaration of a variable, on the path item and its
        // operations (a `$ref`'d one cannot be read here: left as it is).
        let lists = || {
            std::iter::once(item.get("parameters"))
                .chain(METHODS.iter().map(|m| item.get(*m).and_then(|op| op.get("parameters"))))
                .flatten()
                .filter_map(Value::as_sequence)
                .flatten()
        };
        if lists().any(|p| p.get("$ref").is_some()) {
            continue;
        }
        let mut path = original.clone();
        let mut fixed = Vec::new();
        for name in owned(path_variables(&original)) {
            let values: Vec<Option<String>> = lists()
                .filter(|p| {
                    p.get("in").and_then(Value::as_str) == Some("path")
                        && p.get("name").and_then(Value::as_str) == Some(name.as_str())
                })
                .map(
                    |p| match p.get("schema").and_then(|s| s.get("enum")).and_then(Value::as_sequence) {
                        Some(values) if values.len() == 1 => values[0].as_str().map(str::to_string),
                        _ => None,
                    },
                )
                .collect();
            if let Some(Some(value)) = values.first()
                && values.iter().all(|v| v.as_ref() == Some(value))
                && !value.contains(['/', '{', '}'])
            {
                path = path.replace(&format!("{{{name}}}"), value);
                fixed.push(name);
            }
        }
        if fixed.is_empty() || path.contains("}{") || paths.contains_key(path.as_str()) {
            continue;
        }
        let mut item = item;
        let drop = |list: Option<&mut Value>| {
            if let Some(Value::Sequence(parameters)) = list {
                parameters.retain(|p| {
                    !(p.get("in").and_then(Value::as_str) == Some("path")
                        && p.get("name")
                            .and_then(Value::as_str)
                            .is_some_and(|n| fixed.iter().any(|f| f == n)))
                });
            }
        };
        drop(item.get_mut("parameters"));
        for method in METHODS {
            if let Some(op) = item.get_mut(method) {
                drop(op.get_mut("parameters"));
            }
        }
        let at = paths.iter().position(|(k, _)| k.as_str() == Some(original.as_str()));
        paths.shift_remove(original.as_str());
        paths.insert(path.clone().into(), Value::Mapping(item));
        // Back in the document's place, so the operations keep their order.
        if let Some(at) = at {
            let last = paths.len() - 1;
            let entries: Vec<(Value, Value)> = std::mem::take(paths).into_iter().collect();
            let mut entries = entries;
            let moved = entries.remove(last);
            entries.insert(at, moved);
            paths.extend(entries);
        }
        note(
            format!("paths.{original}"),
            &format!("a variable beside another that allows one value is that text: read as `{path}`"),
        );
    }
}

fn move_to_query(parameters: Option<&mut Value>, names: &[String]) {
    let Some(Value::Sequence(parameters)) = parameters else {
        return;
    };
    for parameter in parameters {
        let name = parameter
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        if parameter.get("in").and_then(Value::as_str) == Some("path")
            && names.contains(&name)
            && let Value::Mapping(map) = parameter
        {
            map.insert("in".into(), "query".into());
            map.shift_remove("required");
        }
    }
}

/// A declared path parameter the path does not have goes; a path
/// variable an operation does not declare (on itself or its path item)
/// is a required string.
pub(super) fn path_parameters(path: &str, item: &mut Mapping, note: &mut impl FnMut(String, &str)) {
    let in_path = owned(path_variables(path));
    let is_stray = |parameter: &Value| {
        parameter.get("in").and_then(Value::as_str) == Some("path")
            && parameter
                .get("name")
                .and_then(Value::as_str)
                .is_some_and(|name| !in_path.iter().any(|v| v == name))
    };
    let mut strays = |list: Option<&mut Value>, at: String| {
        if let Some(Value::Sequence(parameters)) = list {
            let before = parameters.len();
            parameters.retain(|p| !is_stray(p));
            if parameters.len() != before {
                note(at, "a path parameter whose name is not in the path is not read");
            }
        }
    };
    strays(item.get_mut("parameters"), format!("paths.{path}.parameters"));
    for method in METHODS {
        if let Some(op) = item.get_mut(method) {
            strays(op.get_mut("parameters"), format!("paths.{path}.{method}.parameters"));
        }
    }
    let declared = |list: Option<&Value>, name: &str| {
        list.and_then(Value::as_sequence).into_iter().flatten().any(|p| {
            p.get("in").and_then(Value::as_str) == Some("path") && p.get("name").and_then(Value::as_str) == Some(name)
        })
    };
    let shared: Option<Value> = item.get("parameters").cloned();
    for method in METHODS {
        let Some(Value::Mapping(op)) = item.get_mut(method) else {
            continue;
        };
        for name in &in_path {
            // A `$ref`'d parameter may declare it: read as declared.
            let any_ref = |list: Option<&Value>| {
                list.and_then(Value::as_sequence)
                    .into_iter()
                    .flatten()
                    .any(|p| p.get("$ref").is_some())
            };
            if declared(shared.as_ref(), name)
                || declared(op.get("parameters"), name)
                || any_ref(shared.as_ref())
                || any_ref(op.get("parameters"))
            {
                continue;
            }
            let parameter: Value = serde_norway::from_str(&format!(
                "{{name: {}, in: path, required: true, schema: {{type: string}}}}",
                serde_json::to_string(name).unwrap_or_default()
            ))
            .unwrap_or(Value::Null);
            let list = op.entry("parameters".into()).or_insert(Value::Sequence(Vec::new()));
            if let Value::Sequence(list) = list {
                list.push(parameter);
                note(
                    format!("paths.{path}.{method}.parameters"),
                    &format!("path variable `{{{name}}}` is not declared here: read as a string"),
                );
            }
        }
    }
}
