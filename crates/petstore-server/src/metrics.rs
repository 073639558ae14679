//! The service's own metrics, beside the request metrics every generated
//! operation records (`runtime::metrics`), in the same registry and served
//! with them at `GET /metrics`:
//!
//! - `petstore_build_info{version, backend}`: always 1;
//! - `process_open_fds`, `process_max_fds`: descriptors open, against the
//!   soft limit (a flood of connections ends there);
//! - `petstore_db_pool_connections`, `petstore_db_pool_idle_connections`:
//!   the database pool's size and how much of it is free.

use petstore_api::runtime;
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::metrics::info::Info;

use crate::storage::sql::SqlStorage;

/// Registers the service's metrics for `storage` (once per process).
pub fn register(storage: &SqlStorage) {
    let mut registry = runtime::metrics::registry().lock().unwrap_or_else(|p| p.into_inner());
    let backend = match storage.backend() {
        crate::storage::backend::Backend::Sqlite => "sqlite",
        crate::storage::backend::Backend::Postgres => "postgres",
    };
    registry.register(
        "petstore_build",
        "The running build",
        Info::new(vec![
            ("version", env!("CARGO_PKG_VERSION").to_string()),
            ("backend", backend.to_string()),
        ]),
    );
    registry.register_collector(Box::new(Descriptors));
    registry.register_collector(Box::new(Pool(storage.pool_handle())));
}

/// One gauge, read at scrape time.
fn gauge(encoder: &mut DescriptorEncoder, name: &str, help: &str, value: i64) -> Result<(), std::fmt::Error> {
    let gauge = ConstGauge::new(value);
    let metric = encoder.encode_descriptor(name, help, None, gauge.metric_type())?;
    gauge.encode(metric)
}

#[derive(Debug)]
struct Descriptors;

impl Collector for Descriptors {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        if let Ok(open) = std::fs::read_dir("/proc/self/fd") {
            gauge(
                &mut encoder,
                "process_open_fds",
                "Open file descriptors",
                open.count() as i64,
            )?;
        }
        if let Ok((soft, _)) = nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE) {
            let soft = i64::try_from(soft).unwrap_or(i64::MAX);
            gauge(&mut encoder, "process_max_fds", "The open-files limit (soft)", soft)?;
        }
        Ok(())
    }
}

/// The pool itself (not the storage: a scrape must not keep the storage's
/// files open past its close).
#[derive(Debug)]
struct Pool(sqlx::AnyPool);

impl Collector for Pool {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let (size, idle) = (self.0.size(), self.0.num_idle());
        gauge(
            &mut encoder,
            "petstore_db_pool_connections",
            "Connections the database pool holds",
            i64::from(size),
        )?;
        gauge(
            &mut encoder,
            "petstore_db_pool_idle_connections",
            "Connections of the pool not in use",
            idle as i64,
        )
    }
}
