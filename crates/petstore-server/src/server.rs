//! The HTTP server: the generated API description over the service.

use std::net::SocketAddr;

use dropshot::{ConfigDropshot, ConfigLogging, ConfigLoggingLevel, HttpServer, ServerBuilder};
use slog::Logger;

use crate::service::Service;
use crate::storage::Storage;

/// A logger for the server's output on stderr. Request logs carry method,
/// path and status, never headers, so keys stay out of them.
pub fn stderr_logger(level: ConfigLoggingLevel) -> anyhow::Result<Logger> {
    ConfigLogging::StderrTerminal { level }
        .to_logger("petstore-server")
        .map_err(|e| anyhow::anyhow!("cannot set up logging: {e}"))
}

/// Starts serving on `bind` (port 0 picks a free one; see
/// `HttpServer::local_addr`).
pub fn start<S: Storage>(storage: S, bind: SocketAddr, log: Logger) -> anyhow::Result<HttpServer<Service<S>>> {
    let api =
        petstore_api::api_description::<Service<S>>().map_err(|e| anyhow::anyhow!("invalid API description: {e}"))?;
    let config = ConfigDropshot {
        bind_address: bind,
        ..Default::default()
    };
    let service = Service::new(storage, log.new(slog::o!("component" => "service")));
    ServerBuilder::new(api, service, log)
        .config(config)
        .start()
        .map_err(|e| anyhow::anyhow!("cannot serve on {bind}: {e}"))
}
