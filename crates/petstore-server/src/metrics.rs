//! The service's own metrics, beside the request metrics every generated
//! operation records (`runtime::metrics`), in the same registry and served
//! with them at `GET /metrics`:
//!
//! - `petstore_build_info{version, backend}`: always 1;
//! - `process_open_fds`, `process_max_fds`: descriptors open, against the
//!   soft limit (a flood of connections ends there);
//! - `petstore_db_pool_connections`, `petstore_db_pool_idle_connections`:
//!   the database pool's size and how much of it is free;
//! - `petstore_cache_lookups_total{cache, result}`: v1's list (`hit`,
//!   `patched` by our own cancels, `miss`: read from the database) and v2's
//!   pages (`hit`, `miss`);
//! - `petstore_cancel_batch_size`: how many cancels each commit made durable;
//! - `petstore_db_wait_seconds`: how long a statement waited for a
//!   connection of the pool (a pool too small, or a database that holds
//!   its connections, shows here first);
//! - `petstore_db_statement_seconds{statement}`: each statement's own time
//!   once it had its connection, by a fixed name (`order_page`,
//!   `cancel_batch`, ...; see [`Statement`]).

use std::sync::OnceLock;
use std::time::Instant;

use petstore_api::runtime;
use petstore_api::runtime::metrics::ShardedCounter;
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::family::{Family, MetricConstructor};
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::metrics::info::Info;

use crate::storage::backend::Backend;

/// Registers the service's metrics for a database on `backend` through
/// `pool` (once per process).
pub fn register(backend: Backend, pool: sqlx::AnyPool) {
    let mut registry = runtime::metrics::registry().lock().unwrap_or_else(|p| p.into_inner());
    let backend = match backend {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
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
    registry.register_collector(Box::new(Pool(pool)));
    drop(registry);
    // Scraped from the start, before the first lookup.
    service();
    database();
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

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Lookup {
    cache: &'static str,
    result: &'static str,
}

/// The statements the storage times, each by a fixed name: the label's
/// values are these and no others.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum Statement {
    /// The change counters (read when something was committed since the
    /// last read).
    Changes,
    /// Every order, for v1's list.
    OrdersAll,
    /// One page of orders, for v2.
    OrderPage,
    OrderGet,
    /// The status of an order a change left alone.
    OrderStatus,
    OrderShip,
    /// A batch of cancels, from its transaction's start to its commit
    /// (committed batches only).
    CancelBatch,
    PetGet,
    /// A whole import, in one transaction.
    Import,
    IsEmpty,
    SecretRead,
    SecretInsert,
    KeyCreate,
    KeyRevoke,
    KeysActive,
    KeysList,
    IntegrityCheck,
}

impl Statement {
    fn name(self) -> &'static str {
        match self {
            Statement::Changes => "changes",
            Statement::OrdersAll => "orders_all",
            Statement::OrderPage => "order_page",
            Statement::OrderGet => "order_get",
            Statement::OrderStatus => "order_status",
            Statement::OrderShip => "order_ship",
            Statement::CancelBatch => "cancel_batch",
            Statement::PetGet => "pet_get",
            Statement::Import => "import",
            Statement::IsEmpty => "is_empty",
            Statement::SecretRead => "secret_read",
            Statement::SecretInsert => "secret_insert",
            Statement::KeyCreate => "key_create",
            Statement::KeyRevoke => "key_revoke",
            Statement::KeysActive => "keys_active",
            Statement::KeysList => "keys_list",
            Statement::IntegrityCheck => "integrity_check",
        }
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct StatementLabel {
    statement: &'static str,
}

/// Database time buckets, in seconds: from a counter read (tens of
/// microseconds) to the wait limit (5 s by default) and past it.
#[derive(Clone, Copy)]
struct DatabaseBuckets;

impl MetricConstructor<Histogram> for DatabaseBuckets {
    fn new_metric(&self) -> Histogram {
        Histogram::new([
            0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
            5.0, 10.0,
        ])
    }
}

/// The database's times. Off with the request metrics (`--metrics off`):
/// a statement then reads no clock.
pub struct DatabaseMetrics {
    wait: Histogram,
    statements: Family<StatementLabel, Histogram, DatabaseBuckets>,
    /// The counter read's series, resolved once: the most frequent.
    changes: Histogram,
}

impl DatabaseMetrics {
    /// When timing starts, or `None` while metrics are off.
    pub fn start(&self) -> Option<Instant> {
        runtime::metrics::enabled().then(Instant::now)
    }

    /// A wait for a pool connection that began at `started`.
    pub fn waited(&self, started: Option<Instant>) {
        if let Some(started) = started {
            self.wait.observe(started.elapsed().as_secs_f64());
        }
    }

    /// A run of `statement` that began at `started`.
    pub fn ran(&self, statement: Statement, started: Option<Instant>) {
        let Some(started) = started else { return };
        let seconds = started.elapsed().as_secs_f64();
        match statement {
            Statement::Changes => self.changes.observe(seconds),
            other => self
                .statements
                .get_or_create(&StatementLabel {
                    statement: other.name(),
                })
                .observe(seconds),
        }
    }
}

/// The database's times, registered on first use.
pub fn database() -> &'static DatabaseMetrics {
    static DATABASE: OnceLock<DatabaseMetrics> = OnceLock::new();
    DATABASE.get_or_init(|| {
        let statements = Family::new_with_constructor(DatabaseBuckets);
        let changes = statements
            .get_or_create(&StatementLabel {
                statement: Statement::Changes.name(),
            })
            .clone();
        let metrics = DatabaseMetrics {
            wait: DatabaseBuckets.new_metric(),
            statements,
            changes,
        };
        let mut registry = runtime::metrics::registry().lock().unwrap_or_else(|p| p.into_inner());
        registry.register(
            "petstore_db_wait_seconds",
            "Time a statement waited for a connection of the pool",
            metrics.wait.clone(),
        );
        registry.register(
            "petstore_db_statement_seconds",
            "Time a statement took once it had its connection, by statement",
            metrics.statements.clone(),
        );
        metrics
    })
}

/// The counters the request paths bump, each resolved once: a bump is an
/// atomic add, to a shard of the thread's own.
pub struct ServiceMetrics {
    pub list_hit: ShardedCounter,
    pub list_patched: ShardedCounter,
    pub list_miss: ShardedCounter,
    pub page_hit: ShardedCounter,
    pub page_miss: ShardedCounter,
    pub cancel_batch: Histogram,
}

/// The service's counters, registered on first use.
pub fn service() -> &'static ServiceMetrics {
    static SERVICE: OnceLock<ServiceMetrics> = OnceLock::new();
    SERVICE.get_or_init(|| {
        let lookups = Family::<Lookup, ShardedCounter>::default();
        let lookup = |cache, result| lookups.get_or_create(&Lookup { cache, result }).clone();
        let metrics = ServiceMetrics {
            list_hit: lookup("list", "hit"),
            list_patched: lookup("list", "patched"),
            list_miss: lookup("list", "miss"),
            page_hit: lookup("page", "hit"),
            page_miss: lookup("page", "miss"),
            cancel_batch: Histogram::new([1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0]),
        };
        let mut registry = runtime::metrics::registry().lock().unwrap_or_else(|p| p.into_inner());
        registry.register(
            "petstore_cache_lookups",
            "Lookups of the v1 list and v2 page caches, by result",
            lookups,
        );
        registry.register(
            "petstore_cancel_batch_size",
            "Cancels made durable by one commit",
            metrics.cancel_batch.clone(),
        );
        metrics
    })
}
