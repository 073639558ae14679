//! What Rust can say, the client and the handlers say in types: a
//! required property that may be null is an `Option` that is written as
//! `null` (not left out), `const` tags are one-value enums, `$defs` are
//! types of their own.

use kitchen_sink_31::client::types;
use serde_json::json;

use crate::support::Sink31;

#[tokio::test]
async fn a_required_property_that_may_be_null_is_sent_as_null_and_read_as_none() {
    let sink = Sink31::start().await;
    let client = sink.client();
    let circle = types::NewShape::Circle(types::Circle {
        kind: types::CircleKind::Circle,
        label: None,
        radius: 2.5,
    });
    let created = client.post_shapes(&circle).await.unwrap().into_inner();
    assert_eq!(created.id.get(), 1);
    assert_eq!(created.note, None);
    // On the wire: present, and null (the schema requires it).
    let (status, raw) = sink.get("/shapes/1").await;
    assert_eq!(status, 200);
    assert_eq!(raw["note"], json!(null));
    assert!(raw.as_object().unwrap().contains_key("note"));
    assert!(!raw.as_object().unwrap().contains_key("owner"), "optional and absent");

    let page = client.get_shapes(None).await.unwrap().into_inner();
    assert_eq!(page.items.len(), 1);
    assert_eq!(page.next, None, "the end: next is null");
    let (_, raw_page) = sink.get("/shapes").await;
    assert_eq!(raw_page["next"], json!(null));
}

#[tokio::test]
async fn pages_follow_next_and_a_missing_shape_is_404() {
    let sink = Sink31::start().await;
    let client = sink.client();
    for side in [1.0, 2.0, 3.0] {
        let square = types::NewShape::Square(types::Square {
            kind: types::SquareKind::Square,
            label: Some("sq".parse().unwrap()),
            side,
        });
        client.post_shapes(&square).await.unwrap();
    }
    let page = client
        .get_shapes(Some(std::num::NonZeroU64::new(2).unwrap()))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(page.items.len(), 2);
    assert_eq!(page.next, Some(3));
    let (status, body) = sink.get("/shapes/9").await;
    assert_eq!(status, 404);
    assert_eq!(body, json!({"missing": 9, "known": [1, 2, 3]}));
}

/// The errors of `GET /shapes/{id}` have different bodies (the Error
/// object, and the 404's own): the client's error is the operation's
/// enum, each status's body typed, status and headers beside it.
#[tokio::test]
async fn errors_of_different_bodies_are_an_enum_of_typed_variants() {
    use kitchen_sink_31::client::Error;
    use kitchen_sink_31::client::responses::GetShapesByIdError;
    let sink = Sink31::start().await;
    let client = sink.client();
    let missing = client
        .get_shapes_by_id(std::num::NonZeroU64::new(9).unwrap())
        .await
        .unwrap_err();
    let Error::ErrorResponse(answer) = missing else {
        panic!("expected the documented 404, got {missing:?}");
    };
    assert_eq!(answer.status().as_u16(), 404);
    match answer.into_inner() {
        GetShapesByIdError::NotFound(body) => assert_eq!((body.missing, body.known), (9, Vec::new())),
        other => panic!("expected 404's body, got {other:?}"),
    }
    let anonymous = sink
        .anonymous_client()
        .get_shapes_by_id(std::num::NonZeroU64::new(1).unwrap())
        .await;
    match anonymous {
        Err(Error::ErrorResponse(answer)) => match answer.into_inner() {
            GetShapesByIdError::Unauthorized(problem) => assert_eq!(problem.status, 401),
            other => panic!("expected 401's Error object, got {other:?}"),
        },
        other => panic!("expected the documented 401, got {other:?}"),
    }
}

#[tokio::test]
async fn a_blob_is_base64_and_a_point_round_trips_through_its_looser_type() {
    let sink = Sink31::start().await;
    let blob = sink
        .client()
        .get_blobs_by_id(&"abc".parse().unwrap())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(blob.data, "YmxvYiBhYmM=");
    let point = json!({"coords": [1.5, -2], "labels": {"x-home": "here"}, "tag": 7, "origin": 0.5});
    let (status, stored) = sink.send(reqwest::Method::PUT, "/points/home", point.clone()).await;
    assert_eq!(status, 200, "{stored}");
    assert_eq!(stored, point);
}
