//! Unit tests of a schema's three forms: validation, typify's, documentation.

use super::*;

#[test]
fn nullable_and_exclusive_bounds() {
    let spec = json!({"type": "integer", "format": "int32", "minimum": 0, "exclusiveMinimum": true, "nullable": true});
    assert_eq!(
        validation_form(&spec),
        json!({"type": ["integer", "null"], "format": "int32", "exclusiveMinimum": 0,
               "allOf": [{"minimum": i32::MIN, "maximum": i32::MAX}]})
    );
    assert_eq!(
        typify_form(&spec),
        json!({"type": ["integer", "null"], "format": "int32", "exclusiveMinimum": 0})
    );
    assert_eq!(
        doc_form(&spec),
        json!({"type": "integer", "format": "int32", "exclusiveMinimum": 0, "nullable": true})
    );
}

#[test]
fn references_drop_their_siblings() {
    let spec = json!({"properties": {"a": {"$ref": "#/components/schemas/A", "description": "ignored"}}});
    assert_eq!(
        validation_form(&spec),
        json!({"properties": {"a": {"$ref": "#/$defs/A"}}})
    );
    assert_eq!(
        doc_form(&spec),
        json!({"properties": {"a": {"$ref": "#/components/schemas/A"}}})
    );
}

#[test]
fn a_nullable_enum_allows_null() {
    let spec = json!({"type": "string", "enum": ["a"], "nullable": true});
    assert_eq!(
        validation_form(&spec),
        json!({"type": ["string", "null"], "enum": ["a", null]})
    );
    let untyped = json!({"allOf": [{"$ref": "#/components/schemas/A"}], "nullable": true});
    assert_eq!(
        validation_form(&untyped),
        json!({"anyOf": [{"type": "null"}, {"allOf": [{"$ref": "#/$defs/A"}]}]})
    );
}

#[test]
fn refusals_name_the_place() {
    let components = Map::new();
    let at = |schema: Value| check(&schema, "s", &components).unwrap_err().location;
    assert_eq!(at(json!({"properties": {"a": {"const": 1}}})), "s.properties.a.const");
    assert_eq!(
        at(json!({"items": {"$ref": "#/components/schemas/Nope"}, "type": "array"})),
        "s.items.$ref"
    );
    assert_eq!(
        at(json!({"oneOf": [{"type": "object"}], "discriminator": {"propertyName": "k"}})),
        "s.oneOf.0"
    );
    assert_eq!(at(json!({"type": "array"})), "s");
}

#[test]
fn several_combinators_are_nested_for_dropshots_document() {
    let both = json!({"allOf": [{"$ref": "#/components/schemas/A"}], "oneOf": [{"type": "object"}], "nullable": true});
    assert_eq!(
        doc_form(&both),
        json!({"allOf": [{"allOf": [{"$ref": "#/components/schemas/A"}]}, {"oneOf": [{"type": "object"}]}], "nullable": true})
    );
    // One combinator stays as it is.
    let one = json!({"oneOf": [{"type": "string"}]});
    assert_eq!(doc_form(&one), one);
}
