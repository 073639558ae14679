//! The JSON Schema Test Suite (draft 2020-12, vendored in
//! `tests/fixtures/json-schema-test-suite/`) as an OpenAPI 3.1 document:
//! each group's schema a component, the request body of an operation of
//! its own (`POST /<file>/<index>`), which the `json-schema-suite` crate
//! (made by `cargo xtask new`) serves, and whose tests post every
//! instance: a valid one gets past validation (its handler answers 501,
//! not written), an invalid one is answered 400. This file writes the
//! document and the cases (`UPDATE_FIXTURES=1`), and holds them current.
//!
//! A schema's references into itself (`#/properties/foo`, `#`) lead into
//! its component, as a reference of the document would. Left out, each
//! with its reason: groups that need another file of the suite (remote
//! references) or resolve references by `$id`, `$anchor` or
//! `$dynamicRef`, which a document's schemas do not do for the generator
//! (its references lead into `components.schemas`), and the groups of a
//! vocabulary or a meta-schema of their own.
//!
//! `format` is asserted (a decision: docs/designing.md), where JSON
//! Schema 2020-12 makes it an annotation by default: an instance the suite
//! calls valid whose format the validator refuses is expected to be
//! answered 400, and the case says why.

use std::path::Path;

use serde_json::{Map, Value, json};

const SUITE: &str = "tests/fixtures/json-schema-test-suite/draft2020-12";
const DOCUMENT: &str = "tests/fixtures/json-schema-suite/openapi.json";
const CASES: &str = "tests/fixtures/json-schema-suite/cases.json";

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// Why a group cannot be an operation's body, if it cannot.
fn left_out(file: &str, schema: &Value) -> Option<&'static str> {
    let text = schema.to_string();
    if file == "refRemote" {
        return Some("references the suite's remote files (`remotes/`), not vendored: across the suite's files");
    }
    if file == "vocabulary" || text.contains("\"$vocabulary\"") {
        return Some("a meta-schema of its own with `$vocabulary`: a document's schemas are read with 2020-12's");
    }
    if ["\"$dynamicRef\"", "\"$dynamicAnchor\"", "\"$recursiveRef\""]
        .iter()
        .any(|k| text.contains(k))
    {
        return Some("`$dynamicRef`/`$dynamicAnchor`: the generator's references lead into components.schemas");
    }
    if text.contains("\"$id\"") || text.contains("\"$anchor\"") {
        return Some("references resolved by `$id` or `$anchor`: the generator's lead into components.schemas");
    }
    let mut external = false;
    visit_refs(schema, &mut |reference| external |= !reference.starts_with('#'));
    if external {
        return Some("a reference to another resource (a URL, the meta-schema): across files");
    }
    None
}

fn visit_refs(value: &Value, visit: &mut impl FnMut(&str)) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                match (key.as_str(), inner) {
                    ("$ref", Value::String(reference)) => visit(reference),
                    ("const" | "enum" | "default" | "examples", _) => {}
                    _ => visit_refs(inner, visit),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| visit_refs(item, visit)),
        _ => {}
    }
}

