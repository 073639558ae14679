//! Every construct of the kitchen sink, round-tripped over HTTP through its
//! generated progenitor client: typed parameters of every type and format
//! (defaults included), JSON, text, byte and form bodies, JSON, CSV and
//! byte responses, documented response headers, two success statuses,
//! oneOf and allOf bodies, a map, a primitive, a public operation and an
//! API-key header.

mod support;

use std::num::{NonZeroU32, NonZeroU64};

use chrono::{DateTime, NaiveDate, Utc};
use futures_util::StreamExt;
use kitchen_sink::client::{Error as ClientError, types};
use progenitor_client::{ByteStream, ResponseValue};
use reqwest::Method;
use serde_json::json;
use support::{Sink, create_order, send};

async fn bytes(response: ResponseValue<ByteStream>) -> Vec<u8> {
    let mut stream = response.into_inner().into_inner();
    let mut out = Vec::new();
    while let Some(chunk) = stream.next().await {
        out.extend_from_slice(&chunk.unwrap());
    }
    out
}

fn new_order(pet: u64, quantity: u32) -> types::NewOrder {
    serde_json::from_value(json!({"petId": pet, "quantity": quantity})).unwrap()
}

/// An order placed through the generated client.
async fn placed(client: &kitchen_sink::client::Client, pet: u64, quantity: u32) -> types::Order {
    client
        .create_order(None, None, &new_order(pet, quantity))
        .await
        .unwrap()
        .into_inner()
}

fn id(order: &types::Order) -> NonZeroU64 {
    NonZeroU64::new(order.id as u64).unwrap()
}

#[tokio::test]
async fn create_read_update_and_delete_an_order() {
    let sink = Sink::start().await;
    let client = sink.client();
    let body: types::NewOrder = serde_json::from_value(json!({
        "petId": 7, "quantity": 3, "shipDate": "2026-12-01T09:00:00Z", "deliverBy": "2026-12-05",
        "note": "fragile", "tags": ["gift", "urgent"], "giftWrap": true, "discount": 0.25, "weightKg": 1.5,
        "address": {"street": "1 Main St", "city": "Springfield", "postcode": "12345"}
    }))
    .unwrap();
    let created = client.create_order(None, None, &body).await.unwrap();
    assert_eq!(created.status().as_u16(), 201);
    let location = created.headers()["location"].to_str().unwrap().to_string();
    let etag = created.headers()["etag"].to_str().unwrap().to_string();
    let order = created.into_inner();
    assert_eq!(location, format!("/v1/orders/{}", order.id));
    assert_eq!(order.status, types::OrderStatus::Pending);
    assert_eq!(order.quantity.get(), 3);
    assert_eq!(order.deliver_by, NaiveDate::from_ymd_opt(2026, 12, 5));
    assert_eq!(order.tags.as_ref().unwrap().len(), 2);
    // Defaults of the body's schema reach the stored order: the address's
    // country and the channel were not sent.
    let address = order.address.as_ref().unwrap();
    assert_eq!(address.country.as_str(), "US");
    assert_eq!(order.channel, types::OrderChannel::Web);
    assert_eq!(order.total, Some(3.0 * 9.5 * 0.75));

    let read = client.get_order(id(&order)).await.unwrap();
    assert_eq!(read.headers()["etag"].to_str().unwrap(), etag);
    assert_eq!(read.into_inner().note.as_deref().map(|n| n.as_str()), Some("fragile"));

    // If-Match: the current ETag changes the order; an old one is 412.
    let patch: types::OrderPatch = serde_json::from_value(json!({"quantity": 5, "note": "handle with care"})).unwrap();
    let if_match: types::UpdateOrderIfMatch = etag.parse().unwrap();
    let updated = client.update_order(id(&order), &if_match, &patch).await.unwrap();
    let new_etag = updated.headers()["etag"].to_str().unwrap().to_string();
    assert_ne!(new_etag, etag);
    let updated = updated.into_inner();
    assert_eq!(
        (updated.quantity.get(), updated.note.as_deref().map(|n| n.as_str())),
        (5, Some("handle with care"))
    );
    match client.update_order(id(&order), &if_match, &patch).await {
        Err(ClientError::ErrorResponse(e)) => {
            assert_eq!((e.status().as_u16(), e.code.as_str()), (412, "precondition_failed"))
        }
        other => panic!("{other:?}"),
    }

    assert_eq!(client.delete_order(id(&order)).await.unwrap().status().as_u16(), 204);
    match client.get_order(id(&order)).await {
        Err(ClientError::ErrorResponse(e)) => assert_eq!(e.status().as_u16(), 404),
        other => panic!("{other:?}"),
    }
    sink.stop().await;
}

