//! What a request's tracing span costs a consumer who installs no
//! subscriber (issue 48: "pays nothing measurable"), against what the
//! request itself costs: the span as every generated client's `exec` hook
//! opens it (`request_span`, entered around the send, an attempt
//! recorded), timed over many iterations; and a request over loopback to
//! a local HTTP/1.1 server with a kept-alive connection, the cheapest a
//! real request gets. Prints figures; asserts nothing (`cargo bench -p
//! api-client-runtime --bench spans`, release).

use std::time::{Duration, Instant};

use api_client_runtime::spans::{Route, request_span};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tracing::Instrument;

const SPANS: u32 = 2_000_000;
const REQUESTS: u32 = 5_000;

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let route = Some(Route {
        operation_id: "listOrders",
        path: "/store/orders",
    });
    // The span alone: made, entered around a future, an attempt recorded.
    let span_cost = runtime.block_on(async {
        let started = Instant::now();
        for _ in 0..SPANS {
            let span = request_span("list_orders", route, &reqwest::Method::GET);
            let answer = async { std::hint::black_box(200u16) }.instrument(span.clone()).await;
            if !span.is_disabled() {
                span.record("http.response.status_code", answer);
            }
        }
        started.elapsed() / SPANS
    });
    // The same loop without the span: what the loop itself costs.
    let bare = runtime.block_on(async {
        let started = Instant::now();
        for _ in 0..SPANS {
            std::hint::black_box(async { std::hint::black_box(200u16) }.await);
        }
        started.elapsed() / SPANS
    });
    let request = runtime.block_on(requests_over_loopback());
    let span = span_cost.saturating_sub(bare);
    println!(
        "a disabled request span (no subscriber): {} ns a request ({SPANS} iterations)",
        span.as_nanos()
    );
    println!(
        "a request over loopback, kept alive: {:.1} µs ({REQUESTS} requests)",
        request.as_secs_f64() * 1e6
    );
    println!(
        "the span's share of the cheapest request: {:.4} %",
        span.as_secs_f64() / request.as_secs_f64() * 100.0
    );
}

/// The mean time of a GET answered by a minimal server on loopback.
async fn requests_over_loopback() -> Duration {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/store/orders", listener.local_addr().unwrap());
    tokio::spawn(async move {
        loop {
            let (mut socket, _) = listener.accept().await.unwrap();
            tokio::spawn(async move {
                let mut buffer = vec![0u8; 4096];
                let answer = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-type: application/json\r\n\r\n[]";
                // One request per read: the client sends one at a time.
                while socket.read(&mut buffer).await.is_ok_and(|n| n > 0) {
                    if socket.write_all(answer).await.is_err() {
                        break;
                    }
                }
            });
        }
    });
    let client = reqwest::Client::new();
    for _ in 0..100 {
        client.get(&url).send().await.unwrap().bytes().await.unwrap();
    }
    let started = Instant::now();
    for _ in 0..REQUESTS {
        client.get(&url).send().await.unwrap().bytes().await.unwrap();
    }
    started.elapsed() / REQUESTS
}
