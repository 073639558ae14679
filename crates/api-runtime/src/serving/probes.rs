//! Health and readiness, for a load balancer or an orchestrator: outside
//! the versioned contract (like `<base>/openapi.json`), without a key,
//! hidden from the OpenAPI documents, and their requests logged only at
//! `--log-level debug` ([`super::logging`]).
//!
//! - `GET /healthz`: 200 while the process serves HTTP at all.
//! - `GET /readyz`: 200 when the service's readiness ([`super::Serving::ready_when`]:
//!   the Pet Store's is its database answering, and accepting writes
//!   where the storage can tell) says so within [`READY_WITHIN`]; 503
//!   otherwise, and from the start of a drain period (`--drain-seconds`).
//!
//! Both answer `{"status": ...}` (and `"reason"` when not ready), as JSON.

use std::time::Duration;

use dropshot::{ApiDescription, ApiEndpoint, ApiEndpointVersions, Body, HttpError, RequestContext};
use http::{Method, Response, StatusCode};

use super::state::Served;

pub const HEALTHZ: &str = "/healthz";
pub const READYZ: &str = "/readyz";

/// The probes' paths, whose requests are logged only at `--log-level debug` or `trace`.
pub const PROBE_PATHS: [&str; 2] = [HEALTHZ, READYZ];

/// The longest `/readyz` waits for the database: a probe that waits longer
/// than a balancer's own timeout tells it nothing.
pub const READY_WITHIN: Duration = Duration::from_secs(1);

/// Registers both probes on `api` (hidden: not in any version's document).
pub fn register<C: Served>(api: &mut ApiDescription<C>) -> Result<(), String> {
    let json = "application/json";
    let healthz = ApiEndpoint::new(
        "healthz".into(),
        healthz::<C>,
        Method::GET,
        json,
        HEALTHZ,
        ApiEndpointVersions::All,
    );
    let readyz = ApiEndpoint::new(
        "readyz".into(),
        readyz::<C>,
        Method::GET,
        json,
        READYZ,
        ApiEndpointVersions::All,
    );
    for endpoint in [healthz, readyz] {
        api.register(endpoint.visible(false)).map_err(|e| e.to_string())?;
    }
    Ok(())
}

async fn healthz<C: Served>(_: RequestContext<C>) -> Result<Response<Body>, HttpError> {
    Ok(answer(StatusCode::OK, serde_json::json!({"status": "ok"})))
}

async fn readyz<C: Served>(rqctx: RequestContext<C>) -> Result<Response<Body>, HttpError> {
    let not_ready = |reason: String| {
        answer(
            StatusCode::SERVICE_UNAVAILABLE,
            serde_json::json!({"status": "unavailable", "reason": reason}),
        )
    };
    let Some(serving) = rqctx.context().serving() else {
        return Ok(answer(StatusCode::OK, serde_json::json!({"status": "ok"})));
    };
    if serving.is_draining() {
        return Ok(not_ready("draining: the service is stopping".into()));
    }
    Ok(match tokio::time::timeout(READY_WITHIN, serving.ready()).await {
        Ok(Ok(())) => answer(StatusCode::OK, serde_json::json!({"status": "ok"})),
        Ok(Err(reason)) => not_ready(reason),
        Err(_) => not_ready(format!(
            "not ready: did not answer within {} ms",
            READY_WITHIN.as_millis()
        )),
    })
}

fn answer(status: StatusCode, body: serde_json::Value) -> Response<Body> {
    Response::builder()
        .status(status)
        .header(http::header::CONTENT_TYPE, "application/json")
        .header(http::header::CACHE_CONTROL, "no-store")
        .body(Body::from(body.to_string()))
        .expect("a valid response")
}
