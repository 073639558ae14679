//! A body in several media types and a response in several, over HTTP
//! (`estimateOrder`): the layer reads JSON and the form into one typed
//! value and answers 415 for anything else; it writes the JSON type the
//! request's `Accept` prefers, and answers 406, before anything is done,
//! when `Accept` allows none.

use crate::support;

use std::num::{NonZeroU32, NonZeroU64};

use crate::support::{Sink, send};
use kitchen_sink::client::types;
use reqwest::Method;

const VENDOR: &str = "application/vnd.kitchen.estimate+json";

fn form(body: &'static str) -> impl Fn(reqwest::RequestBuilder) -> reqwest::RequestBuilder {
    move |request| {
        request
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
    }
}

#[tokio::test]
async fn a_body_is_read_from_each_media_type_the_layer_reads() {
    let sink = Sink::start().await;
    // The generated client sends JSON.
    let request = types::EstimateRequest {
        gift_wrap: Some(true),
        pet_id: NonZeroU64::new(1).unwrap(),
        quantity: NonZeroU32::new(2).unwrap(),
    };
    let estimate = sink
        .client_with(Default::default())
        .estimate_order(&request)
        .await
        .unwrap()
        .into_inner();
    assert_eq!(estimate.total, 21.0);
    // The same value as a form, read by its fields' types.
    let as_form = send(form("petId=1&quantity=2&giftWrap=true")(
        sink.anonymous(Method::POST, "/estimates"),
    ))
    .await;
    assert_eq!((as_form.status, as_form.body["total"].as_f64()), (200, Some(21.0)));
    // The schema holds for both.
    let too_few = send(form("petId=1&quantity=0")(sink.anonymous(Method::POST, "/estimates"))).await;
    too_few.assert_error(400, "invalid_body", &["quantity"]);
    let not_a_number = send(form("petId=1&quantity=two")(sink.anonymous(Method::POST, "/estimates"))).await;
    not_a_number.assert_error(400, "invalid_body", &["quantity"]);
    // Anything else is 415, naming what is read.
    let xml = send(
        sink.anonymous(Method::POST, "/estimates")
            .header("content-type", "application/xml")
            .body("<estimate><petId>1</petId><quantity>2</quantity></estimate>"),
    )
    .await;
    xml.assert_error(
        415,
        "unsupported_media_type",
        &["application/json or application/x-www-form-urlencoded"],
    );
    sink.stop().await;
}

#[tokio::test]
async fn a_response_is_written_in_the_type_accept_prefers() {
    let sink = Sink::start().await;
    let body = r#"{"petId": 1, "quantity": 1}"#;
    let estimate = |accept: Option<&'static str>| {
        let request = sink
            .anonymous(Method::POST, "/estimates")
            .header("content-type", "application/json")
            .body(body);
        match accept {
            Some(accept) => request.header("accept", accept),
            None => request,
        }
    };
    for (accept, written) in [
        (None, "application/json"),
        (Some("*/*"), "application/json"),
        (Some("application/json"), "application/json"),
        (Some(VENDOR), VENDOR),
        (
            Some("application/json;q=0.5, application/vnd.kitchen.estimate+json"),
            VENDOR,
        ),
        (Some("text/html, application/*;q=0.1"), "application/json"),
    ] {
        let answer = send(estimate(accept)).await;
        assert_eq!(answer.status, 200, "{accept:?}: {}", answer.body);
        assert_eq!(answer.header("content-type"), Some(written), "{accept:?}");
        assert_eq!(answer.body["total"].as_f64(), Some(9.5));
    }
    for accept in ["application/xml", "text/html", "application/json;q=0, */*;q=0"] {
        let refused = send(estimate(Some(accept))).await;
        refused.assert_error(406, "not_acceptable", &["application/json or", VENDOR]);
    }
    // 406 comes before the body is read: nothing is done for a caller that
    // cannot read the answer.
    let before_body = send(
        sink.anonymous(Method::POST, "/estimates")
            .header("accept", "application/xml")
            .header("content-type", "application/json")
            .body("not json"),
    )
    .await;
    assert_eq!(before_body.status, 406);
    sink.stop().await;
}

