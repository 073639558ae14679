//! What HTTP itself carries, round-tripped through the generated client: an
//! optional body left out, a media range answered with the handler's type,
//! a redirect, a WebSocket upgrade, paths dropshot's router cannot hold side
//! by side, two successes with different bodies, a readOnly property, and a
//! variable with text around it.

use crate::support::{Sink, create_order, send};
use futures_util::StreamExt;
use kitchen_sink::client::{Error as ClientError, types};
use reqwest::Method;
use serde_json::json;
use std::num::NonZeroU64;

use super::round_trips::{bytes, id, new_order, placed};

#[tokio::test]
async fn an_optional_body_may_be_left_out() {
    let sink = Sink::start().await;
    let (first, _) = create_order(&sink, json!({"petId": 1, "quantity": 1})).await;
    let (second, _) = create_order(&sink, json!({"petId": 1, "quantity": 1})).await;
    let without = send(sink.request(Method::POST, &format!("/orders/{first}/shipment"))).await;
    assert_eq!(without.status, 204, "{}", without.body);
    let with = send(
        sink.request(Method::POST, &format!("/orders/{second}/shipment"))
            .json(&json!({"carrier": "ups", "trackingNumber": "1Z999"})),
    )
    .await;
    assert_eq!(with.status, 204, "{}", with.body);
    let again = send(sink.request(Method::POST, &format!("/orders/{second}/shipment"))).await;
    again.assert_error(409, "conflict", &["not pending"]);
    sink.stop().await;
}

/// `image/*`: the handler chooses the concrete type (SVG), which is sent
/// as the Content-Type; the client reads the bytes.
#[tokio::test]
async fn a_media_range_is_answered_with_the_type_the_handler_chose() {
    let sink = Sink::start().await;
    let client = sink.client();
    let order = placed(&client, 1, 1).await;
    let label = client.get_label(id(&order)).await.unwrap();
    assert_eq!(label.status().as_u16(), 200);
    assert_eq!(label.headers()["content-type"], "image/svg+xml");
    let svg = String::from_utf8(bytes(label).await).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains(&format!("Order {}", order.id)),
        "{svg}"
    );
    let missing = send(sink.request(Method::GET, "/orders/999/label")).await;
    missing.assert_error(404, "not_found", &["999"]);
    sink.stop().await;
}

/// A documented redirect: 303 with its `Location`, not followed by the
/// server; a client that follows it reads the order.
#[tokio::test]
async fn a_redirect_carries_its_documented_location() {
    let sink = Sink::start().await;
    let none = send(sink.request(Method::GET, "/latest-order")).await;
    none.assert_error(404, "not_found", &["no orders"]);
    let (first, _) = create_order(&sink, json!({"petId": 1, "quantity": 1})).await;
    let (newest, _) = create_order(&sink, json!({"petId": 2, "quantity": 1})).await;
    assert!(newest > first);
    let not_following = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let answer = send(
        not_following
            .get(format!("{}/latest-order", sink.base_url))
            .bearer_auth(&sink.key),
    )
    .await;
    assert_eq!(answer.status, 303);
    assert_eq!(answer.header("location"), Some(format!("/v1/orders/{newest}").as_str()));
    assert!(answer.bytes.is_empty());
    // reqwest follows it (same host, so the key goes along).
    let followed = send(sink.request(Method::GET, "/latest-order")).await;
    assert_eq!(followed.status, 200);
    assert_eq!(followed.body["id"], newest);
    sink.stop().await;
}

/// A documented 101: the generated client sends the WebSocket handshake,
/// the handler accepts it, and the order arrives as a text message over
/// the upgraded connection. A plain GET is not a handshake (400, after the
/// key is checked: 401 comes first).
#[tokio::test]
async fn a_websocket_upgrade_carries_the_order() {
    use tokio_tungstenite::tungstenite::Message;
    use tokio_tungstenite::tungstenite::protocol::Role;

    let sink = Sink::start().await;
    let client = sink.client();
    let order = placed(&client, 4, 2).await;
    let upgraded = client.watch_order(id(&order)).await.unwrap();
    assert_eq!(upgraded.status().as_u16(), 101);
    let mut socket =
        tokio_tungstenite::WebSocketStream::from_raw_socket(upgraded.into_inner(), Role::Client, None).await;
    let Some(Ok(Message::Text(text))) = socket.next().await else {
        panic!("no text message");
    };
    let sent: types::Order = serde_json::from_str(text.as_str()).unwrap();
    assert_eq!((sent.id, sent.quantity.get()), (order.id, 2));
    assert!(matches!(socket.next().await, Some(Ok(Message::Close(_))) | None));

    match client.watch_order(NonZeroU64::new(999).unwrap()).await {
        Err(ClientError::ErrorResponse(e)) => assert_eq!(e.status().as_u16(), 404),
        other => panic!("{other:?}"),
    }
    let plain = send(sink.request(Method::GET, &format!("/orders/{}/watch", order.id))).await;
    plain.assert_error(400, "bad_request", &["upgrade"]);
    let anonymous = send(sink.anonymous(Method::GET, &format!("/orders/{}/watch", order.id))).await;
    anonymous.assert_error(401, "unauthorized", &[]);
    sink.stop().await;
}

