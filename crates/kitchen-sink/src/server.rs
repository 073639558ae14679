//! The kitchen sink served over HTTP: the generated API description over
//! [`Service`], on a port of its own.

use std::net::SocketAddr;

use dropshot::{ConfigDropshot, HandlerTaskMode, HttpServer, ServerBuilder};

use crate::service::Service;

/// The request body limit: large enough for a photo in the tests, small
/// enough that a test can go over it.
pub const BODY_LIMIT: usize = 64 * 1024;

/// The server's configuration (also the benchmark's baseline's, so that
/// the two differ only in the generated layer): the body limit, and a
/// handler whose client hung up is dropped, as the service's.
pub fn config(bind: SocketAddr) -> ConfigDropshot {
    ConfigDropshot {
        bind_address: bind,
        default_request_body_max_bytes: BODY_LIMIT,
        default_handler_task_mode: HandlerTaskMode::CancelOnDisconnect,
        ..Default::default()
    }
}

/// The service's endpoints, as `runtime::serving` serves them (it adds
/// `/healthz`, `/readyz` and `/metrics`).
pub fn endpoints() -> Result<dropshot::ApiDescription<Service>, String> {
    let mut api = dropshot::ApiDescription::new();
    crate::api::register_endpoints(&mut api, dropshot::ApiEndpointVersions::all)
        .map_err(|e| format!("invalid API description: {e}"))?;
    Ok(api)
}

/// How the service is served, beside its endpoints: its body limit.
pub fn settings() -> crate::runtime::serving::Settings {
    crate::runtime::serving::Settings {
        body_limit: BODY_LIMIT,
        version_policy: None,
    }
}

/// Starts serving `service` on `bind` (port 0 picks a free one), in this
/// process, for tests: without the signals and the connection reaper of
/// the `kitchen-sink-server` binary.
pub fn start(service: Service, bind: SocketAddr, log: slog::Logger) -> Result<HttpServer<Service>, String> {
    let api = crate::api::api_description::<Service>().map_err(|e| format!("invalid API description: {e}"))?;
    ServerBuilder::new(api, service, log)
        .config(config(bind))
        .start()
        .map_err(|e| format!("cannot serve on {bind}: {e}"))
}

/// A logger that drops everything (the tests read responses, not logs).
pub fn quiet_logger() -> slog::Logger {
    slog::Logger::root(slog::Discard, slog::o!())
}
