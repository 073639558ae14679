//! Each class of construct real documents carry, on a small document of
//! its own, with what the generator does and why:
//!
//! - **tolerate**: a mistake common tools accept is read as what it
//!   evidently means, and named as a warning;
//! - **degrade**: where no precise Rust type can be made, a looser one
//!   (`serde_json::Value`), while requests are validated as written;
//! - **refuse, per operation**: where no honest serving exists, that
//!   operation is left out with its location and reason, and the rest of
//!   the document generates.

use std::borrow::Cow;

use xtask::codegen::{ClientCredentials, ClientInterface, Generated, Target, generate_per_operation};

pub(crate) fn target() -> Target {
    Target {
        spec: Cow::Borrowed("spec.yaml"),
        client: Cow::Borrowed("client.rs"),
        mocks: None,
        client_module: "crate",
        server: Cow::Borrowed("api.rs"),
        credentials: ClientCredentials::Generated,
        interface: ClientInterface::Positional,
    }
}

#[track_caller]
pub(crate) fn generated(spec: &str) -> Generated {
    generate_per_operation(&target(), spec, None).unwrap_or_else(|errors| panic!("refused whole: {errors}"))
}

pub(super) fn server(generated: &Generated) -> &str {
    &generated
        .files
        .iter()
        .find(|f| f.path.ends_with("api.rs"))
        .unwrap()
        .contents
}

pub(super) fn client(generated: &Generated) -> &str {
    &generated
        .files
        .iter()
        .find(|f| f.path.ends_with("client.rs"))
        .unwrap()
        .contents
}

/// Whether `code` holds `expected`, spaces aside: prettyplease breaks
/// lines where it will, and writes `& id` within a macro's arguments.
pub(super) fn holds(code: &str, expected: &str) -> bool {
    let flat: String = code.split_whitespace().collect();
    flat.contains(&expected.split_whitespace().collect::<String>())
}

/// The tolerated mistakes' locations.
pub(super) fn tolerated(generated: &Generated) -> Vec<&str> {
    generated.tolerated.iter().map(|t| t.location.as_str()).collect()
}

pub(super) const HEAD: &str = r#"openapi: 3.0.3
info: {title: t, version: 1.0.0}
"#;

pub(super) fn spec(body: &str) -> String {
    format!("{HEAD}{body}")
}

/// Refuse, per operation: two variables with nothing between them in one
/// segment cannot be split. That operation goes, with where and why; its sibling
/// stays, and the generated files' header names what was refused.
#[test]
fn a_refusal_takes_out_its_operation_not_the_document() {
    let generated = generated(&spec(
        r#"paths:
  /a/{page}{ext}:
    get:
      operationId: getA
      parameters:
        - {name: page, in: path, required: true, schema: {type: string}}
        - {name: ext, in: path, required: true, schema: {type: string}}
      responses: {'200': {description: ok}}
  /b:
    get:
      operationId: getB
      responses: {'200': {description: ok}}
"#,
    ));
    assert_eq!(generated.operations, 1);
    assert_eq!(generated.refused.len(), 1);
    let refused = generated.refused[0].to_string();
    assert!(
        refused.starts_with("GET /a/{page}{ext} (getA): refused at paths./a/{page}{ext}"),
        "{refused}"
    );
    assert!(server(&generated).contains("// Refused by the generator, each with where and why:"));
    assert!(server(&generated).contains("get_b"));
    assert!(!server(&generated).contains("get_a"));
}

/// Refuse, per operation: a problem in a component belongs to the
/// operations that reach it, through any chain of references.
#[test]
fn a_component_refusal_takes_out_the_operations_that_use_it() {
    let generated = generated(&spec(
        r#"paths:
  /a:
    post:
      operationId: postA
      requestBody: {$ref: '#/components/requestBodies/Jwt'}
      responses: {'204': {description: ok}}
  /b:
    get:
      operationId: getB
      responses: {'200': {description: ok}}
components:
  requestBodies:
    Jwt:
      content:
        application/x-www-form-urlencoded:
          schema: {type: string}
"#,
    ));
    assert_eq!(generated.operations, 1);
    assert_eq!(generated.refused.len(), 1);
    assert!(generated.refused[0].reason.contains("components.requestBodies.Jwt"));
}

