//! Every generated service serves its request metrics (`runtime::metrics`)
//! at `GET /metrics` without a line of its own: the kitchen sink's count
//! each operation's requests by status class, with its route's template,
//! never a request's ids.

use crate::support::{Sink, create_order};
use serde_json::json;

/// The metrics text, and the value of the series `selector` names.
async fn scrape(sink: &Sink, selector: &str) -> (String, Option<f64>) {
    let root = sink.base_url.trim_end_matches(kitchen_sink::api::BASE_PATH);
    let response = reqwest::get(format!("{root}/metrics")).await.unwrap();
    assert_eq!(response.status(), 200, "open without a key");
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/openmetrics-text")
    );
    let text = response.text().await.unwrap();
    let value = text
        .lines()
        .find_map(|line| line.strip_prefix(selector)?.trim().parse().ok());
    (text, value)
}

#[tokio::test]
async fn each_operations_requests_are_counted_by_status_class() {
    let sink = Sink::start().await;
    let created =
        r#"http_requests_total{operation_id="createOrder",method="POST",path="/v1/orders",status_class="2xx"}"#;
    let missing =
        r#"http_requests_total{operation_id="getOrder",method="GET",path="/v1/orders/{orderId}",status_class="4xx"}"#;
    // One registry per process, shared by the tests' servers: counted from here.
    let (text, before) = scrape(&sink, created).await;
    // Declared before its first request.
    assert!(before.is_some(), "{text}");
    let missing_before = scrape(&sink, missing).await.1.unwrap_or(0.0);

    for pet in 1..=3 {
        create_order(&sink, json!({"petId": pet, "quantity": 1})).await;
    }
    let absent = sink
        .request(reqwest::Method::GET, "/orders/987654")
        .send()
        .await
        .unwrap();
    assert_eq!(absent.status(), 404);

    let (text, after) = scrape(&sink, created).await;
    assert!(after.unwrap() >= before.unwrap() + 3.0, "{text}");
    assert!(scrape(&sink, missing).await.1.unwrap() >= missing_before + 1.0);
    assert!(
        text.contains("# TYPE http_request_duration_seconds histogram"),
        "{text}"
    );
    assert!(!text.contains("987654"), "a request's id in a label: {text}");
    sink.stop().await;
}
