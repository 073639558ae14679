//! A document of adversarial names, written by [`adversarial_document`]
//! into the corpus (`tests/fixtures/corpus/classes__adversarial-names.json`),
//! whose shard CI builds: the generator's promise that every name it
//! writes is unique, whatever the document calls things, held by code
//! that compiles. The names differ only in punctuation or case, are
//! Rust's keywords, start with digits, or are shaped like the
//! generator's own constants, and they meet in every place a name goes:
//! operations, parameters (in one place and in two), properties (and a
//! `required` list alone), enum values, titles, components, response
//! headers, and the parts of multipart bodies.

use std::path::Path;

use serde_json::{Map, Value, json};

/// Where the document is kept, relative to the workspace.
const FIXTURE: &str = "tests/fixtures/corpus/classes__adversarial-names.json";

/// Names that become one Rust name, or none at all, in each place.
const NAMES: [&str; 16] = [
    "foo\nbar", "foo\"bar", "foo\\bar", "foo bar", "Foo", "FOO", "foo", "type", "self", "Self", "1st", "_1st", "super",
    "crate", "r#type", "",
];

/// operationIds shaped like what the generator names after them, or like
/// its own items.
const OPERATION_IDS: [&str; 14] = [
    "t1",
    "T1",
    "getPet",
    "get_pet",
    "GET_PET",
    "getPetParams",
    "getPetResponse",
    "OPERATIONS",
    "COMPONENTS",
    "StrictServer",
    "strictServer",
    "openapiDocument",
    "authenticate",
    "api_description",
];

fn properties() -> Value {
    let properties: Map<String, Value> = NAMES
        .iter()
        .map(|name| (name.to_string(), json!({"type": "string"})))
        .collect();
    Value::Object(properties)
}

/// The adversarial document, as the fixture holds it.
pub(super) fn adversarial_document() -> Value {
    let mut paths = Map::new();
    for (i, id) in OPERATION_IDS.iter().enumerate() {
        let mut parameters: Vec<Value> = NAMES
            .iter()
            .filter(|name| !name.is_empty())
            .map(|name| json!({"name": name, "in": "query", "schema": {"type": "string"}}))
            .collect();
        // The same names in another place: a parameter is its name and place.
        parameters.extend(
            ["Foo", "foo", "type"]
                .iter()
                .map(|name| json!({"name": name, "in": "header", "schema": {"type": "integer"}})),
        );
        let headers: Map<String, Value> = ["X-Rate", "x-rate", "x_rate", "X_RATE"]
            .iter()
            .map(|name| (name.to_string(), json!({"schema": {"type": "integer"}})))
            .collect();
        let operation = json!({
            "operationId": id,
            "parameters": parameters,
            "requestBody": {"content": {"application/json": {"schema": {
                "type": "object",
                "properties": properties(),
                "required": ["foo\nbar", "foo\"bar", "only\trequired", "only required"],
            }}}},
            "responses": {
                "200": {
                    "description": "ok",
                    "headers": headers,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Type"}}},
                },
                "default": {"description": "anything else"},
            },
        });
        paths.insert(
            format!("/things{i}/{{Foo}}/{{foo}}"),
            json!({
                "parameters": [
                    {"name": "Foo", "in": "path", "required": true, "schema": {"type": "string"}},
                    {"name": "foo", "in": "path", "required": true, "schema": {"type": "string"}},
                ],
                "post": operation,
            }),
        );
    }
    multipart_operations(&mut paths);
    json!({
        "openapi": "3.0.3",
        "info": {"title": "adversarial names", "version": "1.0.0"},
        "paths": paths,
        "components": {"schemas": {
            "Type": {
                "type": "object",
                "properties": {
                    "null_time": {"title": "NullTime", "type": "object", "properties": {"time": {"type": "string"}}},
                    "other_time": {"title": "NullTime", "type": "object", "properties": {"valid": {"type": "boolean"}}},
                    "order": {"type": "string", "enum": ["asc", "desc", "ASC", "DESC", "-name", "+name", "", "1"]},
                    "kind": {"title": "Type", "type": "string", "enum": ["a", "b"]},
                },
            },
            "type": {"type": "object", "properties": properties()},
            "Self": {"type": "string", "enum": ["self", "Self", "SELF"]},
            "1Thing": {"type": "object", "required": ["foo\nbar", "foo\"bar", "foo\\bar"]},
            "NullTime": {"type": "string", "nullable": true, "title": "NullTime"},
        }},
    })
}

/// operationIds shaped like the items of the client's `multipart_bodies`
/// module, each with a multipart body: one of named parts whose names
/// meet (text of every kind, files, lists of files), one whose schema
/// names none.
const MULTIPART_OPERATION_IDS: [&str; 2] = ["File", "parts"];

fn multipart_operations(paths: &mut Map<String, Value>) {
    let mut parts = properties();
    let more = json!({
        "file": {"type": "string", "format": "binary"},
        "File": {"type": "string", "format": "binary"},
        "FILE": {"type": "array", "items": {"type": "string", "format": "binary"}},
        "count": {"type": "integer"},
        "ratio": {"type": "number"},
        "flag": {"type": "boolean"},
        "tags": {"type": "array", "items": {"type": "integer"}},
        "anything": {"type": "array", "items": {}},
        "meta": {"type": "object", "properties": {"a": {"type": "string"}}},
        "value": {},
    });
    parts.as_object_mut().unwrap().extend(more.as_object().unwrap().clone());
    let shapes = [
        json!({"type": "object", "properties": parts, "required": ["file", "count", "type"]}),
        json!({"type": "string", "format": "binary"}),
    ];
    for (id, schema) in MULTIPART_OPERATION_IDS.iter().zip(shapes) {
        paths.insert(
            format!("/uploads/{id}"),
            json!({"post": {
                "operationId": id,
                "requestBody": {"required": true, "content": {"multipart/form-data": {
                    "schema": schema,
                    "encoding": {"File": {"contentType": "image/png"}, "FILE": {"contentType": "image/*"}},
                }}},
                "responses": {"204": {"description": "stored"}, "default": {"description": "anything else"}},
            }}),
        );
    }
}

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The fixture is what [`adversarial_document`] writes (`UPDATE_FIXTURES=1`
/// writes it), so that the names CI builds are the ones this file lists.
#[test]
fn the_adversarial_fixture_is_what_this_file_writes() {
    let written = format!("{:#}\n", adversarial_document());
    let path = root().join(FIXTURE);
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::write(&path, &written).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == written,
        "{FIXTURE} is not what adversarial.rs writes: run `UPDATE_FIXTURES=1 cargo test -p xtask adversarial`, \
         then `cargo xtask generate`"
    );
}

/// Every operation generates, none refused, no schema left untyped for a
/// name (the code is built with the corpus's shard).
#[test]
fn adversarial_names_generate_every_operation() {
    let generated = super::classes::generated(&adversarial_document().to_string());
    assert!(generated.refused.is_empty(), "{:#?}", generated.refused);
    assert_eq!(
        generated.operations,
        OPERATION_IDS.len() + MULTIPART_OPERATION_IDS.len()
    );
}
