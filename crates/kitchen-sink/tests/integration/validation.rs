//! Every constraint the kitchen sink's spec puts on an input, broken once
//! over HTTP: each gets 400 with the Error object, whose message names the
//! parameter (or the body's JSON pointer) and the rule broken. The same
//! requests without a key get 401 first.

use crate::support::{Sink, create_order, send};
use reqwest::Method;
use serde_json::json;

use crate::broken_bodies::body_cases;
use crate::broken_parameters::parameter_cases;
use crate::broken_rules::Case;

fn cases(order: i64, etag: &str) -> Vec<Case> {
    let mut cases = parameter_cases(order);
    cases.extend(body_cases(order, etag));
    cases
}

fn build(sink: &Sink, case: &Case, with_key: bool) -> reqwest::RequestBuilder {
    let mut request = match with_key {
        true => sink.request(case.method.clone(), &case.path),
        false => sink.anonymous(case.method.clone(), &case.path),
    };
    for (name, value) in &case.headers {
        request = request.header(*name, value);
    }
    if let Some((media_type, bytes)) = &case.body {
        request = request.header("content-type", *media_type).body(bytes.clone());
    }
    request
}

#[tokio::test]
async fn every_broken_rule_gets_400_naming_the_input_and_the_rule() {
    let sink = Sink::start().await;
    let (order, etag) = create_order(&sink, json!({"petId": 1, "quantity": 1})).await;
    let cases = cases(order, &etag);
    assert!(cases.len() > 70, "{}", cases.len());
    for case in &cases {
        let answer = send(build(&sink, case, true)).await;
        assert_eq!(answer.status, case.status, "{}: {}", case.what, answer.body);
        answer.assert_error(case.status, case.code, &case.message);
    }
    // Nothing broken reached a handler: the order is as it was.
    let read = send(sink.request(Method::GET, &format!("/orders/{order}"))).await;
    assert_eq!(
        (read.body["quantity"].as_i64(), read.header("etag")),
        (Some(1), Some(etag.as_str()))
    );
    sink.stop().await;
}

#[tokio::test]
async fn a_missing_key_gets_401_before_any_400() {
    let sink = Sink::start().await;
    let (order, etag) = create_order(&sink, json!({"petId": 1, "quantity": 1})).await;
    for case in cases(order, &etag)
        .iter()
        .filter(|c| !c.path.starts_with("/newsletter"))
    {
        let answer = send(build(&sink, case, false)).await;
        answer.assert_error(401, "unauthorized", &[]);
        assert!(answer.header("www-authenticate").is_some(), "{}", case.what);
    }
    sink.stop().await;
}

#[tokio::test]
async fn valid_edge_values_are_accepted() {
    let sink = Sink::start().await;
    let accepted = [
        "/orders?limit=1",
        "/orders?limit=1000",
        "/orders?minTotal=0.0001",
        "/orders?maxWeight=1000",
        "/orders?ids=1,2,3,4,5,6,7,8,9,10",
        "/orders?tag=a&tag=b&tag=c&tag=d&tag=e",
        "/orders?since=2026-01-01T00:00:00%2B05:30",
        "/orders?deliverBy=2024-02-29",
    ];
    for path in accepted {
        let answer = send(sink.request(Method::GET, path)).await;
        assert_eq!(answer.status, 200, "{path}: {}", answer.body);
    }
    let edges = json!({"petId": 1, "quantity": 100, "discount": 0.999, "weightKg": 0.001, "note": null, "tags": []});
    let answer = send(sink.request(Method::POST, "/orders").json(&edges)).await;
    assert_eq!(answer.status, 201, "{}", answer.body);
    // A media type's parameters and the `+json` suffix.
    let suffixed = send(
        sink.request(Method::POST, "/orders")
            .header("content-type", "application/vnd.sink+json; charset=UTF-8")
            .body(r#"{"petId": 2, "quantity": 1}"#),
    )
    .await;
    assert_eq!(suffixed.status, 201, "{}", suffixed.body);
    sink.stop().await;
}
