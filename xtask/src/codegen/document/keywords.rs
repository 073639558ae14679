//! The keywords of OpenAPI 3.0's Schema Object, which the generator reads,
//! and the extension a 3.1 document's rendering keeps the others in: a
//! leaf, read by the schema forms and by the 3.1 rendering alike.

/// The extension that keeps the keywords OpenAPI 3.0 cannot say (a 3.1
/// document's `prefixItems`, `if`, ...), for the validation form to put
/// back.
pub const JSON_SCHEMA_KEY: &str = "x-json-schema-2020-12";

/// The keywords of an OpenAPI 3.0 Schema Object.
pub const KEYWORDS: [&str; 36] = [
    "title",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxProperties",
    "minProperties",
    "required",
    "enum",
    "type",
    "allOf",
    "oneOf",
    "anyOf",
    "not",
    "items",
    "properties",
    "additionalProperties",
    "description",
    "format",
    "default",
    "nullable",
    "discriminator",
    "readOnly",
    "writeOnly",
    "xml",
    "externalDocs",
    "example",
    "deprecated",
    "$ref",
];