#[tokio::test]
async fn a_boolean_header_defaults_to_false() {
    let sink = Sink::start().await;
    let client = sink.client();
    let when: DateTime<Utc> = "2026-11-23T10:00:00Z".parse().unwrap();
    let plain = client
        .create_order(Some(&when), None, &new_order(1, 2))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(plain.total, Some(19.0), "absent, X-Express is false: no surcharge");
    let express = client
        .create_order(None, Some(true), &new_order(1, 2))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(express.total, Some(24.0));
    sink.stop().await;
}

#[tokio::test]
async fn search_filters_pages_and_links() {
    let sink = Sink::start().await;
    let client = sink.client();
    for i in 1..=5u32 {
        let mut body = new_order(u64::from(i), i);
        body.tags = Some(vec![if i % 2 == 0 { "even" } else { "odd" }.parse().unwrap()]);
        body.gift_wrap = i == 3;
        client.create_order(None, None, &body).await.unwrap();
    }
    // A page of two, ascending (the default sort), with the total and the
    // next page in `Link`.
    let limit = NonZeroU32::new(2);
    let first = client
        .search_orders(None, None, None, None, limit, None, None, None, None, None, None, None)
        .await
        .unwrap();
    assert_eq!(first.headers()["x-total-count"], "5");
    let link = first.headers()["link"].to_str().unwrap().to_string();
    assert!(
        link.starts_with("</v1/orders?") && link.ends_with("rel=\"next\""),
        "{link}"
    );
    let first = first.into_inner();
    assert_eq!(first.items.iter().map(|o| o.id).collect::<Vec<_>>(), [1, 2]);
    let cursor: types::SearchOrdersCursor = first.next_cursor.clone().unwrap().parse().unwrap();
    let second = client
        .search_orders(
            Some(&cursor),
            None,
            None,
            None,
            limit,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
        )
        .await
        .unwrap()
        .into_inner();
    assert_eq!(second.items.iter().map(|o| o.id).collect::<Vec<_>>(), [3, 4]);
    // Following the Link gives the same page.
    let target = link
        .trim_start_matches('<')
        .split('>')
        .next()
        .unwrap()
        .trim_start_matches("/v1");
    let linked = send(sink.request(Method::GET, target)).await;
    assert_eq!(linked.body["items"][0]["id"], 3);

    // Repeated `tag` (explode: true), comma-joined `ids` (explode: false;
    // progenitor's client repeats the name, which is read too), a boolean,
    // a number and a descending sort.
    let tags = vec!["even".parse().unwrap()];
    let ids = vec![
        NonZeroU64::new(2).unwrap(),
        NonZeroU64::new(3).unwrap(),
        NonZeroU64::new(4).unwrap(),
    ];
    let found = client
        .search_orders(
            None,
            None,
            None,
            Some(&ids),
            None,
            None,
            Some(1.0),
            None,
            Some(types::SearchOrdersSort::Desc),
            Some(types::OrderStatus::Pending),
            Some(&tags),
            Some(&uuid::Uuid::new_v4()),
        )
        .await
        .unwrap()
        .into_inner();
    assert_eq!(found.items.iter().map(|o| o.id).collect::<Vec<_>>(), [4, 2]);
    assert_eq!(found.next_cursor, None, "the last page says so with null");
    let wrapped = client
        .search_orders(
            None,
            None,
            Some(true),
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
        )
        .await
        .unwrap()
        .into_inner();
    assert_eq!(wrapped.items.iter().map(|o| o.id).collect::<Vec<_>>(), [3]);
    // The spec's form of `ids` (commas) and `tag` (repeated), sent raw.
    let raw = send(sink.request(Method::GET, "/orders?ids=1,3,5&tag=odd&tag=odd")).await;
    let ids: Vec<i64> = raw.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [1, 3, 5]);
    sink.stop().await;
}

