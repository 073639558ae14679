//! The HTTP server: both versions' generated API descriptions over the
//! service, in one process.

use std::net::SocketAddr;

use dropshot::{
    ApiDescription, ConfigDropshot, ConfigLoggingLevel, HandlerTaskMode, HttpServer, ServerBuilder, VersionPolicy,
};
use petstore_api::runtime::VersionByPath;
use slog::{Drain, Logger};

use crate::service::Service;
use crate::storage::Storage;

/// A logger for the server's output on stderr, in dropshot's terminal
/// format. Request logs carry method, path and status, never headers, so
/// keys stay out of them.
///
/// dropshot's `ConfigLogging::to_logger` filters by level after its async
/// drain: every request's "request completed" record is built, queued and
/// handed to the logging thread even at `warn`. Here the filter comes first,
/// so a record below the level costs a comparison and nothing else.
pub fn stderr_logger(level: ConfigLoggingLevel) -> anyhow::Result<Logger> {
    let level = match level {
        ConfigLoggingLevel::Trace => slog::Level::Trace,
        ConfigLoggingLevel::Debug => slog::Level::Debug,
        ConfigLoggingLevel::Info => slog::Level::Info,
        ConfigLoggingLevel::Warn => slog::Level::Warning,
        ConfigLoggingLevel::Error => slog::Level::Error,
        ConfigLoggingLevel::Critical => slog::Level::Critical,
    };
    let format = slog_term::FullFormat::new(slog_term::TermDecorator::new().build())
        .build()
        .fuse();
    let queued = slog_async::Async::new(format).chan_size(1024).build().fuse();
    Ok(Logger::root(slog::LevelFilter::new(queued, level).fuse(), slog::o!()))
}

/// Every version's endpoints on one description, each answering for its
/// own major: `/v1` (frozen) and `/v2`. Served with [`version_policy`];
/// `ApiDescription::openapi` given a major's version emits that major's
/// document.
pub fn api_description<S: Storage>() -> anyhow::Result<ApiDescription<Service<S>>> {
    let mut api = ApiDescription::new();
    petstore_api::register_endpoints(&mut api, petstore_api::endpoint_versions)
        .and_then(|()| petstore_api::v2::register_endpoints(&mut api, petstore_api::v2::endpoint_versions))
        .map_err(|e| anyhow::anyhow!("invalid API description: {e}"))?;
    Ok(api)
}

/// A request's version is the one its path starts with.
pub fn version_policy() -> anyhow::Result<VersionPolicy> {
    let by_path = VersionByPath::new([
        (petstore_api::BASE_PATH, petstore_api::API_VERSION),
        (petstore_api::v2::BASE_PATH, petstore_api::v2::API_VERSION),
    ])
    .map_err(|e| anyhow::anyhow!("invalid API versions: {e}"))?;
    Ok(VersionPolicy::Dynamic(Box::new(by_path)))
}

/// Starts serving on `bind` (port 0 picks a free one; see
/// `HttpServer::local_addr`).
pub fn start<S: Storage>(storage: S, bind: SocketAddr, log: Logger) -> anyhow::Result<HttpServer<Service<S>>> {
    let api = api_description::<S>()?;
    let config = ConfigDropshot {
        bind_address: bind,
        // A handler whose client hung up is dropped rather than run to the
        // end (a spawned task per request is the costlier default). Nothing
        // the service promises needs it to finish: a cancel commits in the
        // cancel queue's own task once queued, the caches and shared reads
        // hand over to the next request when one is dropped, and the
        // in-flight count is a guard. Only the "order cancelled" log line of
        // a client that hung up mid-cancel may be missing.
        default_handler_task_mode: HandlerTaskMode::CancelOnDisconnect,
        ..Default::default()
    };
    let service = Service::new(storage, log.new(slog::o!("component" => "service")));
    ServerBuilder::new(api, service, log)
        .config(config)
        .version_policy(version_policy()?)
        .start()
        .map_err(|e| anyhow::anyhow!("cannot serve on {bind}: {e}"))
}