/// Refuse the document only where no operation is to blame: here, a
/// version of OpenAPI it does not read. (A server that gives no path to
/// mount at, which once refused the document, is the root now.)
#[test]
fn only_a_problem_of_no_operation_refuses_the_document() {
    let errors = generate_per_operation(
        &target(),
        "openapi: 4.0.0\ninfo: {title: t, version: 1.0.0}\npaths: {}\n",
        None,
    )
    .err()
    .expect("refused");
    assert_eq!(errors.0.len(), 1, "{errors}");
    let generated = generated(&spec(
        r#"servers:
  - url: /Your API URL
  - url: https://x.example/{undeclared}
paths:
  /b:
    get:
      responses: {'200': {description: ok}}
"#,
    ));
    assert_eq!(tolerated(&generated), ["servers.0.url"]);
    assert!(server(&generated).contains(r#"pub const BASE_PATH: &str = "";"#));
}

/// Degrade: typify cannot map a schema with a `format` but no `type`
/// (it stops at `todo!`); that component is any JSON value in Rust, the
/// others keep their types, and requests are still validated against it
/// as written.
#[test]
fn a_schema_typify_cannot_map_is_any_json_value_and_still_validated() {
    let generated = generated(&spec(
        r#"paths:
  /a:
    post:
      operationId: postA
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Shot'}
      responses: {'204': {description: ok}}
components:
  schemas:
    Shot:
      type: object
      required: [url]
      properties:
        url: {format: string, description: where}
        size: {type: integer}
    Plain:
      type: object
      properties:
        name: {type: string}
"#,
    ));
    assert_eq!(generated.refused.len(), 0);
    assert_eq!(
        generated.degraded.keys().collect::<Vec<_>>(),
        ["components.schemas.Shot"]
    );
    let server = server(&generated);
    assert!(
        server.contains("pub struct Shot(pub ::serde_json::Map<::std::string::String, ::serde_json::Value>)")
            || server.contains("pub type Shot = ::serde_json::Value")
            || server.contains("pub struct Shot(pub ::serde_json::Value)"),
        "Shot is not any JSON value"
    );
    assert!(
        server.contains("pub struct Plain"),
        "the other component keeps its type"
    );
    // The validation schema is the spec's: `url` stays required.
    assert!(server.contains(r#"\"required\":[\"url\"]"#) || server.contains(r#""required":["url"]"#));
}

/// Tolerate: what converters leave in documents, each read as it means.
#[test]
fn mistakes_common_tools_accept_are_read_as_they_mean() {
    let generated = generated(&spec(
        r#"servers:
  - url: //api.example.com/v1
paths:
  /search?term={term}:
    get:
      operationId: search
      parameters:
        - {name: term, in: path, required: true, schema: {type: string}}
      responses: {'200': {description: ok}}
  /items/{id}:
    get:
      operationId: getItem
      parameters:
        - {name: other, in: path, required: true, schema: {type: string}}
        - {name: kind, in: query, schema: {type: string, enum: [1, 2]}}
        - {name: count, in: query, schema: {type: integer, exclusiveMinimum: 0}}
      responses:
        '100': {description: continue}
        '200':
          description: ok
          headers:
            Content-Type: {schema: {type: string}}
          content:
            application/json:
              schema: {$ref: '#/components/responses/Item/content/application~1json/schema'}
            token:
              example: abc
components:
  responses:
    Item:
      description: an item
      content:
        application/json:
          schema: {type: object, properties: {id: {type: string}}}
  securitySchemes:
    oauth1: {type: http, scheme: OAuth}
security:
  - oauth1: []
"#,
    ));
    assert_eq!(generated.refused.len(), 0, "{:?}", generated.refused);
    assert_eq!(generated.operations, 2);
    let found = tolerated(&generated);
    for location in [
        "servers.0.url",
        "paths./search?term={term}",
        "paths./items/{id}.get.parameters",
        "paths./items/{id}.get.responses.100",
        "paths./items/{id}.get.responses.200.headers.Content-Type",
        "paths./items/{id}.get.responses.200.content.token",
        "components.securitySchemes.oauth1.scheme",
    ] {
        assert!(found.contains(&location), "{location} not tolerated: {found:?}");
    }
    assert!(found.iter().any(|l| l.ends_with(".schema.enum")), "{found:?}");
    assert!(
        found.iter().any(|l| l.ends_with(".schema.exclusiveMinimum")),
        "{found:?}"
    );
    assert!(found.iter().any(|l| l.ends_with(".schema.$ref")), "{found:?}");
    let server = server(&generated);
    // The protocol-relative server is HTTPS; its path is the base path.
    assert!(server.contains(r#"pub const BASE_PATH: &str = "/v1";"#));
    // The query string's variable is a query parameter of `/search`.
    assert!(server.contains(r#"/search""#), "no /search path");
    assert!(!server.contains("?term"), "the query string stays in the path");
}

/// Tolerate: a document no rule touches is read as written, byte for byte.
#[test]
fn a_document_without_mistakes_is_read_as_written() {
    let text = spec("paths: {}\n");
    let (read, tolerated) = xtask::codegen::document::tolerate::tolerate(&text);
    assert_eq!(read, text);
    assert!(tolerated.is_empty());
}

/// Tolerate: a status YAML reads as an integer (`200:`), and Swagger
/// 2.0's `in: formData` parameters, which converters leave behind: the
/// status, and a form body with those fields (multipart with a file).
#[test]
fn integer_statuses_and_form_data_parameters_are_read_as_they_mean() {
    let generated = generated(&spec(
        r#"paths:
  /a:
    get:
      operationId: getA
      responses:
        200:
          description: ok
          content:
            application/json:
              schema: {type: string}
  /f:
    post:
      operationId: postF
      parameters:
        - {name: name, in: formData, required: true, type: string}
        - {name: age, in: formData, schema: {type: integer}}
      responses:
        '204': {description: ok}
  /u:
    post:
      operationId: upload
      parameters:
        - {name: file, in: formData, type: file}
      responses:
        '204': {description: ok}
"#,
    ));
    assert_eq!(generated.refused.len(), 0, "{:?}", generated.refused);
    assert_eq!(
        tolerated(&generated),
        [
            "paths./a.get.responses.200",
            "paths./f.post.parameters",
            "paths./u.post.parameters"
        ]
    );
    let server = server(&generated);
    assert!(server.contains("application/x-www-form-urlencoded"));
    assert!(server.contains("multipart/form-data"));
}

/// Refuse, per operation, each with its location: what no honest serving
/// exists for yet. Each class is one operation of one document; the
/// others generate beside it.
#[test]
fn what_has_no_honest_serving_yet_is_refused_per_operation_with_its_location() {
    let generated = generated(&spec(
        r#"paths:
  /ok:
    get:
      operationId: fine
      responses: {'204': {description: ok}}
  /informational:
    get:
      operationId: informational
      responses:
        1XX: {description: only an informational status}
  /range:
    post:
      operationId: rangeBody
      requestBody:
        content:
          'image/*': {schema: {type: string, format: binary}}
      responses: {'204': {description: ok}}
  /cookie:
    get:
      operationId: cookieList
      parameters:
        - {name: ids, in: cookie, schema: {type: array, items: {type: string}}}
      responses: {'204': {description: ok}}
"#,
    ));
    assert_eq!(generated.operations, 1);
    let refused: Vec<(String, String)> = generated
        .refused
        .iter()
        .map(|r| (r.operation.clone(), r.reason.clone()))
        .collect();
    let expect = [
        (
            "GET /informational (informational)",
            "refused at paths./informational.get.responses.1XX:",
        ),
        (
            "POST /range (rangeBody)",
            "refused at paths./range.post.requestBody.content.image/*:",
        ),
        (
            "GET /cookie (cookieList)",
            "refused at paths./cookie.get.parameters.0.schema:",
        ),
    ];
    assert_eq!(refused.len(), expect.len(), "{refused:?}");
    let mut refused = refused;
    refused.sort();
    let mut expect = expect;
    expect.sort();
    for ((operation, reason), (want_operation, want_reason)) in refused.iter().zip(expect) {
        assert_eq!(operation, want_operation);
        assert!(reason.starts_with(want_reason), "{reason}");
    }
}

/// Degrade: a free-form object as a `deepObject` query parameter (no
/// properties named: `filter[name][eq]=x`) has each pair read as text,
/// for its schema to judge; its Rust type is a map.
#[test]
fn a_free_form_deep_object_reads_its_pairs_as_text() {
    let generated = generated(&spec(
        r#"paths:
  /items:
    get:
      operationId: items
      parameters:
        - {name: filter, in: query, style: deepObject, explode: true, schema: {type: object}}
      responses: {'204': {description: ok}}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    assert!(server(&generated).contains(
        "value: runtime::ValueKind::Object {\n                properties: &[],\n                deep: true,"
    ));
}

/// Several variables in one segment are split at the text between them
/// (the runtime's dispatch serves them); two with nothing between them,
/// one of which allows a single value, are read with that value written
/// in (tolerate).
#[test]
fn variables_in_one_segment_are_split_at_the_text_between_them() {
    let generated = generated(&spec(
        r#"paths:
  /places/@{lat},{lon}:
    get:
      operationId: place
      parameters:
        - {name: lat, in: path, required: true, schema: {type: number}}
        - {name: lon, in: path, required: true, schema: {type: number}}
      responses: {'204': {description: ok}}
  /files/{id}.{format}:
    get:
      operationId: file
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: format, in: path, required: true, schema: {type: string, enum: [json, csv]}}
      responses: {'204': {description: ok}}
  /blog/{page}{extension}:
    get:
      operationId: blog
      parameters:
        - {name: page, in: path, required: true, schema: {type: string}}
        - {name: extension, in: path, required: true, schema: {type: string, enum: [.json]}}
      responses: {'204': {description: ok}}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    assert_eq!(generated.operations, 3);
    assert_eq!(tolerated(&generated), ["paths./blog/{page}{extension}"]);
    let server = server(&generated);
    assert!(server.contains("/places/@{lat},{lon}"));
    assert!(server.contains("/blog/{page}.json"));
}

/// Degrade: a request body of bytes or text whose schema describes what
/// they encode (a JWT's claims, base64) is read as bytes or text; a
/// `text/json` body is JSON, validated by its schema.
#[test]
fn bodies_whose_schema_describes_what_their_bytes_encode_are_bytes() {
    let generated = generated(&spec(
        r#"paths:
  /login:
    post:
      operationId: login
      requestBody:
        content:
          application/jwt:
            schema: {type: object, properties: {sub: {type: string}}}
      responses: {'204': {description: ok}}
  /cover:
    put:
      operationId: cover
      requestBody:
        content:
          image/jpeg:
            schema: {type: string, format: base64}
      responses: {'204': {description: ok}}
  /scan:
    put:
      operationId: scan
      requestBody:
        content:
          text/json:
            schema: {type: object, required: [target], properties: {target: {type: string}}}
      responses: {'204': {description: ok}}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    assert_eq!(
        tolerated(&generated),
        [
            "paths./login.post.requestBody.content.application/jwt.schema",
            "paths./cover.put.requestBody.content.image/jpeg.schema"
        ]
    );
    let server = server(&generated);
    assert!(server.contains("runtime::BodyKind::Json"), "text/json is read as JSON");
    assert!(server.contains(r#"\"required\":[\"target\"]"#) || server.contains(r#""required":["target"]"#));
}

/// Tolerate, the rest of what the corpus showed: a `default` of another
/// type, a parameter's untyped list items, object keywords beside a
/// scalar type (dropshot refused such a parameter at start-up), a
/// fragment in a path, and a server variable that repeats the URL's
/// `/`. And a spec of its own `/openapi.json` (dropshot panicked on the
/// duplicate route): the served document moves aside.
#[test]
fn more_mistakes_the_corpus_showed_and_a_path_of_the_documents_name() {
    let generated = generated(&spec(
        r#"servers:
  - url: https://x.example/{basePath}
    variables:
      basePath: {default: /api/v1}
paths:
  /verses:
    get:
      operationId: verses
      parameters:
        - {name: n, in: query, schema: {type: string, enum: [1, 2], default: 1}}
        - {name: ids, in: query, explode: false, schema: {type: array, items: {}}}
        - {name: freeform, in: query, schema: {type: string, additionalProperties: {type: string}}}
      responses: {'204': {description: ok}}
  /accounts#x-amz-token:
    get:
      operationId: accounts
      responses: {'204': {description: ok}}
  /openapi.json:
    get:
      operationId: spec
      responses: {'204': {description: ok}}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    let found = tolerated(&generated);
    for location in [
        "paths./verses.get.parameters.0.schema.default",
        "paths./verses.get.parameters.1.schema.items",
        "paths./verses.get.parameters.2.schema",
        "paths./accounts#x-amz-token",
    ] {
        assert!(found.contains(&location), "{location} not tolerated: {found:?}");
    }
    let server = server(&generated);
    assert!(server.contains(r#"pub const BASE_PATH: &str = "/api/v1";"#));
    assert!(server.contains(r#""/api/v1/accounts""#));
    assert!(server.contains("/api/v1/.well-known/openapi.json"));
}