#[tokio::test]
async fn every_parameter_type_arrives_typed_with_its_default() {
    let sink = Sink::start().await;
    let client = sink.client();
    let day = NaiveDate::from_ymd_opt(2026, 2, 28).unwrap();
    let at: DateTime<Utc> = "2026-02-28T23:59:58Z".parse().unwrap();
    let token = uuid::Uuid::new_v4();
    // Only the required ones: every default arrives.
    let echo = client
        .echo_parameters(
            3,
            1.5,
            true,
            &day,
            &at,
            &token,
            types::EchoParametersKind::Beta,
            -9_000_000_000,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
        )
        .await
        .unwrap()
        .into_inner();
    let echo = serde_json::Value::Object(echo);
    assert_eq!(
        echo["path"],
        json!({"count": 3, "ratio": 1.5, "flag": true, "day": "2026-02-28", "at": "2026-02-28T23:59:58Z", "token": token, "kind": "beta"})
    );
    assert_eq!(echo["big"], -9_000_000_000i64);
    for (name, default) in [
        ("small", json!(7)),
        ("yes", json!(true)),
        ("word", json!("hi")),
        ("pick", json!("x")),
        ("X-Word", json!("none")),
        ("theme", json!("light")),
    ] {
        assert_eq!(echo[name], default, "{name}");
    }
    for absent in [
        "fraction", "date", "moment", "id", "many", "joined", "X-Big", "X-Moment", "X-Pick", "visits", "box", "filter",
    ] {
        assert_eq!(echo[absent], serde_json::Value::Null, "{absent}");
    }

    // Everything given: each reaches the handler as its type.
    let id = uuid::Uuid::new_v4();
    let many = vec![1, -2, 3];
    let joined = vec!["a".to_string(), "b".to_string()];
    let boxed = types::EchoParametersBox { width: 3, height: None };
    let filter = types::EchoParametersFilter {
        color: Some(types::EchoParametersFilterColor::Red),
        size: std::num::NonZeroU32::new(2),
    };
    let echo = client
        .echo_parameters(
            0,
            -2e-3,
            false,
            &day,
            &at,
            &token,
            types::EchoParametersKind::Alpha,
            42,
            Some(&boxed),
            Some(&day),
            Some(&filter),
            Some(0.5),
            Some(&id),
            Some(&joined),
            Some(&many),
            Some(&at),
            Some(types::EchoParametersPick::Y),
            Some(100),
            Some(&"abc".parse().unwrap()),
            Some(false),
            Some(i64::MIN),
            Some(&day),
            Some(2.25),
            Some(&id),
            Some(&at),
            Some(types::EchoParametersXPick::X),
            Some("hello"),
            Some(true),
            Some(types::EchoParametersTheme::Dark),
            Some(3),
        )
        .await
        .unwrap()
        .into_inner();
    let echo = serde_json::Value::Object(echo);
    let expected = json!({
        "big": 42, "small": 100, "fraction": 0.5, "yes": false, "word": "abc", "date": "2026-02-28",
        "moment": "2026-02-28T23:59:58Z", "id": id, "pick": "y", "many": [1, -2, 3], "joined": ["a", "b"],
        "X-Big": i64::MIN, "X-Fraction": 2.25, "X-Yes": true, "X-Date": "2026-02-28",
        "X-Moment": "2026-02-28T23:59:58Z", "X-Id": id, "X-Pick": "x", "X-Word": "hello",
        "theme": "dark", "visits": 3, "box": {"width": 3}, "filter": {"color": "red", "size": 2}
    });
    for (name, value) in expected.as_object().unwrap() {
        assert_eq!(&echo[name.as_str()], value, "{name}");
    }
    assert_eq!(echo["path"]["ratio"], -0.002);
    sink.stop().await;
}

