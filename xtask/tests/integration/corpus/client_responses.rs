//! Every documented response typed on the client: where an operation's
//! successes (or errors) have different bodies, progenitor's one type
//! per class would be bytes; the client's method returns instead the
//! operation's enum of statuses (`responses::<Op>Response`,
//! `responses::<Op>Error`), each variant holding its body typed: a
//! component's type, an inline schema's type of its own, bytes for
//! another media type, nothing for a bodiless status. A range the
//! client reads as one arm (`4XX`, or `default` made the ranges it
//! covers) reads each documented status within it as its own. And a
//! streamed response's items typed on a builder client too.

use super::classes::{client, generated, holds, spec};

#[test]
fn statuses_with_different_bodies_are_an_enum_of_typed_variants() {
    let generated = generated(&spec(
        r#"paths:
  /things/{id}:
    get:
      operationId: getThing
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: the thing
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Thing'}
        '202':
          description: not ready
          content:
            application/json:
              schema: {type: object, properties: {eta: {type: integer}}}
        '204':
          description: gone quiet
        '401':
          description: no key
        '404':
          description: no thing
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Problem'}
        default:
          description: anything else
          content:
            text/plain:
              schema: {type: string}
components:
  schemas:
    Thing: {type: object, properties: {name: {type: string}}}
    Problem: {type: object, properties: {detail: {type: string}}}
    GetThing202Body: {type: string}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    let client = client(&generated);
    let expected = [
        // The method returns the enums.
        "-> Result<ResponseValue<responses::GetThingResponse>,",
        "Error<responses::GetThingError>,",
        // A component's type; an inline schema as a type of its own (the
        // document's `GetThing202Body` keeps its name); no body.
        "Ok(types::Thing),",
        "Accepted(types::GetThing202Body2),",
        "NoContent,",
        "Unauthorized,",
        "NotFound(types::Problem),",
        // Another media type, as its bytes.
        "Default(::std::vec::Vec<u8>),",
        // 404 is read as itself within the range `default` became.
        "400u16..=499u16 => { match response.status().as_u16() { 401u16 => {",
        "404u16 => { Err(Error::ErrorResponse(::api_client_runtime::responses::json::<_, _, responses::GetThingError,>(response, responses::GetThingError::NotFound)",
    ];
    for expected in expected {
        assert!(holds(client, expected), "the client lacks `{expected}`:\n{client}");
    }
}

/// Statuses whose bodies are one type stay progenitor's: one type, no
/// enum.
#[test]
fn statuses_of_one_body_keep_one_type() {
    let generated = generated(&spec(
        r#"paths:
  /things:
    post:
      operationId: makeThing
      responses:
        '200': {description: there, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
        '201': {description: made, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
        '400': {description: bad, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
components:
  schemas:
    Thing: {type: object, properties: {name: {type: string}}}
"#,
    ));
    let client = client(&generated);
    assert!(client.contains("Result<ResponseValue<types::Thing>, Error<types::Thing>>"));
    assert!(!client.contains("pub mod responses"));
}

/// A streamed response's items are typed in the builder interface too:
/// `events()` on the builder, resending a copy of it with
/// `Last-Event-ID` set after a broken connection; `items()` for JSON
/// Lines. (A builder client of the 3.1 kitchen sink was built and its
/// stream resumed against a breaking server when this was written; CI
/// builds no builder client with streams.)
#[test]
fn streamed_items_are_typed_on_a_builder() {
    let document = spec(
        r#"paths:
  /ticks:
    get:
      operationId: ticks
      parameters:
        - {name: Last-Event-ID, in: header, schema: {type: string}}
        - {name: events, in: query, schema: {type: integer}}
      responses:
        '200':
          description: ticks
          content:
            text/event-stream:
              schema: {$ref: '#/components/schemas/Tick'}
  /lines:
    get:
      operationId: lines
      responses:
        '200':
          description: lines
          content:
            application/jsonl:
              schema: {$ref: '#/components/schemas/Tick'}
components:
  schemas:
    Tick: {type: object, properties: {n: {type: integer}}}
"#,
    );
    let target = xtask::codegen::Target {
        interface: xtask::codegen::ClientInterface::Builder,
        ..super::classes::target()
    };
    let builder = xtask::codegen::generate_per_operation(&target, &document, None).unwrap();
    let client = client(&builder);
    for expected in [
        // A parameter named `events` keeps its setter; the stream takes
        // the next free name.
        "impl<'a> builder::Ticks<'a> {",
        "pub fn events2(self",
        "Result<ServerSentEvent<types::Tick>, StreamError<()>>",
        "let again = self.clone();",
        "again.clone().last_event_id(last).send()",
        "impl<'a> builder::Lines<'a> {",
        "pub async fn items(self",
        "read_lines(self.send().await?)",
    ] {
        assert!(holds(client, expected), "the builder client lacks `{expected}`");
    }
}
