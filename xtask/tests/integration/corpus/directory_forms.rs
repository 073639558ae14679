//! Form bodies in the shapes the public directory's documents give them,
//! each on a small document of its own: a form's `encoding` (bracket
//! notation included), and a schema that is a composition of objects.

use super::classes::{generated, server, spec};

/// A form's `encoding` that says no more than how the layer reads the
/// form (none at all, as Stripe writes on each; `style: form`; JSON for
/// an object field; `deepObject`, bracket notation, which the layer reads
/// for any field) is served, and the client writes a `deepObject` field
/// in brackets; one that asks for another reading (a field as XML) is
/// refused, that operation alone. On a JSON body `encoding` means nothing
/// and is not read.
#[test]
fn a_form_encoding_of_the_default_reading_is_served() {
    let generated = generated(&spec(
        r#"paths:
  /a:
    post:
      operationId: postA
      requestBody:
        content:
          application/x-www-form-urlencoded:
            encoding: {}
            schema: {type: object, properties: {name: {type: string}}}
      responses: {'204': {description: ok}}
  /b:
    post:
      operationId: postB
      requestBody:
        content:
          application/x-www-form-urlencoded:
            encoding: {meta: {contentType: application/json}, name: {style: form, explode: true}}
            schema: {type: object, properties: {name: {type: string}, meta: {type: object, properties: {a: {type: integer}}}}}
      responses: {'204': {description: ok}}
  /c:
    post:
      operationId: postC
      requestBody:
        content:
          application/json:
            encoding: {color: {style: form}}
            schema: {type: object, properties: {color: {type: string}}}
      responses: {'204': {description: ok}}
  /d:
    post:
      operationId: postD
      requestBody:
        content:
          application/x-www-form-urlencoded:
            encoding: {tags: {style: deepObject, explode: true}}
            schema: {type: object, properties: {tags: {type: array, items: {type: string}}}}
      responses: {'204': {description: ok}}
  /e:
    post:
      operationId: postE
      requestBody:
        content:
          application/x-www-form-urlencoded:
            encoding: {meta: {contentType: application/xml}}
            schema: {type: object, properties: {meta: {type: object}}}
      responses: {'204': {description: ok}}
"#,
    ));
    let refused: Vec<&str> = generated.refused.iter().map(|r| r.operation.as_str()).collect();
    assert_eq!(refused, ["POST /e (postE)"]);
    assert_eq!(generated.operations, 4);
    let client = &generated
        .files
        .iter()
        .find(|f| f.path.ends_with("client.rs"))
        .unwrap()
        .contents;
    assert!(
        client.contains(r#"encode_form(&body, &["tags"], &["tags"])"#),
        "the client writes `tags` in brackets"
    );
}

/// A form whose schema is a composition of objects (a token request of
/// one `grant_type` or another; an `allOf` of a component and more
/// properties, without `type`) has the fields of all its parts, each read
/// by its type, and is validated by the schema as written; a form whose
/// schema is no object's (a string) is refused, that operation alone.
#[test]
fn a_form_of_a_composition_of_objects_has_the_fields_of_all() {
    let generated = generated(&spec(
        r#"paths:
  /token:
    post:
      operationId: token
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema:
              oneOf:
                - {type: object, required: [grant_type, password], properties: {grant_type: {enum: [password]}, password: {type: string}}}
                - {type: object, required: [grant_type], properties: {grant_type: {enum: [refresh]}, refresh_token: {type: string}, ttl: {type: integer}}}
      responses: {'204': {description: ok}}
  /upload:
    post:
      operationId: upload
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema:
              allOf:
                - {$ref: '#/components/schemas/Options'}
                - {properties: {tags: {type: array, items: {type: string}}}}
      responses: {'204': {description: ok}}
  /detect:
    post:
      operationId: detect
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema: {type: string}
      responses: {'204': {description: ok}}
components:
  schemas:
    Options: {type: object, properties: {visibility: {type: integer}}}
"#,
    ));
    let refused: Vec<&str> = generated.refused.iter().map(|r| r.operation.as_str()).collect();
    assert_eq!(refused, ["POST /detect (detect)"]);
    assert!(
        generated.refused[0]
            .reason
            .contains("a form body's schema must be an object"),
        "{}",
        generated.refused[0].reason
    );
    let server = server(&generated);
    for field in [
        r#"("ttl", runtime::FormField::One(runtime::Scalar::Integer))"#,
        r#"("visibility", runtime::FormField::One(runtime::Scalar::Integer))"#,
    ] {
        assert!(server.contains(field), "{field}");
    }
}
