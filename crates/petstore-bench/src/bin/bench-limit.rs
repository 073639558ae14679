//! The limit: a minimal hyper server that answers listOrders with the same
//! pre-serialized JSON bytes every time, and cancelOrder with 204, without
//! looking at anything. No service can beat it.

use std::convert::Infallible;

use bytes::Bytes;
use http_body_util::Full;
use hyper::{Method, Request, Response, StatusCode};

#[tokio::main]
async fn main() {
    let args = petstore_bench::args();
    let body = args.body();
    let listener = petstore_bench::listen(args.bind).await;
    loop {
        let (stream, _) = listener.accept().await.expect("accept");
        let body = body.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request: Request<hyper::body::Incoming>| {
                let body = body.clone();
                async move {
                    let response = match *request.method() {
                        Method::DELETE => Response::builder()
                            .status(StatusCode::NO_CONTENT)
                            .body(Full::new(Bytes::new())),
                        _ => Response::builder()
                            .header("content-type", "application/json")
                            .body(Full::new(body)),
                    };
                    Ok::<_, Infallible>(response.expect("a response"))
                }
            });
            let io = hyper_util::rt::TokioIo::new(stream);
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, service)
                .await;
        });
    }
}
