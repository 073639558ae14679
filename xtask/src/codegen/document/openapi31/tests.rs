//! The 3.0 rendering of 3.1 schemas validates what the originals do: each
//! original, read by the validator as JSON Schema 2020-12, and the
//! validation form of its rendering agree on every instance.

use serde_json::{Value, json};

use super::to_30;
use crate::codegen::schema::{typify_form, validation_form};

/// The rendering of `schemas` (as a 3.1 document's components), and what
/// it noted.
fn rendered(schemas: &Value) -> (Value, Vec<String>) {
    let doc = json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "components": {"schemas": schemas}});
    let mut yaml: serde_norway::Value = serde_json::from_value(doc).unwrap();
    let mut notes = Vec::new();
    to_30(&mut yaml, &mut |at, message| notes.push(format!("{at}: {message}"))).unwrap();
    let json: Value = serde_json::to_value(yaml).unwrap();
    (json["components"]["schemas"].clone(), notes)
}

fn validator(root: Value) -> jsonschema::Validator {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&root)
        .unwrap_or_else(|e| panic!("{e}: {root}"))
}

/// Asserts that `name`'s original and its rendering's validation form
/// agree on each instance, and that the original accepts `valid` and
/// refuses `invalid`.
fn agree(schemas: &Value, name: &str, valid: &[Value], invalid: &[Value]) {
    let original = validator(json!({
        "$ref": format!("#/components/schemas/{name}"),
        "components": {"schemas": schemas},
    }));
    let (rendering, _) = rendered(schemas);
    let definitions: serde_json::Map<String, Value> = rendering
        .as_object()
        .unwrap()
        .iter()
        .map(|(n, s)| (n.clone(), validation_form(s)))
        .collect();
    let mut root = validation_form(&rendering[name]);
    root.as_object_mut()
        .unwrap()
        .insert("$defs".into(), Value::Object(definitions));
    let rendered = validator(root.clone());
    for (instance, expected) in valid
        .iter()
        .map(|v| (v, true))
        .chain(invalid.iter().map(|v| (v, false)))
    {
        assert_eq!(
            original.is_valid(instance),
            expected,
            "{name}: the original on {instance}"
        );
        assert_eq!(
            rendered.is_valid(instance),
            expected,
            "{name}: the rendering on {instance}: {root}"
        );
    }
}

#[test]
fn null_among_the_types_is_nullable_and_null_stays_distinct_from_absent() {
    let schemas = json!({
        "Pet": {
            "type": "object",
            "required": ["name", "tag"],
            "properties": {
                "name": {"type": ["string"]},
                "tag": {"type": ["string", "null"]},
                "owner": {"anyOf": [{"$ref": "#/components/schemas/Owner"}, {"type": "null"}]},
                "size": {"type": ["string", "null"], "enum": ["s", "m"]},
            },
        },
        "Owner": {"type": "object", "properties": {"id": {"type": "integer"}}},
    });
    agree(
        &schemas,
        "Pet",
        &[
            json!({"name": "a", "tag": null}),
            json!({"name": "a", "tag": "x", "owner": null, "size": "s"}),
            json!({"name": "a", "tag": "x", "owner": {"id": 1}}),
        ],
        &[
            json!({"name": "a"}),
            json!({"name": null, "tag": null}),
            json!({"name": "a", "tag": null, "owner": {"id": "x"}}),
            json!({"name": "a", "tag": null, "size": null}),
        ],
    );
    let (rendering, notes) = rendered(&schemas);
    assert_eq!(
        rendering["Pet"]["properties"]["tag"],
        json!({"type": "string", "nullable": true})
    );
    assert_eq!(
        rendering["Pet"]["properties"]["owner"],
        json!({"allOf": [{"$ref": "#/components/schemas/Owner"}], "nullable": true})
    );
    assert!(
        notes.is_empty(),
        "a 3.1 document's own constructs are no warning: {notes:?}"
    );
    // typify reads a required property that may be null as one.
    let typify = typify_form(&rendering["Pet"]["properties"]["tag"]);
    assert_eq!(typify, json!({"type": ["string", "null"]}));
}

