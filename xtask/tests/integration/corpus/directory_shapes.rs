//! Parameters and schemas in shapes real documents give them, each on a
//! small document of its own: a path parameter that is a list, and
//! properties named as schema keywords.

use super::classes::{generated, server, spec, tolerated};

fn client(generated: &xtask::codegen::Generated) -> &str {
    &generated
        .files
        .iter()
        .find(|f| f.path.ends_with("client.rs"))
        .unwrap()
        .contents
}

/// A path parameter that is a list is read from its segment's items
/// joined by commas (the `simple` style) and sent so; one that may be an
/// object is refused at its location.
#[test]
fn path_parameters_that_are_lists_are_served() {
    let generated = generated(&spec(
        r#"paths:
  /batches/{ids}:
    get:
      operationId: getBatches
      parameters:
        - {name: ids, in: path, required: true, schema: {type: array, items: {type: integer}}}
      responses: {'204': {description: ok}}
  /shapes/{shape}:
    get:
      operationId: getShape
      parameters:
        - {name: shape, in: path, required: true, schema: {anyOf: [{type: string}, {type: object}]}}
      responses: {'204': {description: ok}}
"#,
    ));
    let refused: Vec<&str> = generated.refused.iter().map(|r| r.reason.as_str()).collect();
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(
        refused[0].contains("paths./shapes/{shape}.get.parameters.0") && refused[0].contains("an object in a path"),
        "{}",
        refused[0]
    );
    let server = server(&generated);
    assert!(server.contains("value: runtime::ValueKind::Array(runtime::Scalar::Integer)"));
    assert!(server.contains("pub ids: ::std::vec::Vec<i64>"), "typed as a list");
    let client = client(&generated);
    assert!(client.contains("parameter_text(ids)"));
}

/// Properties named as schema keywords (`properties`, `type`, `items`,
/// `enum`) are properties: the rules that read mistakes out of schemas
/// tell a schema from a keyword by where it stands, not by the name
/// before it (Azure's `properties.properties.type` was read as a schema
/// written under `type`, and the component refused).
#[test]
fn properties_named_as_keywords_are_properties() {
    let generated = generated(&spec(
        r#"paths:
  /a:
    get:
      operationId: getA
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Resource'}
components:
  schemas:
    Resource:
      type: object
      properties:
        properties:
          type: object
          discriminator: {propertyName: type}
          properties:
            type: {description: the kind, type: string}
            items: {type: array, items: {type: string}}
            enum: {type: integer, default: 1}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    assert!(tolerated(&generated).is_empty(), "{:?}", tolerated(&generated));
    let server = server(&generated);
    assert!(
        server.contains("pub type_: ::std::option::Option<::std::string::String>"),
        "`type` is a property"
    );
}

/// A path or header parameter whose schema is nullable is text all the
/// same (never null): the client takes it as a `&str`, not an `Option`
/// it could not write (`Option<&str>` has no `to_string`, found by `try
/// --build`).
#[test]
fn nullable_path_and_header_parameters_are_text() {
    let generated = generated(&spec(
        r#"paths:
  /questions/{uin}:
    get:
      operationId: getQuestion
      parameters:
        - {name: uin, in: path, required: true, schema: {type: string, nullable: true}}
        - {name: X-Trace, in: header, required: true, schema: {type: string, nullable: true}}
      responses: {'204': {description: ok}}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    let client = client(&generated);
    assert!(client.contains("uin: &'a str,"), "{client}");
    assert!(client.contains("x_trace: &'a str,"), "{client}");
}
