//! What Rust cannot say is validated exactly as the 3.1 document writes
//! it: a tuple's items (`prefixItems`, `items: false`), names by pattern
//! (`patternProperties`), `if`/`then`/`else` with
//! `unevaluatedProperties`, several types, numeric exclusive bounds, a
//! `$ref`'s sibling constraints, `const` tags, and a `$defs` bound. Each
//! bad request gets 400 with the Error object, before any handler runs.

use reqwest::Method;
use serde_json::{Value, json};

use crate::support::Sink31;

async fn status(sink: &Sink31, method: Method, path: &str, body: Value) -> u16 {
    let (status, answer) = sink.send(method, path, body).await;
    if status == 400 {
        assert_eq!(answer["status"], 400, "the Error object: {answer}");
        assert!(answer["message"].is_string(), "{answer}");
    }
    status
}

#[tokio::test]
async fn a_tuple_patterned_names_and_several_types_are_validated_as_written() {
    let sink = Sink31::start().await;
    let point = |value: Value| value;
    let cases = [
        (point(json!({"coords": [1, 2]})), 200),
        (point(json!({"coords": [1, "x"]})), 400),
        (point(json!({"coords": [1, 2, 3]})), 400),
        (point(json!({"coords": [1]})), 400),
        (point(json!({"coords": [1, 2000]})), 400),
        (point(json!({"coords": [1, 2], "labels": {"x-a": "b"}})), 200),
        (point(json!({"coords": [1, 2], "labels": {"y": "b"}})), 400),
        (point(json!({"coords": [1, 2], "labels": {"x-a": 1}})), 400),
        (point(json!({"coords": [1, 2], "tag": "word"})), 200),
        (point(json!({"coords": [1, 2], "tag": 12})), 200),
        (point(json!({"coords": [1, 2], "tag": true})), 400),
        (point(json!({"coords": [1, 2], "tag": "a very long word"})), 400),
        (point(json!({"coords": [1, 2], "origin": 1001})), 400),
        (point(json!({"coords": [1, 2], "other": 1})), 400),
    ];
    for (body, expected) in cases {
        assert_eq!(
            status(&sink, Method::PUT, "/points/p", body.clone()).await,
            expected,
            "{body}"
        );
    }
}

#[tokio::test]
async fn if_then_else_and_unevaluated_properties_are_validated_as_written() {
    let sink = Sink31::start().await;
    let cases = [
        (json!({"kind": "alert", "text": "fire", "level": 5}), 204),
        // `4.0` is an integer to JSON Schema: read as the Rust integer.
        (json!({"kind": "alert", "text": "fire", "level": 4.0}), 204),
        (json!({"kind": "alert", "text": "fire"}), 400),
        (json!({"kind": "note", "text": "hello"}), 204),
        (json!({"kind": "note", "text": "hello", "level": 1}), 400),
        (json!({"kind": "note", "text": "hello", "extra": true}), 400),
    ];
    for (body, expected) in cases {
        assert_eq!(
            status(&sink, Method::POST, "/notes", body.clone()).await,
            expected,
            "{body}"
        );
    }
}

#[tokio::test]
async fn bounds_tags_and_a_references_siblings_are_validated_as_written() {
    let sink = Sink31::start().await;
    let cases = [
        (json!({"kind": "circle", "radius": 1}), 201),
        (json!({"kind": "circle", "radius": 0}), 400),
        (json!({"kind": "square", "side": 1000}), 201),
        (json!({"kind": "triangle", "side": 1}), 400),
        (json!({"kind": "circle", "side": 1}), 400),
        (json!({"kind": "circle", "radius": 1, "label": "twelve chars"}), 201),
        (json!({"kind": "circle", "radius": 1, "label": "thirteen char"}), 400),
        (json!({"kind": "circle", "radius": 1, "label": ""}), 400),
    ];
    for (body, expected) in cases {
        assert_eq!(
            status(&sink, Method::POST, "/shapes", body.clone()).await,
            expected,
            "{body}"
        );
    }
    assert_eq!(sink.get("/shapes?limit=0").await.0, 400);
    assert_eq!(sink.get("/shapes?limit=100").await.0, 200);
    assert_eq!(sink.get("/shapes/0").await.0, 400);
    let anonymous = sink.http.get(format!("{}/shapes", sink.base)).send().await.unwrap();
    assert_eq!(anonymous.status(), 401);
}