#[test]
fn const_bounds_examples_and_references_with_siblings_say_what_they_said() {
    let schemas = json!({
        "Event": {
            "type": "object",
            "required": ["kind", "count"],
            "properties": {
                "kind": {"const": "created", "examples": ["created"]},
                "count": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10, "minimum": -5},
                "ratio": {"type": "number", "exclusiveMinimum": 0, "minimum": 1},
                "name": {"$ref": "#/components/schemas/Name", "maxLength": 3, "description": "short"},
                "label": {"$ref": "#/components/schemas/Name", "description": "annotated only"},
            },
        },
        "Name": {"type": "string", "minLength": 2},
    });
    agree(
        &schemas,
        "Event",
        &[json!({"kind": "created", "count": 9, "ratio": 1, "name": "ab", "label": "abcdef"})],
        &[
            json!({"kind": "deleted", "count": 1}),
            json!({"kind": "created", "count": 0}),
            json!({"kind": "created", "count": 10}),
            json!({"kind": "created", "count": 1, "ratio": 0.5}),
            json!({"kind": "created", "count": 1, "name": "abcd"}),
            json!({"kind": "created", "count": 1, "name": "a"}),
            json!({"kind": "created", "count": 1, "label": "a"}),
        ],
    );
    let (rendering, _) = rendered(&schemas);
    let properties = &rendering["Event"]["properties"];
    assert_eq!(
        properties["kind"],
        json!({"type": "string", "enum": ["created"], "example": "created"})
    );
    assert_eq!(properties["label"]["$ref"], "#/components/schemas/Name");
    assert_eq!(
        properties["name"]["allOf"],
        json!([{"$ref": "#/components/schemas/Name"}])
    );
    assert_eq!(properties["ratio"], json!({"type": "number", "minimum": 1}));
}

#[test]
fn keywords_without_a_rust_type_are_validated_exactly_and_named() {
    let schemas = json!({
        "Point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "string"}], "items": false},
        "Labels": {
            "type": "object",
            "patternProperties": {"^x-": {"type": "string"}},
            "additionalProperties": false,
        },
        "Shape": {
            "type": "object",
            "properties": {"kind": {"type": "string"}, "radius": {"type": "number"}},
            "if": {"properties": {"kind": {"const": "circle"}}},
            "then": {"required": ["radius"]},
            "unevaluatedProperties": false,
        },
        "Either": {"type": ["string", "integer"], "minLength": 2},
        "Nothing": {"type": "null"},
    });
    agree(
        &schemas,
        "Point",
        &[json!([1, "a"]), json!([1])],
        &[json!([1, 2]), json!([1, "a", 3])],
    );
    agree(
        &schemas,
        "Labels",
        &[json!({"x-a": "b"})],
        &[json!({"x-a": 1}), json!({"y": "b"})],
    );
    agree(
        &schemas,
        "Shape",
        &[json!({"kind": "circle", "radius": 1}), json!({"kind": "square"})],
        &[json!({"kind": "circle"}), json!({"kind": "square", "side": 1})],
    );
    agree(
        &schemas,
        "Either",
        &[json!("ab"), json!(1)],
        &[json!("a"), json!(true), json!(null)],
    );
    agree(&schemas, "Nothing", &[json!(null)], &[json!(1)]);
    let (rendering, notes) = rendered(&schemas);
    // Looser types: a list of anything, an open object, any JSON value.
    assert_eq!(typify_form(&rendering["Point"]), json!({"type": "array", "items": {}}));
    assert_eq!(typify_form(&rendering["Labels"]), json!({"type": "object"}));
    assert_eq!(typify_form(&rendering["Either"]), json!({}));
    for name in ["Point", "Labels", "Shape"] {
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with(&format!("components.schemas.{name}: (degrade)"))),
            "{name} is named: {notes:?}"
        );
    }
}

