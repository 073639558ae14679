//! The kitchen sink's `quoteOrder` on dropshot's `TypedBody` alone: the
//! same Rust types (typify's, from the spec), the same server
//! configuration and the same answer as the generated endpoint, without
//! the generated layer's reading and checking of the body against the
//! spec. `cargo xtask bench` compares the two to price that checking.

use dropshot::{ApiDescription, HttpError, HttpResponseOk, RequestContext, ServerBuilder, TypedBody, endpoint};
use kitchen_sink::api::types;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The body as serde reads it, unchecked (typify's types carry no schema
/// for dropshot to document; this one claims nothing).
#[derive(Deserialize)]
#[serde(transparent)]
struct Unchecked(types::NewOrder);

impl JsonSchema for Unchecked {
    fn schema_name() -> String {
        "NewOrder".into()
    }

    fn json_schema(_: &mut schemars::r#gen::SchemaGenerator) -> schemars::schema::Schema {
        schemars::schema::Schema::Bool(true)
    }
}

#[derive(Serialize, JsonSchema)]
struct Quote {
    total: f64,
}

#[endpoint { method = POST, path = "/v1/quotes" }]
async fn quote_order(
    _rqctx: RequestContext<()>,
    body: TypedBody<Unchecked>,
) -> Result<HttpResponseOk<Quote>, HttpError> {
    Ok(HttpResponseOk(Quote {
        total: kitchen_sink::service::price(&body.into_inner().0, false),
    }))
}

#[tokio::main]
async fn main() {
    let args = petstore_bench::args();
    let mut api = ApiDescription::new();
    api.register(quote_order).expect("quoteOrder");
    let server = ServerBuilder::new(api, (), kitchen_sink::server::quiet_logger())
        .config(kitchen_sink::server::config(args.bind))
        .start()
        .expect("serving");
    println!("Serving http://{}/v1", server.local_addr());
    server.await.expect("the server");
}