#[tokio::test]
async fn a_form_carries_lists_and_an_object() {
    let sink = Sink::start().await;
    // The generated client writes lists as repeated pairs and the object
    // as JSON text (progenitor's own encoder writes neither).
    let preferences: types::Preferences = serde_json::from_value(serde_json::json!({
        "tags": ["dogs", "fish"],
        "hours": [7, 19],
        "digest": {"weekly": true, "day": "fri"},
    }))
    .unwrap();
    let read = sink
        .client_with(Default::default())
        .set_preferences(&preferences)
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        serde_json::to_value(&read).unwrap(),
        serde_json::to_value(&preferences).unwrap()
    );
    // As a browser or curl sends it.
    let raw = send(form(
        "tags=cats&tags=dogs&hours=8&hours=9&digest=%7B%22weekly%22%3Afalse%7D",
    )(sink.anonymous(Method::POST, "/preferences")))
    .await;
    assert_eq!(raw.status, 200, "{}", raw.body);
    assert_eq!(
        raw.body,
        serde_json::json!({"tags": ["cats", "dogs"], "hours": [8, 9], "digest": {"weekly": false}})
    );
    // The object as OpenAPI's default for forms writes it (`style: form,
    // explode: true`): its properties as pairs of their own.
    let exploded = send(form("tags=a&tags=b&weekly=true&day=mon")(
        sink.anonymous(Method::POST, "/preferences"),
    ))
    .await;
    assert_eq!(exploded.status, 200, "{}", exploded.body);
    assert_eq!(
        exploded.body,
        serde_json::json!({"tags": ["a", "b"], "digest": {"weekly": true, "day": "mon"}})
    );
    // A required list a form leaves out is empty (a form has no empty
    // list): here too short, rather than missing.
    let absent = send(form("weekly=true")(sink.anonymous(Method::POST, "/preferences"))).await;
    absent.assert_error(400, "invalid_body", &["/tags", "minItems"]);
    // Each item, and the object, hold to the schema.
    let bad_hour = send(form("tags=a&tags=b&hours=8&hours=24")(
        sink.anonymous(Method::POST, "/preferences"),
    ))
    .await;
    bad_hour.assert_error(400, "invalid_body", &["/hours/1", "maximum"]);
    let not_a_number = send(form("tags=a&tags=b&hours=eight")(
        sink.anonymous(Method::POST, "/preferences"),
    ))
    .await;
    not_a_number.assert_error(400, "invalid_body", &["`hours`"]);
    let not_json = send(form("tags=a&tags=b&digest=weekly")(
        sink.anonymous(Method::POST, "/preferences"),
    ))
    .await;
    not_json.assert_error(400, "invalid_body", &["/digest"]);
    let too_many = send(form("tags=a&tags=b&tags=c&tags=d")(
        sink.anonymous(Method::POST, "/preferences"),
    ))
    .await;
    too_many.assert_error(400, "invalid_body", &["/tags", "maxItems"]);
    sink.stop().await;
}

/// A body in a media type progenitor has no name for: the client sends
/// the spec's (`image/png`, `application/merge-patch+json`), and the
/// layer reads that one and answers 415 for the name progenitor knows.
#[tokio::test]
async fn a_body_in_a_type_progenitor_does_not_name_travels_as_the_spec_names_it() {
    let sink = Sink::start().await;
    let client = sink.client();
    let (id, _) = support::create_order(&sink, serde_json::json!({"petId": 1, "quantity": 1})).await;
    let order = NonZeroU64::new(id as u64).unwrap();
    let read_signature = || async {
        let mut stream = client.get_signature(order).await.unwrap().into_inner().into_inner();
        let mut read = Vec::new();
        while let Some(chunk) = futures_util::StreamExt::next(&mut stream).await {
            read.extend_from_slice(&chunk.unwrap());
        }
        read
    };
    assert!(read_signature().await.is_empty(), "unsigned: empty");
    // A PNG image, as bytes, sent and read back.
    let png = b"\x89PNG\r\n\x1a\nsignature".to_vec();
    client.sign_order(order, png.clone()).await.unwrap();
    assert_eq!(read_signature().await, png);
    // The handler sees the bytes: not a PNG image is its 400.
    let not_png = client.sign_order(order, b"GIF89a".to_vec()).await.unwrap_err();
    assert_eq!(not_png.status().map(|s| s.as_u16()), Some(400));
    // Another type than the spec's is 415, octet-stream included.
    let as_octets = send(
        sink.request(Method::PUT, &format!("/orders/{id}/signature"))
            .header("content-type", "application/octet-stream")
            .body(png.clone()),
    )
    .await;
    as_octets.assert_error(415, "unsupported_media_type", &["image/png"]);

    // JSON under a `+json` type: the client sends it by its name.
    let preferences: types::Preferences =
        serde_json::from_value(serde_json::json!({"tags": ["news", "pets"]})).unwrap();
    let read = client.patch_preferences(&preferences).await.unwrap().into_inner();
    assert_eq!(read.tags, preferences.tags);
    let as_json = send(
        sink.anonymous(Method::PATCH, "/preferences")
            .header("content-type", "application/json")
            .body(r#"{"tags": ["news", "pets"]}"#),
    )
    .await;
    as_json.assert_error(415, "unsupported_media_type", &["application/merge-patch+json"]);
    sink.stop().await;
}