#[test]
fn content_keywords_say_what_3_0_formats_say() {
    let schemas = json!({
        "Upload": {"type": "object", "properties": {
            "file": {"type": "string", "contentMediaType": "application/octet-stream"},
            "blob": {"type": "string", "contentEncoding": "base64", "contentMediaType": "image/png"},
            "html": {"type": "string", "contentMediaType": "text/html"},
        }},
    });
    let (rendering, notes) = rendered(&schemas);
    let properties = &rendering["Upload"]["properties"];
    assert_eq!(properties["file"], json!({"type": "string", "format": "binary"}));
    assert_eq!(properties["blob"], json!({"type": "string", "format": "byte"}));
    assert_eq!(properties["html"], json!({"type": "string"}));
    assert!(notes.is_empty(), "{notes:?}");
}

#[test]
fn definitions_become_components_and_references_follow() {
    let schemas = json!({
        "Order": {
            "$defs": {"Line": {"type": "object", "properties": {"qty": {"type": "integer"}}}},
            "type": "object",
            "properties": {
                "lines": {"type": "array", "items": {"$ref": "#/$defs/Line"}},
                "first": {"$ref": "#/components/schemas/Order/$defs/Line"},
            },
        },
    });
    let (rendering, _) = rendered(&schemas);
    assert!(rendering["Order"].get("$defs").is_none());
    assert_eq!(rendering["Order_Line"]["properties"]["qty"]["type"], "integer");
    assert_eq!(
        rendering["Order"]["properties"]["lines"]["items"]["$ref"],
        "#/components/schemas/Order_Line"
    );
    assert_eq!(
        rendering["Order"]["properties"]["first"]["$ref"],
        "#/components/schemas/Order_Line"
    );
}

#[test]
fn three_zero_habits_in_a_three_one_document_are_read_as_they_mean_and_named() {
    let schemas = json!({"Tag": {"type": "string", "nullable": true, "minimum": 1, "exclusiveMinimum": true}});
    let (rendering, notes) = rendered(&schemas);
    assert_eq!(rendering["Tag"]["nullable"], true);
    assert_eq!(rendering["Tag"]["exclusiveMinimum"], true);
    assert_eq!(notes.len(), 2, "{notes:?}");
}

#[test]
fn the_documents_top_is_read_into_3_0_and_another_dialect_is_refused() {
    let mut doc: serde_norway::Value = serde_norway::from_str(
        "openapi: 3.1.0\n\
         info: {title: t, version: '1', summary: s, license: {name: MIT, identifier: MIT}}\n\
         jsonSchemaDialect: https://spec.openapis.org/oas/3.1/dialect/base\n\
         webhooks: {newPet: {$ref: '#/components/pathItems/NewPet'}}\n\
         components:\n  pathItems:\n    Pets: {get: {responses: {'200': {description: ok}}}}\n    NewPet: {post: {requestBody: {content: {application/json: {schema: {type: [string, 'null']}}}}, responses: {'200': {description: ok}}}}\n\
         paths:\n  /pets: {$ref: '#/components/pathItems/Pets'}\n",
    )
    .unwrap();
    let mut notes = Vec::new();
    to_30(&mut doc, &mut |at, _| notes.push(at)).unwrap();
    let doc: Value = serde_json::to_value(doc).unwrap();
    assert_eq!(doc["openapi"], "3.0.3");
    assert_eq!(doc["info"]["description"], "s");
    assert!(doc["info"]["license"].get("identifier").is_none());
    assert!(doc.get("jsonSchemaDialect").is_none());
    assert_eq!(doc["paths"]["/pets"]["get"]["responses"]["200"]["description"], "ok");
    // Webhooks stay, their items resolved and their schemas rendered.
    let body = &doc["webhooks"]["newPet"]["post"]["requestBody"]["content"]["application/json"]["schema"];
    assert_eq!(body, &serde_json::json!({"type": "string", "nullable": true}));
    assert!(doc["components"].get("pathItems").is_none());
    assert!(notes.is_empty(), "{notes:?}");

    let mut other: serde_norway::Value =
        serde_norway::from_str("openapi: 3.1.0\njsonSchemaDialect: http://json-schema.org/draft-07/schema#\n").unwrap();
    let error = to_30(&mut other, &mut |_, _| {}).unwrap_err();
    assert_eq!(error.location, "jsonSchemaDialect");
    assert!(error.message.contains("2020-12"), "{}", error.message);
}
