//! The dropshot floor: dropshot with the server's configuration (the same
//! defaults, logging at `error`), answering listOrders with the same
//! pre-serialized bytes and cancelOrder with 204, without looking at
//! anything. The gap between it and the limit is dropshot's own cost per
//! request, which no handler can win back.

use bytes::Bytes;
use dropshot::{
    ApiDescription, Body, ConfigDropshot, HandlerTaskMode, HttpError, HttpResponseDeleted, Path, RequestContext,
    ServerBuilder, endpoint,
};
use schemars::JsonSchema;
use serde::Deserialize;

#[endpoint { method = GET, path = "/v1/store/orders" }]
async fn list_orders(rqctx: RequestContext<Bytes>) -> Result<http::Response<Body>, HttpError> {
    Ok(http::Response::builder()
        .header(http::header::CONTENT_TYPE, "application/json")
        .body(Body::from(rqctx.context().clone()))?)
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct OrderPath {
    #[allow(dead_code)]
    order_id: i64,
}

#[endpoint { method = DELETE, path = "/v1/store/orders/{orderId}" }]
async fn cancel_order(_rqctx: RequestContext<Bytes>, _path: Path<OrderPath>) -> Result<HttpResponseDeleted, HttpError> {
    Ok(HttpResponseDeleted())
}

#[tokio::main]
async fn main() {
    let args = petstore_bench::args();
    let body = args.body();
    let mut api = ApiDescription::new();
    api.register(list_orders).expect("listOrders");
    api.register(cancel_order).expect("cancelOrder");
    let log = petstore_bench::error_logger();
    // The cheapest configuration, as our server's: the floor stands for
    // dropshot configured well.
    let config = ConfigDropshot {
        bind_address: args.bind,
        default_handler_task_mode: HandlerTaskMode::CancelOnDisconnect,
        ..Default::default()
    };
    let server = ServerBuilder::new(api, body, log)
        .config(config)
        .start()
        .expect("serving");
    println!("Serving http://{}/v1", server.local_addr());
    server.await.expect("the server");
}
