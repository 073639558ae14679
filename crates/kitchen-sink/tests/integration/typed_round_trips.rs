//! Typed values round-tripped through the generated client: parameters of
//! every type and format (defaults included), oneOf bodies and inline
//! responses, raw text, byte and form bodies, two success statuses, maps,
//! primitives and a public operation.

use crate::support::{Sink, send};
use chrono::{DateTime, NaiveDate, Utc};
use kitchen_sink::client::{Error as ClientError, types};
use reqwest::Method;
use serde_json::json;
use std::num::NonZeroU64;

use crate::round_trips::{bytes, id, new_order};

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
    // `/labels/`, a path with a trailing `/`, and `/labels`, the same
    // method on the path without it: each answers its own.
    let labels = client.list_labels().await.unwrap().into_inner();
    assert_eq!(labels["red"].text.as_str(), "Red");
    assert_eq!(client.label_names().await.unwrap().into_inner(), ["red"]);
    let listed = send(sink.request(Method::GET, "/labels/")).await;
    assert_eq!((listed.status, &listed.body["red"]["text"]), (200, &json!("Red")));
    let named = send(sink.request(Method::GET, "/labels")).await;
    assert_eq!((named.status, &named.body), (200, &json!(["red"])));

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
