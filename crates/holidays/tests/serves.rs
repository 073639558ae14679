//! The crate `cargo xtask new` made of the Canada Holidays API (a corpus
//! document), built and served on an ephemeral port: before any handler
//! is written, a request to an operation passes the generated layer and
//! answers 501 with the problem object; one the contract does not allow
//! still gets its 400 first.

use serde_json::Value;

async fn get(path: &str) -> (u16, String, Value) {
    let log = slog::Logger::root(slog::Discard, slog::o!());
    let server = holidays::start("127.0.0.1:0".parse().unwrap(), log).unwrap();
    let url = format!("http://{}{path}", server.local_addr());
    let response = reqwest::get(&url).await.unwrap();
    let status = response.status().as_u16();
    let media_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let body = response.json().await.unwrap_or(Value::Null);
    server.close().await.unwrap();
    (status, media_type, body)
}

#[tokio::test]
async fn an_operation_not_written_yet_answers_501_with_the_problem_object() {
    let (status, media_type, body) = get("/api/v1/provinces").await;
    assert_eq!(status, 501);
    assert_eq!(media_type, "application/problem+json");
    assert_eq!(body["status"], 501);
    assert_eq!(body["code"], "not_implemented");
    // A 5xx names the request's id, which its log lines carry.
    let detail = body["detail"].as_str().unwrap_or_default();
    assert!(
        detail.starts_with("Provinces is not implemented yet (request id "),
        "{detail}"
    );
}

#[tokio::test]
async fn the_generated_layer_still_validates_first() {
    // `year` must be an integer from 2016 to 2030.
    let (status, _, body) = get("/api/v1/holidays?year=1900").await;
    assert_eq!(status, 400, "{body}");
}
