//! The crate `cargo xtask new` made of the Canada Holidays API (a corpus
//! document), built and served on an ephemeral port: before any handler
//! is written, a request to an operation passes the generated layer and
//! answers 501 with the problem object, naming the request's ids; one
//! the contract does not allow still gets its 400 first.

use serde_json::Value;

async fn get(path: &str) -> (u16, String, Value) {
    let (status, media_type, _, body) = get_with(path, None).await;
    (status, media_type, body)
}

/// `path`, sent with `request_id` as its `X-Request-Id`: the status, the
/// media type, the answer's `x-request-id` and the body.
async fn get_with(path: &str, request_id: Option<&str>) -> (u16, String, String, Value) {
    let log = slog::Logger::root(slog::Discard, slog::o!());
    let server = holidays::start("127.0.0.1:0".parse().unwrap(), log).unwrap();
    let url = format!("http://{}{path}", server.local_addr());
    let mut request = reqwest::Client::new().get(&url);
    if let Some(id) = request_id {
        request = request.header("X-Request-Id", id);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default()
    };
    let (media_type, answered_id) = (header("content-type"), header("x-request-id"));
    let body = response.json().await.unwrap_or(Value::Null);
    server.close().await.unwrap();
    (status, media_type, answered_id, body)
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
async fn a_5xx_names_the_answers_request_id_and_the_one_sent() {
    let (status, _, answered, body) = get_with("/api/v1/provinces", Some("trace-7f3a")).await;
    assert_eq!(status, 501);
    let detail = body["detail"].as_str().unwrap_or_default();
    assert!(
        detail.ends_with(&format!(" (request id {answered}; X-Request-Id trace-7f3a)")),
        "{detail}"
    );
    // One not to keep (a space) is not repeated.
    let (_, _, answered, body) = get_with("/api/v1/provinces", Some("not kept")).await;
    let detail = body["detail"].as_str().unwrap_or_default();
    assert!(detail.ends_with(&format!(" (request id {answered})")), "{detail}");
}

#[tokio::test]
async fn the_generated_layer_still_validates_first() {
    // `year` must be an integer from 2016 to 2030.
    let (status, _, body) = get("/api/v1/holidays?year=1900").await;
    assert_eq!(status, 400, "{body}");
}
