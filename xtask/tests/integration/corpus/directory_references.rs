//! References the public directory's documents write where OpenAPI
//! says they may not lead, each read as what it points at on a small
//! document of its own: schemas inside components or in another
//! operation (hoisted into components, once), and a response header
//! written once in another operation (a bundler's).

use super::classes::{generated, server, spec, tolerated};

/// Schemas pointed at elsewhere than `components.schemas` that point at
/// each other (as Azure's documents do) become components of their own,
/// each once: the document does not grow at each reference, and every
/// reference leads to its schema's one type.
#[test]
fn schemas_pointed_at_inside_components_become_components_once() {
    let generated = generated(&spec(
        r#"paths:
  /gateways:
    get:
      operationId: listGateways
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Gateway/properties/rules'}
components:
  schemas:
    Gateway:
      type: object
      properties:
        rules:
          type: array
          items: {$ref: '#/components/schemas/Rule/properties/target'}
        backend: {$ref: '#/components/schemas/Rule/properties/target'}
    Rule:
      type: object
      properties:
        target:
          type: object
          properties:
            gateway: {$ref: '#/components/schemas/Gateway/properties/rules'}
            name: {type: string}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    assert!(generated.degraded.is_empty(), "{:?}", generated.degraded);
    let server = server(&generated);
    assert_eq!(
        server.matches("pub struct RuleTarget ").count(),
        1,
        "one type for the schema"
    );
    assert!(server.contains("Gateway_properties_rules"));
}

/// What a bundler writes (DigitalOcean's document): a response header
/// and a `default` response's schema that point into another operation's
/// response, written once there. Each is read as what it points at.
#[test]
fn headers_and_schemas_pointed_at_in_another_operation_are_read_there() {
    let generated = generated(&spec(
        r#"paths:
  /a:
    get:
      operationId: getA
      responses:
        '200':
          description: ok
          headers:
            ratelimit-limit: {schema: {type: integer}}
        '401':
          description: no
          content:
            application/json:
              schema: {type: object, properties: {id: {type: string}}}
  /b:
    get:
      operationId: getB
      responses:
        '200':
          description: ok
          headers:
            ratelimit-limit: {$ref: '#/paths/~1a/get/responses/200/headers/ratelimit-limit'}
        default:
          description: error
          content:
            application/json:
              schema: {$ref: '#/paths/~1a/get/responses/401/content/application~1json/schema'}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    assert_eq!(generated.operations, 2);
    let tolerated = tolerated(&generated);
    assert!(
        tolerated.contains(&"paths./b.get.responses.200.headers.ratelimit-limit.$ref"),
        "{tolerated:?}"
    );
}

/// A reference to a reference inside components (Linode's
/// `DatabaseMySQL/properties/label`, itself `Database/properties/label`)
/// is followed to the schema at the end of the chain, hoisted once; a
/// cycle of such references leads nowhere and is refused alone.
#[test]
fn references_to_references_are_followed_to_the_schema() {
    let generated = generated(&spec(
        r#"paths:
  /databases:
    post:
      operationId: createDatabase
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                label: {$ref: '#/components/schemas/DatabaseMySQL/properties/label'}
      responses: {'204': {description: ok}}
  /loops:
    post:
      operationId: loop
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Loop/properties/a'}
      responses: {'204': {description: ok}}
components:
  schemas:
    Database:
      type: object
      properties:
        label: {type: string, minLength: 3}
    DatabaseMySQL:
      type: object
      properties:
        label: {$ref: '#/components/schemas/Database/properties/label', x-cli-display: 2}
    Loop:
      type: object
      properties:
        a: {$ref: '#/components/schemas/Loop/properties/b'}
        b: {$ref: '#/components/schemas/Loop/properties/a'}
"#,
    ));
    let refused: Vec<&str> = generated.refused.iter().map(|r| r.operation.as_str()).collect();
    assert_eq!(refused, ["POST /loops (loop)"]);
    let tolerated = tolerated(&generated);
    assert!(
        tolerated.contains(&"paths./databases.post.requestBody.content.application/json.schema.properties.label.$ref"),
        "{tolerated:?}"
    );
    let server = server(&generated);
    assert!(
        server.contains("Database_properties_label"),
        "hoisted once, at the chain's end"
    );
    assert!(!server.contains("DatabaseMySQL_properties_label"));
}
