//! Request metrics for every generated operation, in Prometheus' text
//! format: the generated layer times each request it answers and records
//! it here by its operation's table, so every service generated from a
//! spec has them without a line of its own.
//!
//! - `http_requests_total{operation_id, method, path, status_class}`: the
//!   requests answered, by operation and status class (`2xx` ... `5xx`);
//! - `http_request_duration_seconds{operation_id, method, path}`: how long
//!   the answer took, from the layer's first step (authentication) to the
//!   reply (a histogram).
//!
//! Labels stay bounded: `path` is the route's template
//! (`/v1/store/orders/{orderId}`), never a request's path with its ids.
//!
//! The metrics live in one registry per process ([`registry`]), where a
//! service adds its own; [`register_endpoint`] serves it at `GET /metrics`
//! (hidden from the documents, without a key, like the probes).

pub(crate) mod series;
mod sharded;

pub use series::OperationSeries;
use series::Series;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use dropshot::{ApiDescription, ApiEndpoint, ApiEndpointVersions, Body, HttpError, RequestContext, ServerContext};
use http::{Method, Response, StatusCode};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::family::{Family, MetricConstructor};
use prometheus_client::registry::Registry;
pub use sharded::ShardedCounter;
use sharded::ShardedHistogram;

use crate::contract::Operation;
use crate::not_allowed::ApiDescriptionError;

/// The operation a request was for.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OperationLabels {
    operation_id: &'static str,
    method: &'static str,
    path: &'static str,
}

/// The operation, and the class of the status it was answered with.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    operation_id: &'static str,
    method: &'static str,
    path: &'static str,
    status_class: &'static str,
}

/// Latency buckets, in seconds: from a cached answer (well under 1 ms) to
/// a database wait at its limit (5 s by default).
#[derive(Clone, Copy)]
struct LatencyBuckets;

impl MetricConstructor<ShardedHistogram> for LatencyBuckets {
    fn new_metric(&self) -> ShardedHistogram {
        ShardedHistogram::new(&[
            0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
        ])
    }
}

struct RequestMetrics {
    requests: Family<RequestLabels, ShardedCounter>,
    latency: Family<OperationLabels, ShardedHistogram, LatencyBuckets>,
}

fn request_metrics() -> &'static RequestMetrics {
    static METRICS: OnceLock<RequestMetrics> = OnceLock::new();
    METRICS.get_or_init(|| {
        let metrics = RequestMetrics {
            requests: Family::default(),
            latency: Family::new_with_constructor(LatencyBuckets),
        };
        let mut registry = registry().lock().unwrap_or_else(|p| p.into_inner());
        registry.register(
            "http_requests",
            "Requests answered by the generated layer, by operation and status class",
            metrics.requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "Time from the generated layer's first step to its reply, by operation",
            metrics.latency.clone(),
        );
        metrics
    })
}

/// The process's registry: the request metrics, and whatever the service
/// registers beside them.
pub fn registry() -> &'static Mutex<Registry> {
    static REGISTRY: OnceLock<Mutex<Registry>> = OnceLock::new();
    REGISTRY.get_or_init(|| Mutex::new(Registry::default()))
}

static ENABLED: AtomicBool = AtomicBool::new(true);

/// Turns the request metrics on or off (on by default). Off, a request
/// costs one load of a flag.
pub fn set_enabled(enabled: bool) {
    ENABLED.store(enabled, Ordering::Relaxed);
}

pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

const STATUS_CLASSES: [&str; 5] = ["1xx", "2xx", "3xx", "4xx", "5xx"];

/// `status`'s class, as an index into [`STATUS_CLASSES`].
fn status_class(status: StatusCode) -> usize {
    match status.as_u16() {
        100..=199 => 0,
        200..=299 => 1,
        300..=399 => 2,
        400..=499 => 3,
        _ => 4,
    }
}

impl Series {
    fn of(operation: &'static Operation) -> &'static Series {
        operation.metrics.0.get_or_init(|| Series {
            latency: request_metrics()
                .latency
                .get_or_create(&OperationLabels {
                    operation_id: operation.id,
                    method: operation.method,
                    path: operation.path,
                })
                .clone(),
            requests: Default::default(),
        })
    }

    fn requests(&self, operation: &'static Operation, class: usize) -> &ShardedCounter {
        self.requests[class].get_or_init(|| {
            request_metrics()
                .requests
                .get_or_create(&RequestLabels {
                    operation_id: operation.id,
                    method: operation.method,
                    path: operation.path,
                    status_class: STATUS_CLASSES[class],
                })
                .clone()
        })
    }
}

/// Records one answered request: called by the generated layer.
pub fn observe(operation: &'static Operation, status: StatusCode, elapsed: Duration) {
    if !enabled() {
        return;
    }
    let series = Series::of(operation);
    series.latency.observe(elapsed);
    series.requests(operation, status_class(status)).inc();
}

/// Declares `operations`, so that each one's latency and its `2xx` count
/// are scraped (as zero) before its first request: a rate over a series
/// that appears late misses its first requests.
pub fn declare(operations: &[&'static Operation]) {
    for operation in operations {
        Series::of(operation).requests(operation, status_class(StatusCode::OK));
    }
}

/// The registry in Prometheus' text format (OpenMetrics).
pub fn encode() -> String {
    request_metrics();
    let registry = registry().lock().unwrap_or_else(|p| p.into_inner());
    let mut text = String::new();
    // Writing to a String cannot fail; a collector's error leaves its part out.
    let _ = prometheus_client::encoding::text::encode(&mut text, &registry);
    text
}

/// The path [`register_endpoint`] serves the metrics at.
pub const METRICS_PATH: &str = "/metrics";

/// Serves [`encode`] at `GET /metrics`, hidden from the documents.
pub fn register_endpoint<C: ServerContext>(api: &mut ApiDescription<C>) -> Result<(), ApiDescriptionError> {
    let endpoint = ApiEndpoint::new(
        "metrics".into(),
        metrics_endpoint::<C>,
        Method::GET,
        "application/json",
        METRICS_PATH,
        ApiEndpointVersions::All,
    );
    api.register(endpoint.visible(false))
        .map_err(|e| ApiDescriptionError(format!("GET {METRICS_PATH}: {e}")))
}

async fn metrics_endpoint<C: ServerContext>(_: RequestContext<C>) -> Result<Response<Body>, HttpError> {
    Ok(Response::builder()
        .status(StatusCode::OK)
        .header(
            http::header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )
        .body(Body::from(encode()))
        .expect("a valid response"))
}