/// Paths dropshot's router cannot hold side by side: `/orders/summary`
/// beside `/orders/{orderId}` (the literal wins, for every method: the
/// summary's path allows GET only), and `{id}` where the other paths
/// say `{orderId}` (read by the spec's name).
#[tokio::test]
async fn a_literal_beside_a_variable_and_two_names_at_one_position_are_routed() {
    let sink = Sink::start().await;
    let client = sink.client();
    let order = placed(&client, 3, 1).await;
    let summary = client.get_order_summary().await.unwrap().into_inner();
    assert_eq!((summary.count, summary.pending), (1, 1));
    // The variable path still answers for every other segment.
    assert_eq!(client.get_order(id(&order)).await.unwrap().into_inner().id, order.id);
    let not_an_id = send(sink.request(Method::GET, "/orders/summarx")).await;
    not_an_id.assert_error(400, "invalid_parameter", &["orderId"]);
    // The literal's path has GET only: DELETE there is 405, not a delete
    // of an order called "summary".
    let delete = send(sink.request(Method::DELETE, "/orders/summary")).await;
    delete.assert_error(405, "method_not_allowed", &["DELETE"]);
    assert_eq!(delete.header("allow"), Some("GET"));
    // A key is checked on the routed path as on any other.
    send(sink.anonymous(Method::GET, "/orders/summary"))
        .await
        .assert_error(401, "unauthorized", &[]);

    let status = client.get_order_status(id(&order)).await.unwrap().into_inner();
    assert_eq!(status.status, types::OrderStatus::Pending);
    match client.get_order_status(NonZeroU64::new(999).unwrap()).await {
        Err(ClientError::ErrorResponse(e)) => assert_eq!(e.status().as_u16(), 404),
        other => panic!("{other:?}"),
    }
    send(sink.request(Method::GET, "/orders/0/status"))
        .await
        .assert_error(400, "invalid_parameter", &["id"]);
    sink.stop().await;
}

/// Two success statuses with different bodies: the server answers each
/// with its own type; the client returns the operation's enum, a variant
/// per status with its body typed (the inline schemas as types of their
/// own), status and headers beside it.
#[tokio::test]
async fn success_statuses_with_different_bodies_each_have_theirs() {
    use kitchen_sink::client::responses::GetReceiptResponse;
    let sink = Sink::start().await;
    let client = sink.client();
    let order = placed(&client, 5, 2).await;
    let preparing = client.get_receipt(id(&order)).await.unwrap();
    assert_eq!(preparing.status().as_u16(), 202);
    assert_eq!(preparing.headers()["content-type"], "application/json");
    match preparing.into_inner() {
        GetReceiptResponse::Accepted(progress) => assert_eq!(progress.state.to_string(), "preparing"),
        other => panic!("expected 202's body, got {other:?}"),
    }

    let shipped = send(sink.request(Method::POST, &format!("/orders/{}/shipment", order.id))).await;
    assert_eq!(shipped.status, 204, "{}", shipped.body);
    let receipt = client.get_receipt(id(&order)).await.unwrap();
    assert_eq!(receipt.status().as_u16(), 200);
    match receipt.into_inner() {
        GetReceiptResponse::Ok(receipt) => {
            assert_eq!(receipt.order_id, order.id);
            assert_eq!(receipt.total, order.total.unwrap());
        }
        other => panic!("expected 200's body, got {other:?}"),
    }
    sink.stop().await;
}

/// A readOnly property required in responses: a request need not (and
/// the client's type does not make it) send one; the server gives it, and
/// ignores one a caller sends.
#[tokio::test]
async fn a_read_only_property_is_the_servers_to_give() {
    let sink = Sink::start().await;
    let client = sink.client();
    let name: types::PutLabelName = "green".parse().unwrap();
    let label: types::Label = serde_json::from_value(json!({"text": "Green"})).unwrap();
    assert!(label.revision.is_none());
    let created = client.put_label(&name, &label).await.unwrap().into_inner();
    assert_eq!(created.revision.map(|r| r.get()), Some(1));
    let again = send(
        sink.request(Method::PUT, "/labels/green")
            .json(&json!({"text": "Green", "revision": 99})),
    )
    .await;
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.body["revision"], 2, "the server's count, not the caller's");
    sink.stop().await;
}

#[tokio::test]
async fn a_variable_with_text_around_it_is_routed() {
    let sink = Sink::start().await;
    let client = sink.client();
    client.create_order(None, None, &new_order(1, 1)).await.unwrap();
    let order = NonZeroU64::new(1).unwrap();
    // `/orders/{orderId}.json`, text around a variable: the client's, and
    // raw requests, beside `/orders/{orderId}` (which a `.json` that is not
    // an id does not reach).
    let downloaded = client.download_order(order).await.unwrap().into_inner();
    assert_eq!(downloaded.id, 1);
    let raw = send(sink.request(Method::GET, "/orders/1.json")).await;
    assert_eq!((raw.status, &raw.body["id"]), (200, &json!(1)));
    let plain = send(sink.request(Method::GET, "/orders/1")).await;
    assert_eq!(
        (plain.status, plain.header("etag").is_some()),
        (200, true),
        "getOrder answers /orders/1"
    );
    send(sink.request(Method::GET, "/orders/x.json"))
        .await
        .assert_error(400, "invalid_parameter", &["orderId"]);
    send(sink.request(Method::GET, "/orders/9.json"))
        .await
        .assert_error(404, "not_found", &["order 9"]);
    sink.stop().await;
}
