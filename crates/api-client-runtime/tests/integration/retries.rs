//! Retries against a real server that fails the first requests, answers
//! 429 with `Retry-After`, or is not there at all.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use api_client_runtime::retries::{Outcome, Retries, execute};
use reqwest::{Method, StatusCode};

use serving_checks::scripted_server::{ScriptedServer, answer};

/// Every attempt as the hook saw it: its outcome, and the wait before the
/// next.
type Seen = Arc<Mutex<Vec<(Outcome, Option<Duration>)>>>;

/// Quick backoff, so that a test waits milliseconds, and every attempt
/// recorded.
fn quick() -> (Retries, Seen) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let retries = Retries::default()
        .backoff(Duration::from_millis(10), Duration::from_millis(40))
        .on_attempt(move |attempt| log.lock().unwrap().push((attempt.outcome, attempt.next_in)));
    (retries, seen)
}

fn request(method: Method, url: &str) -> reqwest::Request {
    reqwest::Request::new(method, format!("{url}/orders").parse().unwrap())
}

async fn send(retries: &Retries, request: reqwest::Request) -> reqwest::Result<reqwest::Response> {
    execute(&reqwest::Client::new(), retries, request, "list_orders", None).await
}

#[tokio::test]
async fn a_get_is_sent_again_until_the_server_recovers() {
    let server = ScriptedServer::start(vec![answer(503), answer(502), answer(200)]);
    let (retries, seen) = quick();
    let response = send(&retries, request(Method::GET, &server.url)).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(server.requests(), 3);
    let seen = seen.lock().unwrap();
    let outcomes: Vec<Outcome> = seen.iter().map(|(outcome, _)| *outcome).collect();
    assert_eq!(
        outcomes,
        [503, 502, 200].map(|s| Outcome::Status(StatusCode::from_u16(s).unwrap()))
    );
    assert!(seen[0].1.is_some() && seen[1].1.is_some() && seen[2].1.is_none());
}

#[tokio::test]
async fn attempts_are_bounded_and_the_last_answer_is_the_callers() {
    let server = ScriptedServer::start(vec![answer(503)]);
    let (retries, seen) = quick();
    let response = send(&retries.attempts(4), request(Method::GET, &server.url))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(server.requests(), 4);
    assert_eq!(seen.lock().unwrap().len(), 4);
}

#[tokio::test]
async fn a_429_is_retried_after_the_seconds_retry_after_asks_for() {
    let server = ScriptedServer::start(vec![answer(429).with_header("retry-after", "1"), answer(200)]);
    let (retries, seen) = quick();
    let started = Instant::now();
    let response = send(&retries, request(Method::GET, &server.url)).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(started.elapsed() >= Duration::from_secs(1), "{:?}", started.elapsed());
    assert_eq!(seen.lock().unwrap()[0].1, Some(Duration::from_secs(1)));
}

#[tokio::test]
async fn retry_after_as_an_http_date_is_honoured() {
    // A date already past: no wait, and the retry happens.
    let past = httpdate::fmt_http_date(std::time::SystemTime::now() - Duration::from_secs(60));
    let server = ScriptedServer::start(vec![answer(503).with_header("retry-after", past), answer(200)]);
    let (retries, seen) = quick();
    let response = send(&retries, request(Method::GET, &server.url)).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(seen.lock().unwrap()[0].1, Some(Duration::ZERO));
}

#[tokio::test]
async fn a_retry_after_past_the_cap_or_the_budget_returns_the_answer() {
    let server = ScriptedServer::start(vec![answer(503).with_header("retry-after", "3600"), answer(200)]);
    let (retries, _) = quick();
    let response = send(&retries, request(Method::GET, &server.url)).await.unwrap();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(server.requests(), 1);

    let server = ScriptedServer::start(vec![answer(503).with_header("retry-after", "2"), answer(200)]);
    let (retries, _) = quick();
    let response = send(
        &retries.budget(Duration::from_secs(1)),
        request(Method::GET, &server.url),
    )
    .await
    .unwrap();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(server.requests(), 1);
}

#[tokio::test]
async fn a_client_error_other_than_408_and_429_is_not_retried() {
    for status in [400, 401, 404, 409, 500] {
        let server = ScriptedServer::start(vec![answer(status), answer(200)]);
        let (retries, _) = quick();
        let response = send(&retries, request(Method::GET, &server.url)).await.unwrap();
        assert_eq!(response.status().as_u16(), status);
        assert_eq!(server.requests(), 1, "{status}");
    }
    let server = ScriptedServer::start(vec![answer(408), answer(504), answer(200)]);
    let (retries, _) = quick();
    let response = send(&retries, request(Method::DELETE, &server.url)).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_post_is_sent_once_unless_it_carries_an_idempotency_key() {
    let with_body = |url: &str| {
        let mut post = request(Method::POST, url);
        *post.body_mut() = Some(r#"{"petId":1}"#.into());
        post
    };
    let server = ScriptedServer::start(vec![answer(503), answer(200)]);
    let (retries, _) = quick();
    let response = send(&retries, with_body(&server.url)).await.unwrap();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(server.requests(), 1);

    let server = ScriptedServer::start(vec![answer(503), answer(200)]);
    let mut keyed = with_body(&server.url);
    keyed
        .headers_mut()
        .insert("idempotency-key", "order-1".parse().unwrap());
    let response = send(&retries, keyed).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    // The body is replayed whole.
    let received = server.received();
    assert_eq!(received.len(), 2);
    assert!(received[1].ends_with(r#"{"petId":1}"#), "{}", received[1]);
}

#[tokio::test]
async fn a_streamed_body_that_cannot_be_replayed_is_sent_once() {
    let server = ScriptedServer::start(vec![answer(503), answer(200)]);
    let (retries, _) = quick();
    let mut put = request(Method::PUT, &server.url);
    let chunks = futures::stream::iter([Ok::<_, std::io::Error>("a streamed body")]);
    *put.body_mut() = Some(reqwest::Body::wrap_stream(chunks));
    let response = send(&retries, put).await.unwrap();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(server.requests(), 1);
}

#[tokio::test]
async fn a_refused_connection_is_tried_again_within_the_attempts() {
    // A port that was just free: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let (retries, seen) = quick();
    let error = send(&retries, request(Method::GET, &format!("http://127.0.0.1:{port}")))
        .await
        .unwrap_err();
    assert!(error.is_connect(), "{error}");
    let outcomes: Vec<Outcome> = seen.lock().unwrap().iter().map(|(outcome, _)| *outcome).collect();
    assert_eq!(outcomes, [Outcome::ConnectFailed; 3]);
}

#[tokio::test]
async fn none_sends_each_request_once() {
    let server = ScriptedServer::start(vec![answer(503), answer(200)]);
    let response = send(&Retries::none(), request(Method::GET, &server.url)).await.unwrap();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(server.requests(), 1);
}

#[tokio::test]
async fn a_deadline_cuts_a_slow_request_short_with_a_timeout_error() {
    let server = ScriptedServer::start(vec![answer(200).after(Duration::from_secs(3))]);
    let (retries, seen) = quick();
    let started = Instant::now();
    let error = send(
        &retries.deadline(Duration::from_millis(300)),
        request(Method::GET, &server.url),
    )
    .await
    .unwrap_err();
    assert!(error.is_timeout(), "{error}");
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    // Timed out, and no time left for another attempt.
    let seen = seen.lock().unwrap();
    assert_eq!(seen.as_slice(), [(Outcome::TimedOut, None)]);
}
