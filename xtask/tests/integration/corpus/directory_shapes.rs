//! Parameters and schemas in shapes real documents give them, each on a
//! small document of its own: a path parameter that is a list, and
//! properties named as schema keywords.

use super::classes::{client, generated, holds, server, spec, tolerated};

/// A path parameter that is a list is read from its segment's items
/// joined by commas (the `simple` style) and sent so, as is one that is
/// an object of scalar properties (their names and values joined, or
/// `name=value` ones with `explode`), in a path or a header; one that may
/// be an object or a scalar is refused at its location.
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
  /plugins/{version}/{point}:
    get:
      operationId: getPlugin
      parameters:
        - {name: version, in: path, required: true, schema: {$ref: '#/components/schemas/Version'}}
        - {name: point, in: path, required: true, explode: true, schema: {type: object, properties: {x: {type: integer}, y: {type: integer}}}}
        - {name: X-Version, in: header, schema: {$ref: '#/components/schemas/Version'}}
      responses: {'204': {description: ok}}
components:
  schemas:
    Version: {type: object, properties: {Major: {type: integer}, Minor: {type: integer}}}
"#,
    ));
    let refused: Vec<&str> = generated.refused.iter().map(|r| r.reason.as_str()).collect();
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(
        refused[0].contains("paths./shapes/{shape}.get.parameters.0")
            && refused[0].contains("a path parameter must be a scalar, a list of scalars or an object"),
        "{}",
        refused[0]
    );
    let server = server(&generated);
    assert!(server.contains("value: runtime::ValueKind::Array(runtime::Scalar::Integer)"));
    assert!(server.contains("pub ids: ::std::vec::Vec<i64>"), "typed as a list");
    assert_eq!(
        server
            .matches("runtime::ValueKind::Object {\n                properties: &[\n                    (\"Major\", runtime::Scalar::Integer),")
            .count(),
        2,
        "the path's version and the header's"
    );
    let client = client(&generated);
    for written in [
        "parameter_text(&ids)",
        "parameter_text(&version)",
        "exploded_text(&point)",
        "parameter_text(&value)",
    ] {
        assert!(holds(client, written), "{written}");
    }
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

/// A `deepObject` query parameter of any structure (a choice of an object
/// and a scalar, a list, an object of objects), as Stripe's documents
/// give them, is read in bracket notation by its schema
/// (`runtime::ValueKind::Deep`), and the client writes it so.
#[test]
fn deep_object_parameters_of_any_structure_are_served() {
    let generated = generated(&spec(
        r#"paths:
  /charges:
    get:
      operationId: listCharges
      parameters:
        - name: created
          in: query
          style: deepObject
          explode: true
          schema:
            anyOf:
              - {type: object, properties: {gt: {type: integer}, lt: {type: integer}}}
              - {type: integer}
        - {name: expand, in: query, style: deepObject, explode: true, schema: {type: array, items: {type: string}}}
        - name: search
          in: query
          style: deepObject
          schema: {type: object, properties: {card: {type: object, properties: {brand: {type: string}}}}}
      responses: {'204': {description: ok}}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    assert!(tolerated(&generated).is_empty(), "{:?}", tolerated(&generated));
    assert_eq!(server(&generated).matches("runtime::ValueKind::Deep").count(), 3);
    let client = client(&generated);
    for name in ["created", "expand", "search"] {
        assert!(
            client.contains(&format!("ObjectQuery::new(\"{name}\", &{name}, true)")),
            "{name}"
        );
    }
}

/// A `content` parameter of text, or of any type (`*/*`, as Telnyx's
/// document writes an id), whose schema is a scalar is that scalar's
/// text; one of a binary type is refused alone.
#[test]
fn content_parameters_of_text_or_any_type_are_their_scalar() {
    let generated = generated(&spec(
        r#"paths:
  /reports/{id}:
    get:
      operationId: getReport
      parameters:
        - {name: id, in: path, required: true, content: {'*/*': {schema: {type: string, format: uuid}}}}
        - {name: page, in: query, content: {text/plain: {schema: {type: integer}}}}
      responses: {'204': {description: ok}}
  /images/{id}:
    get:
      operationId: getImage
      parameters:
        - {name: id, in: path, required: true, content: {image/png: {schema: {type: string}}}}
      responses: {'204': {description: ok}}
"#,
    ));
    let refused: Vec<&str> = generated.refused.iter().map(|r| r.operation.as_str()).collect();
    assert_eq!(refused, ["GET /images/{id} (getImage)"]);
    let server = server(&generated);
    assert!(server.contains("value: runtime::ValueKind::Scalar(runtime::Scalar::String)"));
    assert!(server.contains("value: runtime::ValueKind::Scalar(runtime::Scalar::Integer)"));
    assert!(server.contains("pub id: ::uuid::Uuid"), "typed by its schema");
}

/// A query list `spaceDelimited` or `pipeDelimited` (AppCenter's
/// `versions`, Apideck's OAuth `scope`) is read split at its delimiter
/// (`runtime::ValueKind::Delimited`), `explode` false by default, and the
/// client sends its items so joined in one pair.
#[test]
fn space_and_pipe_delimited_lists_are_served() {
    let generated = generated(&spec(
        r#"paths:
  /events:
    get:
      operationId: listEvents
      parameters:
        - {name: versions, in: query, style: pipeDelimited, schema: {type: array, items: {type: string}}}
        - {name: scope, in: query, style: spaceDelimited, explode: false, schema: {type: array, items: {type: string}}}
      responses: {'204': {description: ok}}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    let server = server(&generated);
    assert!(server.contains("runtime::ValueKind::Delimited(runtime::Scalar::String, '|')"));
    assert!(server.contains("runtime::ValueKind::Delimited(runtime::Scalar::String, ' ')"));
    assert!(!server.contains("explode: true"), "explode is false by default");
    let client = client(&generated);
    assert_eq!(client.matches("DelimitedQuery::new(").count(), 2);
    assert!(client.contains(r#"DelimitedQuery::new("scope", &scope, ' ')"#));
    assert!(
        client.contains("&versions,\n                    '|',"),
        "versions joined by pipes"
    );
}
