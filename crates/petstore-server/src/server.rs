//! The HTTP server: both versions' generated API descriptions over the
//! service, in one process.

use std::net::SocketAddr;

use dropshot::{ApiDescription, ConfigDropshot, HandlerTaskMode, HttpServer, ServerBuilder, VersionPolicy};
use petstore_api::runtime::VersionByPath;
use slog::Logger;

use crate::service::Service;
use crate::storage::Storage;

/// Every version's endpoints on one description, each answering for its
/// own major: `/v1` (frozen) and `/v2`, and the health and readiness
/// probes and the metrics outside both ([`crate::probes`],
/// `runtime::metrics`). Served with [`version_policy`];
/// `ApiDescription::openapi` given a major's version emits that major's
/// document.
pub fn api_description<S: Storage>() -> anyhow::Result<ApiDescription<Service<S>>> {
    let mut api = api_without_metrics::<S>()?;
    petstore_api::runtime::metrics::register_endpoint(&mut api)
        .map_err(|e| anyhow::anyhow!("cannot serve the metrics: {e}"))?;
    Ok(api)
}

/// [`api_description`] but for `/metrics`, served on an address of its own
/// ([`start_metrics`]).
fn api_without_metrics<S: Storage>() -> anyhow::Result<ApiDescription<Service<S>>> {
    let mut api = ApiDescription::new();
    petstore_api::register_endpoints(&mut api, petstore_api::endpoint_versions)
        .and_then(|()| petstore_api::v2::register_endpoints(&mut api, petstore_api::v2::endpoint_versions))
        .map_err(|e| anyhow::anyhow!("invalid API description: {e}"))?;
    crate::probes::register(&mut api).map_err(|e| anyhow::anyhow!("cannot register the probes: {e}"))?;
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

/// Where `/metrics` is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetricsAt {
    /// Beside the API.
    Here,
    /// On another address ([`start_metrics`]), not beside the API.
    Apart,
}

/// Starts serving on `bind` (port 0 picks a free one; see
/// `HttpServer::local_addr`), `/metrics` included.
pub fn start<S: Storage>(storage: S, bind: SocketAddr, log: Logger) -> anyhow::Result<HttpServer<Service<S>>> {
    start_with(storage, bind, log, MetricsAt::Here)
}

/// [`start`], with `/metrics` beside the API or not.
pub fn start_with<S: Storage>(
    storage: S,
    bind: SocketAddr,
    log: Logger,
    metrics: MetricsAt,
) -> anyhow::Result<HttpServer<Service<S>>> {
    let api = match metrics {
        MetricsAt::Here => api_description::<S>()?,
        MetricsAt::Apart => api_without_metrics::<S>()?,
    };
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

/// `GET /metrics` alone on `bind`, for operators who keep it off the
/// public port (`serve --metrics-bind`).
pub fn start_metrics(bind: SocketAddr, log: Logger) -> anyhow::Result<HttpServer<()>> {
    let mut api = ApiDescription::new();
    petstore_api::runtime::metrics::register_endpoint(&mut api)
        .map_err(|e| anyhow::anyhow!("cannot serve the metrics: {e}"))?;
    let config = ConfigDropshot {
        bind_address: bind,
        ..Default::default()
    };
    ServerBuilder::new(api, (), log)
        .config(config)
        .start()
        .map_err(|e| anyhow::anyhow!("cannot serve the metrics on {bind}: {e}"))
}
