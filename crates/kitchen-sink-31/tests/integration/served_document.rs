//! The document the service serves is the designer's 3.1 source, not
//! the 3.0 rendering the generator reads: webhooks, `const`, null among
//! the types and all.

use crate::support::Sink31;

#[tokio::test]
async fn the_served_document_is_the_31_source_as_written() {
    let sink = Sink31::start().await;
    let (status, served) = sink.get("/openapi.json").await;
    assert_eq!(status, 200);
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/kitchen-sink-31.yaml"
    ))
    .unwrap();
    let source: serde_json::Value = serde_norway::from_str(&text).unwrap();
    assert_eq!(served, source);
    assert_eq!(served["openapi"], "3.1.0");
    assert!(served["webhooks"]["shapeAdded"].is_object());
    assert_eq!(
        served["components"]["schemas"]["Shape"]["properties"]["note"]["type"],
        serde_json::json!(["string", "null"])
    );
}
