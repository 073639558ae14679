//! The HTTP server: both versions' generated API descriptions over the
//! service, in one process, served as every generated service is
//! (`runtime::serving`).

use std::net::SocketAddr;

use dropshot::{ApiDescription, ConfigDropshot, HandlerTaskMode, HttpServer, ServerBuilder, VersionPolicy};
use petstore_api::runtime::VersionByPath;
use petstore_api::runtime::serving::{Settings, probes};
use slog::Logger;

use crate::service::Service;
use crate::storage::Storage;

/// Every version's endpoints on one description, each answering for its
/// own major: `/v1` (frozen) and `/v2`, and the health and readiness
/// probes and the metrics outside both (`runtime::serving::probes`,
/// `runtime::metrics`). Served with [`version_policy`];
/// `ApiDescription::openapi` given a major's version emits that major's
/// document.
pub fn api_description<S: Storage>() -> anyhow::Result<ApiDescription<Service<S>>> {
    let mut api = endpoints::<S>()?;
    probes::register(&mut api).map_err(|e| anyhow::anyhow!("cannot register the probes: {e}"))?;
    petstore_api::runtime::metrics::register_endpoint(&mut api)
        .map_err(|e| anyhow::anyhow!("cannot serve the metrics: {e}"))?;
    Ok(api)
}

/// Both versions' endpoints, without the probes and `/metrics`, which
/// `runtime::serving::Running` adds.
pub fn endpoints<S: Storage>() -> anyhow::Result<ApiDescription<Service<S>>> {
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

/// What `runtime::serving::Running` serves the Pet Store with: dropshot's
/// default body limit, and the version policy.
pub fn settings() -> anyhow::Result<Settings> {
    Ok(Settings {
        body_limit: ConfigDropshot::default().default_request_body_max_bytes,
        version_policy: Some(version_policy()?),
    })
}

/// Starts serving on `bind` (port 0 picks a free one; see
/// `HttpServer::local_addr`), in this process, for tests: without the
/// signals and the reaper of `serve`.
pub fn start<S: Storage>(storage: S, bind: SocketAddr, log: Logger) -> anyhow::Result<HttpServer<Service<S>>> {
    let config = ConfigDropshot {
        bind_address: bind,
        // As `runtime::serving::Running` serves it.
        default_handler_task_mode: HandlerTaskMode::CancelOnDisconnect,
        ..Default::default()
    };
    let service = Service::new(storage, log.new(slog::o!("component" => "service")));
    ServerBuilder::new(api_description::<S>()?, service, log)
        .config(config)
        .version_policy(version_policy()?)
        .start()
        .map_err(|e| anyhow::anyhow!("cannot serve on {bind}: {e}"))
}
