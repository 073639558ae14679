//! Classes of request bodies, responses and routes the public
//! directory's documents carry, each served (or refused alone) on a small
//! document of its own: bodies under a media range, error responses of
//! different bodies, headers given as content, and
//! paths written with and without a trailing `/`.

use super::classes::{client, generated, holds, server, spec, tolerated};

/// A body under `*/*` alone whose schema is a JSON value's (as converters
/// from Swagger 2.0 write one without `consumes`) is read as JSON, with a
/// warning; the client sends JSON.
#[test]
fn a_json_value_under_a_media_range_alone_is_read_as_json() {
    let generated = generated(&spec(
        r#"paths:
  /things:
    post:
      operationId: makeThing
      requestBody:
        content:
          '*/*':
            schema: {$ref: '#/components/schemas/Thing'}
      responses: {'204': {description: ok}}
components:
  schemas:
    Thing: {type: object, properties: {name: {type: string}}}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    assert_eq!(tolerated(&generated), ["paths./things.post.requestBody.content.*/*"]);
    assert!(server(&generated).contains(r#"media_type: "application/json""#));
}

/// Bytes under `*/*` (or `application/*`) alone are read in any type
/// within the range, the handler getting the type with them
/// (`runtime::Payload`); the client sends `application/octet-stream`.
/// Another range (`image/*`) names no type a client could send for its
/// caller: refused, that operation alone.
#[test]
fn bytes_under_a_range_are_read_in_any_type_within_it() {
    let generated = generated(&spec(
        r#"paths:
  /upload:
    put:
      operationId: upload
      requestBody:
        content:
          '*/*':
            schema: {type: string, format: binary}
      responses: {'204': {description: ok}}
  /picture:
    put:
      operationId: putPicture
      requestBody:
        content:
          'image/*':
            schema: {type: string, format: binary}
      responses: {'204': {description: ok}}
"#,
    ));
    let refused: Vec<&str> = generated.refused.iter().map(|r| r.operation.as_str()).collect();
    assert_eq!(refused, ["PUT /picture (putPicture)"]);
    assert!(
        generated.refused[0].reason.contains("image/*"),
        "{}",
        generated.refused[0].reason
    );
    let server = server(&generated);
    assert!(server.contains(r#"media_type: "*/*""#) && server.contains("body.payload()"));
    let client = client(&generated);
    assert!(client.contains("application/octet-stream"));
}

/// A response header given as text `content` (not a `schema`) is its
/// schema's text; a path with and without a trailing `/` is one route
/// whose different methods are each served, and one method on both too:
/// the one with the `/` by the runtime's dispatch.
#[test]
fn text_content_headers_and_trailing_slash_twins_are_served() {
    let generated = generated(&spec(
        r#"paths:
  /jobs:
    get:
      operationId: listJobs
      responses:
        '200':
          description: ok
          headers:
            Cache-Control: {content: {text/plain: {schema: {type: string}}}}
    put:
      operationId: replaceJobs
      responses: {'204': {description: ok}}
  /jobs/:
    post:
      operationId: startJob
      responses: {'204': {description: ok}}
    put:
      operationId: replaceJobsToo
      responses: {'204': {description: ok}}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    assert_eq!(generated.operations, 4);
    let server = server(&generated);
    assert!(
        server.contains("StrictServer::<H>::replace_jobs_too") && server.contains("as TApi>::replace_jobs,"),
        "the twin with the `/` is the dispatch's, the other the trait's"
    );
    assert_eq!(
        tolerated(&generated),
        ["paths./jobs.get.responses.200.headers.Cache-Control.content"]
    );
}

/// progenitor gives an operation one error type: where its 4xx and 5xx
/// bodies differ (a bodiless 401 beside a 404 with a schema, a 403 of
/// any JSON), the client's error is the operation's enum of them, rather
/// than the operation being refused.
#[test]
fn error_responses_of_different_bodies_are_an_enum_in_the_client() {
    let generated = generated(&spec(
        r#"paths:
  /files/{path}:
    get:
      operationId: getFile
      parameters:
        - {name: path, in: path, required: true, schema: {type: string}}
      responses:
        '302':
          description: elsewhere
          headers:
            Location: {schema: {type: string}}
        '401': {description: not signed in}
        '403':
          description: forbidden
          content:
            application/json: {}
        '404':
          description: none
          content:
            application/json:
              schema: {type: object, properties: {message: {type: string}}}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    let client = client(&generated);
    // The operation's enum of its errors, each body typed (the 403's any
    // JSON value and the 404's inline schema as types of their own).
    for expected in [
        "Error<responses::GetFileError>",
        "Unauthorized,",
        "Forbidden(types::GetFile403Body),",
        "NotFound(types::GetFile404Body),",
    ] {
        assert!(holds(client, expected), "lacks `{expected}`: {client}");
    }
}

/// A request body without content (`content: {}`, or none at all) says a
/// request has a body but not what it holds: it is read as any body
/// (`*/*`, bytes and the type sent), named as a tolerated mistake.
#[test]
fn a_request_body_without_content_is_any_body() {
    let generated = generated(&spec(
        r#"paths:
  /channels/{channel}:
    post:
      operationId: subscribe
      parameters:
        - {name: channel, in: path, required: true, schema: {type: string}}
      requestBody: {content: {}, required: false}
      responses: {'204': {description: ok}}
    put:
      operationId: replace
      parameters:
        - {name: channel, in: path, required: true, schema: {type: string}}
      requestBody: {$ref: '#/components/requestBodies/Nothing'}
      responses: {'204': {description: ok}}
components:
  requestBodies:
    Nothing: {description: no content given, required: true}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    assert_eq!(
        tolerated(&generated),
        [
            "paths./channels/{channel}.post.requestBody.content",
            "components.requestBodies.Nothing.content"
        ]
    );
    let server = server(&generated);
    assert!(
        server.contains("body: ::std::option::Option<runtime::Payload>"),
        "optional"
    );
    assert!(server.contains("body: runtime::Payload"), "required");
}

/// An operation with a `default` response beside statuses but no 2xx (a
/// redirect with a body, errors): progenitor writes the default's
/// catch-all arm, then one for an unexpected status after it, which never
/// matches (`unreachable_patterns`, found by `try --build`). One goes.
#[test]
fn a_default_beside_statuses_without_a_success_gets_one_catch_all_arm() {
    let generated = generated(&spec(
        r#"paths:
  /items/{id}:
    get:
      operationId: findItem
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        '302':
          description: found
          content: {application/json: {schema: {type: object}}}
        '404':
          description: none
          content: {application/json: {schema: {type: object}}}
        default:
          description: anything else
          content: {application/json: {schema: {type: object}}}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    let client = client(&generated);
    let method = &client[client.find("pub async fn find_item").unwrap()..];
    let method = &method[..method.find("\n    }\n").unwrap()];
    assert_eq!(method.matches("_ => ").count(), 1, "{method}");
    assert!(!method.contains("UnexpectedResponse"), "{method}");
}

/// A WebSocket upgrade (101) beside another success (docker's attach: a
/// 200 where no upgrade was asked for): the server has a variant for
/// each; progenitor's client method has one success type, the upgrade,
/// and a 200 reaches its caller as an unexpected response (progenitor
/// asserted otherwise, and the operation was refused).
#[test]
fn an_upgrade_beside_another_success_is_served() {
    let generated = generated(&spec(
        r#"paths:
  /containers/{id}/attach:
    post:
      operationId: attach
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        '101': {description: upgraded}
        '200': {description: no upgrade asked for}
        '404':
          description: none
          content: {application/json: {schema: {type: object}}}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    let server = server(&generated);
    assert!(
        server.contains("SwitchingProtocols") && server.contains("Ok"),
        "a variant each"
    );
    let client = client(&generated);
    assert!(
        client.contains("ResponseValue::upgrade(response)"),
        "the client upgrades"
    );
}

/// A media type written in capitals (`application/JSON`, Mastercard's) is
/// the type it names: media types are case-insensitive. The server reads
/// and writes JSON, and the client's progenitor, whose names are
/// lower-case, gets the body as `application/json`.
#[test]
fn media_types_in_capitals_are_the_types_they_name() {
    let generated = generated(&spec(
        r#"paths:
  /validate:
    post:
      operationId: validate
      requestBody:
        content:
          application/JSON:
            schema: {type: object, properties: {id: {type: string}}}
      responses:
        '200':
          description: ok
          content:
            application/JSON:
              schema: {type: object, properties: {valid: {type: boolean}}}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    assert!(server(&generated).contains("kind: runtime::BodyKind::Json"));
}

/// A multipart body is sent by the client: its method takes a struct of
/// the body's parts, each text part of its schema's type (optional where
/// the schema does not require it), each file a `File` sent with the
/// `encoding`'s content type unless it says its own.
#[test]
fn multipart_bodies_are_sent_by_the_client_as_typed_parts() {
    let document = spec(
        r#"paths:
  /upload:
    post:
      operationId: upload
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              required: [file, count]
              properties:
                file: {type: string, format: binary, description: The scan.}
                count: {type: integer}
                tags: {type: array, items: {type: integer}}
                note: {type: string}
            encoding:
              file: {contentType: application/pdf}
      responses:
        '204': {description: stored}
"#,
    );
    let generated = generated(&document);
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    let positional = client(&generated);
    for expected in [
        "body: multipart_bodies::Upload,",
        "/// The scan.\n        pub file: File,",
        "pub count: i64,",
        "pub tags: ::std::vec::Vec<i64>,",
        "pub note: ::std::option::Option<::std::string::String>,",
        r#"parts = parts.file("file", value, "application/pdf");"#,
        "LEFT_OUT_OF_THE_CLIENT: &[&str] = &[];",
    ] {
        assert!(positional.contains(expected), "the client lacks `{expected}`");
    }
    // A builder client's builder holds the parts, and its `send` writes them.
    let target = xtask::codegen::Target {
        interface: xtask::codegen::ClientInterface::Builder,
        ..super::classes::target()
    };
    let builder = xtask::codegen::generate_per_operation(&target, &document, None).unwrap();
    let builder = client(&builder);
    for expected in [
        "body: Result<super::multipart_bodies::Upload, String>,",
        "pub fn body(mut self, value: super::multipart_bodies::Upload) -> Self {",
        "let body = ::api_client_runtime::multipart::MultipartBody::into_parts(body)",
        "LEFT_OUT_OF_THE_CLIENT: &[&str] = &[];",
    ] {
        assert!(builder.contains(expected), "the builder client lacks `{expected}`");
    }
}
