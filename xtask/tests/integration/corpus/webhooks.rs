//! Webhooks (3.1) and callbacks (3.0 and 3.1) generate a `webhooks`
//! module in the server contract: a receiver's contract, and the sender
//! the service sends them with; a webhook the generator cannot map is
//! refused alone. The 3.1 kitchen sink (`crates/kitchen-sink-31`) sends
//! and receives what these generate, end to end.

use super::classes::{HEAD, generated, server, spec};

/// A 3.0 callback is served by the receiver at its name followed by what
/// its URL expression appends, and sent by a method of its own, whose
/// URL expression the contract keeps.
#[test]
fn a_30_callback_generates_a_receiver_and_a_sender() {
    let generated = generated(&spec(
        r#"paths:
  /streams:
    post:
      operationId: subscribe
      parameters:
        - {name: callbackUrl, in: query, required: true, schema: {type: string, format: uri}}
      responses:
        '201': {description: subscribed}
      callbacks:
        onData:
          '{$request.query.callbackUrl}/data':
            post:
              requestBody:
                content:
                  application/json:
                    schema:
                      type: object
                      properties:
                        timestamp: {type: string, format: date-time}
                        userData: {type: string}
              responses:
                '202': {description: received}
                '204': {description: no longer interested}
"#,
    ));
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    assert_eq!((generated.operations, generated.webhooks), (1, 1));
    assert!(
        generated
            .summary()
            .starts_with("1 operation(s) mapped (and 1 webhook(s) or callback(s)), 0 left out")
    );
    let server = server(&generated);
    assert!(server.contains("pub mod webhooks {"));
    assert!(
        server.contains(r#"path = "/onData/data""#),
        "served at its name and suffix"
    );
    assert!(server.contains("pub async fn on_data("), "its sender");
    assert!(server.contains(r#"pub const ON_DATA_URL: &str = "{$request.query.callbackUrl}/data";"#));
    assert!(
        server.contains("pub trait TWebhooksHandlers"),
        "the receiver's contract"
    );
}

/// A webhook that cannot be mapped (a body of a media range) is refused with
/// where it is written and why; the other webhook and the operations
/// generate.
#[test]
fn a_webhook_the_generator_cannot_map_is_refused_alone() {
    let text = HEAD.replace("openapi: 3.0.3", "openapi: 3.1.0")
        + r#"paths:
  /things:
    get:
      operationId: listThings
      responses: {'200': {description: ok}}
webhooks:
  thingAdded:
    post:
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
      responses: {'204': {description: ok}}
  thingAsXml:
    post:
      requestBody: {content: {'image/*': {schema: {type: string, format: binary}}}}
      responses: {'204': {description: ok}}
components:
  schemas:
    Thing:
      type: object
      required: [name]
      properties:
        name: {type: string}
"#;
    let generated = generated(&text);
    assert_eq!((generated.operations, generated.webhooks), (1, 1));
    assert_eq!(generated.refused.len(), 1, "{:?}", generated.refused);
    let refused = &generated.refused[0];
    assert_eq!(refused.operation, "POST webhooks.thingAsXml (thingAsXml)");
    assert!(
        refused
            .reason
            .contains("refused at webhooks.thingAsXml.post.requestBody"),
        "{}",
        refused.reason
    );
    let server = server(&generated);
    assert!(server.contains("pub async fn thing_added("));
    assert!(!server.contains("thing_as_xml"));
    assert!(
        server.contains("// - POST webhooks.thingAsXml (thingAsXml): refused at"),
        "the header names it"
    );
    // The receiver's types are the contract's where they are the same.
    assert!(server.contains("pub use super::super::types::*;"));
    assert_eq!(server.matches("pub struct Thing {").count(), 1, "one Thing, shared");
    assert!(
        server.contains("use super::COMPONENTS;"),
        "one table of component schemas"
    );
}

/// A webhook named as an operation of the contract (Telnyx's
/// `callHangup`, both), beside a component of that name: the receiver's
/// operation keeps its own `runtime::Contract` impl. Only impls on the
/// contract's shared `types` go, and this one is on the receiver's marker.
#[test]
fn a_webhook_named_as_an_operation_beside_a_type_of_that_name_keeps_its_contract() {
    let text = HEAD.replace("openapi: 3.0.3", "openapi: 3.1.0")
        + r#"paths:
  /calls/hangup:
    post:
      operationId: callHangup
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/CallHangup'}}}}
      responses: {'200': {description: ok}}
webhooks:
  callHangup:
    post:
      operationId: callHangup
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/CallHangup'}}}}
      responses: {'200': {description: ok}}
components:
  schemas:
    CallHangup:
      type: object
      properties: {id: {type: string}}
"#;
    let generated = generated(&text);
    assert!(generated.refused.is_empty(), "{:?}", generated.refused);
    let server = server(&generated);
    assert_eq!(
        server.matches("impl runtime::Contract for CallHangup {").count(),
        2,
        "{server}"
    );
}