/// `schema` as its component `name`: without `$schema`, its references
/// into itself rooted at the component.
fn as_component(schema: &Value, name: &str) -> Value {
    fn rewrite(value: &mut Value, name: &str) {
        match value {
            Value::Object(map) => {
                for (key, inner) in map.iter_mut() {
                    match (key.as_str(), &mut *inner) {
                        ("$ref", Value::String(reference)) if reference.starts_with('#') => {
                            *reference = format!("#/components/schemas/{name}{}", &reference[1..]);
                        }
                        ("const" | "enum" | "default" | "examples", _) => {}
                        _ => rewrite(inner, name),
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|item| rewrite(item, name)),
            _ => {}
        }
    }
    let mut schema = schema.clone();
    if let Value::Object(map) = &mut schema {
        map.remove("$schema");
    }
    rewrite(&mut schema, name);
    schema
}

/// Whether the validator refuses `data` for a format of `schema` (the
/// format.json groups: JSON Schema's annotation, asserted here).
fn format_refuses(schema: &Value, data: &Value) -> bool {
    if schema.get("format").is_none() {
        return false;
    }
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(schema);
    validator.is_ok_and(|v| !v.is_valid(data))
}

/// The document and the cases, from the vendored suite.
pub(super) fn suite_document() -> (Value, Value) {
    let mut files: Vec<_> = std::fs::read_dir(root().join(SUITE))
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".json"))
        .collect();
    files.sort();
    let mut paths = Map::new();
    let mut schemas = Map::new();
    let mut cases = Vec::new();
    for file in files {
        let stem = file.trim_end_matches(".json").to_string();
        let groups: Vec<Value> =
            serde_json::from_str(&std::fs::read_to_string(root().join(SUITE).join(&file)).unwrap()).unwrap();
        for (i, group) in groups.iter().enumerate() {
            let path = format!("/{stem}/{i}");
            let name = format!("{stem}_{i}");
            let schema = &group["schema"];
            let reason = left_out(&stem, schema);
            let tests: Vec<Value> = group["tests"]
                .as_array()
                .unwrap()
                .iter()
                .map(|test| {
                    let mut case = json!({
                        "description": test["description"],
                        "data": test["data"],
                        "valid": test["valid"],
                    });
                    if stem == "format" && test["valid"] == true && format_refuses(schema, &test["data"]) {
                        case["valid"] = json!(false);
                        case["asserted"] = json!("format is asserted (docs/designing.md): JSON Schema annotates it");
                    }
                    case
                })
                .collect();
            cases.push(json!({
                "path": path,
                "group": format!("{file}: {}", group["description"].as_str().unwrap_or_default()),
                "left_out": reason,
                "tests": tests,
            }));
            if reason.is_some() {
                continue;
            }
            schemas.insert(name.clone(), as_component(schema, &name));
            paths.insert(
                path,
                json!({"post": {
                    "operationId": name,
                    "summary": group["description"],
                    "requestBody": {
                        "required": true,
                        "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{name}")}}},
                    },
                    "responses": {"204": {"description": "the instance is valid"}},
                }}),
            );
        }
    }
    let document = json!({
        "openapi": "3.1.0",
        "info": {
            "title": "JSON Schema Test Suite",
            "version": "2020-12",
            "description": "Each group of the JSON Schema Test Suite (draft 2020-12) as the request body of an operation of its own.",
        },
        "paths": paths,
        "components": {"schemas": schemas},
    });
    (document, Value::Array(cases))
}

/// The fixtures are what [`suite_document`] writes (`UPDATE_FIXTURES=1`
/// writes them, then `cargo xtask generate`).
#[test]
fn the_suite_document_is_what_this_file_writes() {
    let (document, cases) = suite_document();
    for (path, value) in [(DOCUMENT, document), (CASES, cases)] {
        let written = format!("{value:#}\n");
        let path = root().join(path);
        if std::env::var_os("UPDATE_FIXTURES").is_some() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &written).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == written,
            "{} is not what json_schema_suite.rs writes: run `UPDATE_FIXTURES=1 cargo test -p xtask \
             json_schema_suite`, then `cargo xtask generate`",
            path.display()
        );
    }
}

/// Every group kept is an operation, none refused: the generator maps
/// what JSON Schema says, exactly, in Rust or as any JSON value. The
/// document is the committed fixture (the test above holds it to what
/// this file writes), as the workspace's generation reads it.
#[test]
fn every_suite_group_generates() {
    let (_, cases) = suite_document();
    let (_, generated) = crate::support::targets_generated_once()
        .iter()
        .find(|(spec, _)| spec == DOCUMENT)
        .expect("the suite's document is a target (crates/json-schema-suite)");
    assert!(generated.refused.is_empty(), "{:#?}", generated.refused);
    let kept = cases
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["left_out"].is_null())
        .count();
    assert_eq!(generated.operations, kept);
}
