//! The 3.1 kitchen sink: the service of `tests/fixtures/kitchen-sink-31.yaml`,
//! an OpenAPI 3.1 document using every 3.1 construct the generator reads,
//! made by `cargo xtask new`. [`api`] is its server contract and
//! [`client`] its progenitor client (both generated: `cargo xtask
//! generate` after a spec change); [`service`] holds its handlers, and
//! [`notify`] sends its webhook and callbacks.

pub mod api;
pub mod client;
pub mod feeds;
pub mod notify;
pub mod service;

/// The runtime the generated server code relies on (as `crate::runtime`).
pub use api_runtime as runtime;

use std::net::SocketAddr;

/// The request body limit.
pub const BODY_LIMIT: usize = 1024 * 1024;

/// The service's endpoints, as `runtime::serving` serves them (it adds
/// `/healthz`, `/readyz` and `/metrics`).
pub fn endpoints() -> Result<dropshot::ApiDescription<service::Service>, String> {
    let mut api = dropshot::ApiDescription::new();
    api::register_endpoints(&mut api, dropshot::ApiEndpointVersions::all)
        .map_err(|e| format!("invalid API description: {e}"))?;
    Ok(api)
}

/// How the service is served, beside its endpoints.
pub fn settings() -> runtime::serving::Settings {
    runtime::serving::Settings {
        body_limit: BODY_LIMIT,
        version_policy: None,
    }
}

/// Starts serving [`service::Service`] on `bind` (port 0 picks a free
/// one), with `key` its bearer key, in this process, for tests: without
/// the signals and the connection reaper of `main`.
pub fn start(
    bind: SocketAddr,
    log: slog::Logger,
    key: String,
) -> Result<dropshot::HttpServer<service::Service>, String> {
    serve(bind, log, service::Service::new(key))
}

/// Starts serving `service` on `bind`, in this process (see [`start`]).
pub fn serve(
    bind: SocketAddr,
    log: slog::Logger,
    service: service::Service,
) -> Result<dropshot::HttpServer<service::Service>, String> {
    let api = api::api_description::<service::Service>().map_err(|e| format!("invalid API description: {e}"))?;
    let config = dropshot::ConfigDropshot {
        bind_address: bind,
        default_request_body_max_bytes: BODY_LIMIT,
        default_handler_task_mode: dropshot::HandlerTaskMode::CancelOnDisconnect,
        ..Default::default()
    };
    dropshot::ServerBuilder::new(api, service, log)
        .config(config)
        .start()
        .map_err(|e| format!("cannot serve on {bind}: {e}"))
}