#[tokio::test]
async fn one_of_bodies_inline_responses_and_a_conflict() {
    let sink = Sink::start().await;
    let client = sink.client();
    let order = client
        .create_order(None, None, &new_order(1, 1))
        .await
        .unwrap()
        .into_inner();
    let other = client
        .create_order(None, None, &new_order(2, 1))
        .await
        .unwrap()
        .into_inner();
    let card: types::Payment =
        serde_json::from_value(json!({"kind": "card", "number": "4111111111111111", "expires": "12/29"})).unwrap();
    let bank: types::Payment =
        serde_json::from_value(json!({"kind": "bank", "iban": "DE89370400440532013000"})).unwrap();
    let paid = client.pay_order(id(&order), &card).await.unwrap();
    assert_eq!(paid.status().as_u16(), 202);
    let paid = paid.into_inner();
    assert_eq!(paid.fee, Some(0.3));
    let by_bank = client.pay_order(id(&other), &bank).await.unwrap().into_inner();
    assert_eq!(by_bank.fee, None, "a nullable field left out");
    match client.pay_order(id(&order), &bank).await {
        Err(ClientError::ErrorResponse(e)) => assert_eq!((e.status().as_u16(), e.code.as_str()), (409, "conflict")),
        other => panic!("{other:?}"),
    }
    let payment = client.get_payment(&by_bank.payment_id).await.unwrap().into_inner();
    assert_eq!(payment.order_id, other.id);
    assert!(matches!(payment.method, types::Payment::BankPayment(_)));
    let lines = client.list_order_lines(id(&order)).await.unwrap().into_inner();
    assert_eq!((lines[0].sku.as_str(), lines[0].quantity.get()), ("pet-1", 1));
    sink.stop().await;
}

#[tokio::test]
async fn raw_text_and_form_bodies_and_raw_responses() {
    let sink = Sink::start().await;
    let client = sink.client();
    let order = client
        .create_order(None, None, &new_order(1, 2))
        .await
        .unwrap()
        .into_inner();
    // Bytes in, the same bytes out, with the documented media type.
    let photo: Vec<u8> = (0..=255u8).cycle().take(10_000).collect();
    assert_eq!(
        client
            .upload_photo(id(&order), photo.clone())
            .await
            .unwrap()
            .status()
            .as_u16(),
        204
    );
    let got = client.get_photo(id(&order)).await.unwrap();
    assert_eq!(got.headers()["content-type"], "application/octet-stream");
    assert_eq!(bytes(got).await, photo);
    // Text in (UTF-8).
    let note = client.add_note(id(&order), "ça va — ok".to_string()).await.unwrap();
    assert_eq!(note.status().as_u16(), 201);
    assert_eq!(note.into_inner().text, "ça va — ok");
    // CSV out.
    let csv = client.export_orders().await.unwrap();
    assert_eq!(csv.headers()["content-type"], "text/csv");
    assert_eq!(
        String::from_utf8(bytes(csv).await).unwrap(),
        format!("id,petId,quantity,status\n{},1,2,pending\n", order.id)
    );
    // A form, public (no key needed), with a default.
    let form: types::SubscribeBody =
        serde_json::from_value(json!({"email": "a@example.com", "topic": "fish"})).unwrap();
    assert_eq!(
        form.frequency,
        types::SubscribeBodyFrequency::Weekly,
        "the schema's default"
    );
    let anonymous = sink.client_with(Default::default());
    assert_eq!(anonymous.subscribe(&form).await.unwrap().status().as_u16(), 204);
    let raw = send(
        sink.anonymous(Method::POST, "/newsletter")
            .header("content-type", "application/x-www-form-urlencoded")
            .body("email=b%40example.com&topic=cats&age=30"),
    )
    .await;
    assert_eq!(raw.status, 204, "{}", raw.body);
    sink.stop().await;
}

