//! OpenAPI 3.1 documents generate as 3.0 documents do: read into their
//! 3.0 rendering (the schema rules are unit-tested beside it, in
//! `xtask/src/codegen/document/openapi31/tests.rs`), through the same checks,
//! classes and per-operation refusals, with the service serving the
//! designer's own 3.1 source. The 3.1 kitchen sink
//! (`crates/kitchen-sink-31`) runs what these generate.

use super::classes::{generated, server, target};

const HEAD_31: &str =
    "openapi: 3.1.0\ninfo: {title: t, version: 1.0.0, summary: s, license: {name: MIT, identifier: MIT}}\n";

/// A 3.1 document generates whole, its operations without an
/// operationId named from their method and path, its own constructs no
/// warning, what it degrades named, its webhook sent and received
/// (`corpus/webhooks.rs`), and the document served as written.
#[test]
fn a_31_document_generates_and_serves_its_own_source() {
    let text = format!(
        "{HEAD_31}{}",
        r#"paths:
  /things/{id}:
    get:
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer, exclusiveMinimum: 0}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Thing'}
webhooks:
  thingChanged:
    post:
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
      responses: {'204': {description: ok}}
components:
  schemas:
    Thing:
      type: object
      required: [name, note]
      properties:
        name: {type: [string], const: thing}
        note: {type: [string, 'null'], examples: [a note]}
        pair: {type: array, prefixItems: [{type: string}, {type: integer}]}
"#
    );
    let generated = generated(&text);
    assert_eq!(generated.operations, 1);
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    let warnings: Vec<String> = generated.tolerated.iter().map(|t| t.to_string()).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("components.schemas.Thing.properties.pair: (degrade) `prefixItems`"),
        "{warnings:?}"
    );
    let server = server(&generated);
    assert!(server.contains("pub async fn thing_changed("), "the webhook's sender");
    assert!(server.contains("fn get_things_by_id"), "named from its method and path");
    // The served document is the source, 3.1 and all (as compact JSON).
    assert!(server.contains(r#"\"openapi\":\"3.1.0\""#));
    assert!(server.contains(r#"\"webhooks\""#));
    // Null and absent stay distinct: required, and an Option.
    assert!(server.contains("pub note: ::std::option::Option<::std::string::String>"));
    // The tuple is validated as written: its 2020-12 keywords reach the
    // validation form.
    assert!(server.contains("prefixItems"), "validated exactly");
}

/// A schema dialect other than 2020-12 (or OpenAPI 3.1's own) would give
/// every schema another meaning: the document is refused, saying why.
/// 3.2 and later are not read.
#[test]
fn another_schema_dialect_or_version_is_refused_with_the_reason() {
    let draft7 = format!("{HEAD_31}jsonSchemaDialect: http://json-schema.org/draft-07/schema#\npaths: {{}}\n");
    let errors = xtask::codegen::generate_per_operation(&target(), &draft7, None)
        .err()
        .expect("refused");
    let error = &errors.0[0];
    assert_eq!(error.location, "jsonSchemaDialect");
    assert!(
        error.message.contains("draft-07") && error.message.contains("2020-12"),
        "{}",
        error.message
    );

    let v32 = "openapi: 3.2.0\ninfo: {title: t, version: '1'}\npaths: {}\n";
    let errors = xtask::codegen::generate_per_operation(&target(), v32, None)
        .err()
        .expect("refused");
    assert_eq!(errors.0[0].location, "openapi");
}

/// A 3.0 document and its 3.1 upgrade, which respells but changes nothing
/// on the wire (`nullable` as a `null` type, boolean bounds as numbers,
/// `example` as `examples`): `cargo xtask diff` reports nothing.
#[test]
fn an_upgrade_from_30_to_31_that_changes_nothing_on_the_wire_is_no_change() {
    let dir = std::env::temp_dir().join(format!("xtask-upgrade-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let old = dir.join("old.yaml");
    let new = dir.join("new.yaml");
    std::fs::write(
        &old,
        r#"openapi: 3.0.3
info: {title: t, version: 1.0.0}
paths:
  /a:
    get:
      operationId: a
      parameters:
        - {name: n, in: query, schema: {type: integer, minimum: 0, exclusiveMinimum: true}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {tag: {type: string, nullable: true, example: x}}}
"#,
    )
    .unwrap();
    std::fs::write(
        &new,
        r#"openapi: 3.1.0
info: {title: t, version: 1.0.0}
paths:
  /a:
    get:
      operationId: a
      parameters:
        - {name: n, in: query, schema: {type: integer, exclusiveMinimum: 0}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {tag: {type: [string, 'null'], examples: [x]}}}
"#,
    )
    .unwrap();
    let read = |path: &std::path::Path| xtask::designer::diff_command::read_document(path).unwrap();
    let changes = xtask::designer::diff::diff(&read(&old), &read(&new), "2026-01-01");
    std::fs::remove_dir_all(&dir).unwrap();
    let changes: Vec<String> = changes.iter().map(|c| c.to_string()).collect();
    assert!(changes.is_empty(), "{changes:?}");
}
