//! Classes real documents showed in their component schemas, each on a
//! small document of its own (the 3.1 corpus first showed them; 3.0
//! documents carry them as well):
//!
//! - a discriminator over inline members (tolerate, or degrade);
//! - a refused component no operation reaches (left out, not the
//!   document);
//! - an inline schema whose Rust type would take a component's name.

use super::classes::{generated, server, spec, tolerated};

/// Tolerate: inline members that each name their value (`const`, or a
/// one-value `enum`) are component schemas of their own, mapped by their
/// values (their title names them). Degrade: members that do not name
/// theirs lose the discriminator, and are validated as the `oneOf` says.
#[test]
fn a_discriminator_over_inline_members_is_read_as_it_means() {
    let generated = generated(&spec(
        r#"paths:
  /named:
    post:
      operationId: named
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Event'}
      responses: {'204': {description: ok}}
  /unnamed:
    post:
      operationId: unnamed
      requestBody:
        content:
          application/json:
            schema:
              oneOf:
                - {type: object, properties: {kind: {type: string}}}
                - {type: object, properties: {kind: {type: string}, b: {type: string}}}
              discriminator: {propertyName: kind}
      responses: {'204': {description: ok}}
components:
  schemas:
    Event:
      oneOf:
        - title: Created
          type: object
          required: [type]
          properties: {type: {type: string, enum: [created]}, id: {type: string}}
        - type: object
          required: [type]
          properties: {type: {type: string, enum: [deleted, removed]}}
      discriminator: {propertyName: type}
"#,
    ));
    assert_eq!(generated.operations, 2);
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    assert_eq!(
        tolerated(&generated),
        [
            "paths./unnamed.post.requestBody.content.application/json.schema.discriminator",
            "components.schemas.Event.discriminator"
        ]
    );
    let server = server(&generated);
    // The members are components (`Created` by its title, the other by
    // the schema's name and its first value), told apart by `type`.
    assert!(server.contains("pub struct Created"), "the titled member");
    assert!(server.contains("pub struct EventDeleted"), "the untitled member");
    assert!(server.contains(r#"\"removed\""#), "the mapping keeps every value");
}

/// A component no operation reaches (in 3.1 documents, often one only
/// a webhook uses) that the generator cannot map is left out, named as a
/// warning: nothing served needs it, so the document generates.
#[test]
fn a_refused_component_no_operation_reaches_is_left_out_not_the_document() {
    let generated = generated(&spec(
        r#"paths:
  /a:
    get:
      operationId: a
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Used'}
components:
  schemas:
    Used: {type: object, properties: {id: {type: string}}}
    Unused:
      type: object
      properties:
        names: {type: object, patternProperties: {'^x-': {type: string}}}
"#,
    ));
    assert_eq!(generated.operations, 1);
    assert!(generated.refused.is_empty());
    let unused = generated
        .tolerated
        .iter()
        .find(|t| t.location == "components.schemas.Unused")
        .expect("named");
    assert!(
        unused.message.starts_with("(left out) no operation uses it"),
        "{}",
        unused.message
    );
    assert!(
        unused
            .message
            .contains("components.schemas.Unused.properties.names.patternProperties"),
        "{}",
        unused.message
    );
    assert!(!server(&generated).contains("Unused"));
}

/// typify names an inline schema after where it is (`Monitor`'s
/// `behavior` is `MonitorBehavior`) without looking whether a component
/// has that name; such a schema gets a title of its own, so that the
/// code compiles with two types where there would be one name twice.
#[test]
fn an_inline_schema_named_as_a_component_gets_a_name_of_its_own() {
    let generated = generated(&spec(
        r#"paths:
  /monitors:
    get:
      operationId: monitors
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Monitor'}
components:
  schemas:
    Monitor:
      type: object
      properties:
        behavior:
          type: object
          properties: {kind: {type: string}}
        other: {$ref: '#/components/schemas/MonitorBehavior'}
    MonitorBehavior:
      type: object
      properties: {config: {type: string}}
"#,
    ));
    for file in &generated.files {
        let text = &file.contents;
        assert_eq!(
            text.matches("pub struct MonitorBehavior {").count(),
            1,
            "{}",
            file.path.display()
        );
        assert_eq!(
            text.matches("pub struct MonitorBehaviorInline {").count(),
            1,
            "{}",
            file.path.display()
        );
        syn::parse_file(text).unwrap();
    }
}

/// A nullable component is typify's newtype over an `Option` of an
/// inner type its title names: a title that is its own name (GitHub's
/// `auto-merge`, titled `Auto merge`) made two types of one name. The
/// title goes, and the inner type is `<Name>Inner`.
#[test]
fn a_nullable_component_titled_with_its_own_name_is_one_type() {
    let generated = generated(&spec(
        r#"paths:
  /pulls:
    get:
      operationId: pulls
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/auto-merge'}
components:
  schemas:
    auto-merge:
      title: Auto merge
      type: object
      nullable: true
      required: [enabled]
      properties: {enabled: {type: boolean}}
"#,
    ));
    for file in &generated.files {
        let text = &file.contents;
        assert_eq!(
            text.matches("pub struct AutoMerge(").count(),
            1,
            "{}",
            file.path.display()
        );
        assert_eq!(
            text.matches("pub struct AutoMergeInner {").count(),
            1,
            "{}",
            file.path.display()
        );
        syn::parse_file(text).unwrap();
    }
}

/// Tolerate: `null` among the values of an enum whose type is not
/// nullable (dropshot's own `()`, YNAB's flags) means a nullable enum.
/// Rust: two properties that would be one field (`Guid`, `guid`) make
/// their object any JSON value (degrade), where typify wrote both fields.
#[test]
fn a_null_enum_value_is_nullable_and_fields_of_one_name_degrade_their_object() {
    let generated = generated(&spec(
        r#"paths:
  /media:
    get:
      operationId: media
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  flag: {type: string, enum: [red, null]}
                  meta:
                    type: object
                    properties:
                      guid: {type: string}
                      Guid: {type: array, items: {type: string}}
"#,
    ));
    assert_eq!(
        tolerated(&generated),
        ["paths./media.get.responses.200.content.application/json.schema.properties.flag.enum"]
    );
    for file in &generated.files {
        let text = &file.contents;
        assert!(
            !text.contains("pub guid:"),
            "{}: no struct of two `guid` fields",
            file.path.display()
        );
    }
    // Validated as written: the flag's null, and the object's fields.
    let server = server(&generated);
    assert!(
        server.contains(r#"\"type\":[\"string\",\"null\"]"#),
        "null allowed by validation"
    );
    assert!(server.contains(r#"\"Guid\""#));
}

/// A discriminator's inline member that is the component of its title
/// (written out twice, as documents do) is a reference to it; a member
/// whose title is taken by another schema gets a name with a number
/// (`Output2`), which Pascal case keeps apart (an `_` it would drop).
#[test]
fn an_inline_member_the_same_as_its_component_is_that_component() {
    let generated = generated(&spec(
        r#"paths:
  /outputs:
    get:
      operationId: outputs
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Result'}
components:
  schemas:
    ErrorOutput:
      title: ErrorOutput
      type: object
      required: [type]
      properties: {type: {type: string, enum: [error]}, data: {type: string}}
    Output:
      type: object
      properties: {a: {type: string}}
    Result:
      oneOf:
        - title: ErrorOutput
          type: object
          required: [type]
          properties: {type: {type: string, enum: [error]}, data: {type: string}}
        - title: Output
          type: object
          required: [type]
          properties: {type: {type: string, enum: [text]}, text: {type: string}}
      discriminator: {propertyName: type}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    let server = server(&generated);
    assert_eq!(server.matches("pub struct ErrorOutput {").count(), 1, "one ErrorOutput");
    assert_eq!(
        server.matches("pub struct Output2 {").count(),
        1,
        "the other member, named apart"
    );
    assert_eq!(server.matches("pub struct Output {").count(), 1);
}

/// A spec that documents 501 gives that status its variant
/// (`NotImplemented`, with its body); the handler not written yet answers
/// `NotWritten` there, and `cargo xtask new`'s stubs say so.
#[test]
fn a_documented_501_keeps_its_variant_and_the_unwritten_handler_another() {
    let generated = generated(&spec(
        r#"paths:
  /stream:
    get:
      operationId: stream
      responses:
        '204': {description: ok}
        '501':
          description: not a sidecar
          content: {text/plain: {schema: {type: string}}}
  /other:
    get:
      operationId: other
      responses: {'204': {description: ok}}
"#,
    ));
    let server = server(&generated);
    assert!(server.contains("NotImplemented(::std::string::String),"));
    assert!(server.contains("    NotWritten,\n"));
    assert!(
        server.contains("OtherResponse::NotImplemented =>"),
        "elsewhere as before"
    );
    let stubs = xtask::designer::new_service::service_file_for(server).unwrap();
    assert!(stubs.contains("StreamResponse::NotWritten"), "{stubs}");
    assert!(stubs.contains("OtherResponse::NotImplemented"), "{stubs}");
}