#[tokio::test]
async fn two_success_statuses_maps_primitives_and_public_operations() {
    let sink = Sink::start().await;
    let client = sink.client();
    let name: types::PutLabelName = "red".parse().unwrap();
    let label: types::Label = serde_json::from_value(json!({"text": "Red", "color": "#ff0000"})).unwrap();
    let created = client.put_label(&name, &label).await.unwrap();
    assert_eq!(created.status().as_u16(), 201);
    assert_eq!(created.headers()["location"], "/v1/labels/red");
    let replaced = client.put_label(&name, &label).await.unwrap();
    assert_eq!(replaced.status().as_u16(), 200);
    assert!(
        replaced.headers().get("location").is_none(),
        "200 documents no Location"
    );
    assert_eq!(replaced.into_inner().text.as_str(), "Red");
    // `/labels/`, a path with a trailing `/`: the client's, and without it.
    let labels = client.list_labels().await.unwrap().into_inner();
    assert_eq!(labels["red"].text.as_str(), "Red");
    for path in ["/labels/", "/labels"] {
        let listed = send(sink.request(Method::GET, path)).await;
        assert_eq!(
            (listed.status, &listed.body["red"]["text"]),
            (200, &json!("Red")),
            "{path}"
        );
    }

    for pet in [1, 2] {
        client.create_order(None, None, &new_order(pet, 1)).await.unwrap();
    }
    let order = NonZeroU64::new(1).unwrap();
    client
        .ship_order(order, &serde_json::from_value(json!({"carrier": "dhl"})).unwrap())
        .await
        .unwrap();
    let inventory = client.get_inventory().await.unwrap().into_inner();
    assert_eq!(inventory.0.get("pending"), Some(&1));
    assert_eq!(inventory.0.get("shipped"), Some(&1));
    assert_eq!(client.count_orders().await.unwrap().into_inner(), 2);
    // The same operation with the key in its own header.
    let by_header = send(
        sink.anonymous(Method::GET, "/store/inventory")
            .header("X-API-Key", &sink.key),
    )
    .await;
    assert_eq!(by_header.status, 200);
    assert_eq!(by_header.body["pending"], 1);

    let today = Utc::now().date_naive();
    let report = client
        .get_report(types::GetReportPeriod::Day, &today)
        .await
        .unwrap()
        .into_inner();
    assert_eq!((report.from, report.orders), (today, 2));
    let anonymous = sink.client_with(Default::default());
    let status = anonymous.get_status().await.unwrap().into_inner();
    assert_eq!(status.version, kitchen_sink::api::API_VERSION);
    let quote = anonymous.quote_order(&new_order(3, 2)).await.unwrap().into_inner();
    assert_eq!(quote.total, 19.0, "a public operation with a JSON body");
    sink.stop().await;
}

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
/// with its own type; the client reads them as bytes, with the status to
/// tell which body it holds.
#[tokio::test]
async fn success_statuses_with_different_bodies_each_have_theirs() {
    let sink = Sink::start().await;
    let client = sink.client();
    let order = placed(&client, 5, 2).await;
    let preparing = client.get_receipt(id(&order)).await.unwrap();
    assert_eq!(preparing.status().as_u16(), 202);
    assert_eq!(preparing.headers()["content-type"], "application/json");
    let body: serde_json::Value = serde_json::from_slice(&bytes(preparing).await).unwrap();
    assert_eq!(body, json!({"state": "preparing"}));

    let shipped = send(sink.request(Method::POST, &format!("/orders/{}/shipment", order.id))).await;
    assert_eq!(shipped.status, 204, "{}", shipped.body);
    let receipt = client.get_receipt(id(&order)).await.unwrap();
    assert_eq!(receipt.status().as_u16(), 200);
    let body: serde_json::Value = serde_json::from_slice(&bytes(receipt).await).unwrap();
    assert_eq!(body["orderId"], order.id);
    assert_eq!(body["total"], json!(order.total.unwrap()));
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
