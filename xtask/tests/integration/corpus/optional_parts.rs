//! Parts a document may leave out, or write in a way 3.0 does not
//! allow, that took a whole document down (found by trying ReadMe's
//! `@readme/oas-examples`): each is read as it evidently means, named.

use super::classes::{HEAD, generated, server, spec, tolerated};

/// 3.1 makes `responses` optional (3.0 requires them, and real 3.0
/// documents leave them out too): an operation without any answers
/// anything, and a 3.0 document is told so.
#[test]
fn an_operation_without_responses_is_generated_answering_anything() {
    let body = r#"paths:
  /ping:
    post:
      operationId: ping
      requestBody: {content: {application/json: {schema: {type: object}}}}
"#;
    let text_31 = HEAD.replace("openapi: 3.0.3", "openapi: 3.1.0") + body;
    let generated_31 = generated(&text_31);
    assert_eq!(generated_31.operations, 1);
    assert!(generated_31.tolerated.is_empty(), "{:?}", generated_31.tolerated);
    let generated_30 = generated(&spec(body));
    assert_eq!(generated_30.operations, 1);
    assert_eq!(tolerated(&generated_30), ["paths./ping.post.responses"]);
}

/// `default: null` on a schema that does not allow null (Python's `None`
/// written out) made typify panic, which refused the whole document: it
/// is no default.
#[test]
fn a_null_default_the_schema_does_not_allow_is_no_default() {
    let generated = generated(&spec(
        r#"paths:
  /numbers:
    post:
      operationId: numbers
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                count: {type: integer, default: null}
                note: {type: string, nullable: true, default: null}
      responses: {'204': {description: ok}}
"#,
    ));
    assert_eq!(generated.operations, 1);
    assert_eq!(
        tolerated(&generated),
        ["paths./numbers.post.requestBody.content.application/json.schema.properties.count.default"]
    );
}

/// A path item that is a `$ref` to another in the document is that item;
/// one to another file cannot be read, and only its path is left out.
#[test]
fn a_path_item_reference_is_the_item_it_points_at_or_its_path_is_left_out() {
    let generated = generated(&spec(
        r#"paths:
  /source:
    get:
      operationId: source
      responses: {'204': {description: ok}}
  /alias:
    $ref: '#/paths/~1source'
  /elsewhere:
    $ref: 'other.yaml#/paths/~1x'
"#,
    ));
    assert_eq!(generated.operations, 2, "the source and its alias");
    assert_eq!(tolerated(&generated), ["paths./alias.$ref", "paths./elsewhere"]);
    let server = server(&generated);
    assert!(server.contains(r#"path = "/alias""#));
    assert!(!server.contains("/elsewhere"));
}

/// A JSON body with no schema is any JSON value; a form's properties
/// without `type: object` are the object a form is (Star Trek's API); an
/// enum that lists a value twice lists it once (typify could not name
/// two variants alike). Each refused its operation before.
#[test]
fn a_body_without_schema_a_form_without_type_and_a_repeated_enum_value_are_read() {
    let generated = generated(&spec(
        r#"paths:
  /notes:
    post:
      operationId: note
      requestBody:
        content:
          application/json:
            examples: {one: {value: {text: hi}}}
      responses: {'204': {description: ok}}
  /search:
    post:
      operationId: search
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema:
              properties:
                name: {type: string}
                status: {type: string, enum: ['', '', available, available]}
      responses: {'204': {description: ok}}
"#,
    ));
    assert_eq!(generated.operations, 2);
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    assert_eq!(
        tolerated(&generated),
        [
            "paths./notes.post.requestBody.content.application/json",
            "paths./search.post.requestBody.content.application/x-www-form-urlencoded.schema",
            "paths./search.post.requestBody.content.application/x-www-form-urlencoded.schema.properties.status.enum",
        ]
    );
}

/// progenitor asserts on a few constructs the checks do not know (here,
/// an `encoding` on a JSON response, which means nothing there; a
/// redirect with a body beside an error of another type, Just Eat's menu,
/// was one until the client read such errors as bytes); its panic refused
/// the whole document. The operation that
/// panics alone is found (by halving) and refused, with the panic's
/// message; the rest generates.
#[test]
fn an_operation_progenitor_panics_on_is_refused_alone() {
    let generated = generated(&spec(
        r#"paths:
  /ok:
    get:
      operationId: fine
      responses:
        '200':
          description: ok
          content: {application/json: {schema: {$ref: '#/components/schemas/Menu'}}}
  /menu:
    get:
      operationId: menu
      responses:
        '200':
          description: the menu
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Menu'}
              encoding: {name: {contentType: text/plain}}
components:
  schemas:
    Menu: {type: object, properties: {name: {type: string}}}
    Failure: {type: object, properties: {reason: {type: string}}}
"#,
    ));
    assert_eq!(generated.operations, 1, "{:?}", generated.refused);
    assert_eq!(generated.refused.len(), 1);
    let refused = &generated.refused[0];
    assert!(refused.operation.starts_with("GET /menu"), "{refused}");
    assert!(
        refused
            .reason
            .contains("refused at paths./menu.get: progenitor (client) cannot map this"),
        "{refused}"
    );
}

/// JSON allows numbers beyond 64 bits (chaingateway's example
/// timestamps); the YAML reader refused the document. It is read as JSON,
/// such a number as a float, and named.
#[test]
fn a_json_document_with_a_number_beyond_64_bits_is_read() {
    let text = r#"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
      "paths": {"/ts": {"get": {"operationId": "ts", "responses": {"200": {"description": "ok",
        "content": {"application/json": {"schema": {"type": "integer"},
          "example": -9223372036854775809}}}}}}}}"#;
    let generated = generated(text);
    assert_eq!(generated.operations, 1);
    assert_eq!(tolerated(&generated), ["document"]);
}
