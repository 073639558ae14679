//! `serve`: the server on its address, with probes, metrics, the reaper,
//! and a bounded shutdown after a drain.

use std::net::SocketAddr;
use std::time::Duration;

use dropshot::{ConfigLoggingLevel, HttpServer};
use slog::Logger;

use super::arguments::Database;
use super::database::{open, redact};
use crate::connection_reaper::ReaperLimits;
use crate::logging::LogFormat;
use crate::service::Service;
use crate::shutdown::StopSignals;
use crate::storage::{Storage, StorageError};
use crate::{connection_reaper, demo, keys, logging, process_limits, server, shutdown};

/// The drain period: `/readyz` answers 503 while everything else is
/// served as before, until `period` has passed or another signal comes.
pub(super) async fn drain<S: Storage>(
    server: &HttpServer<Service<S>>,
    period: Duration,
    stop: &mut StopSignals,
    log: &Logger,
) {
    server.app_private().start_draining();
    slog::info!(log, "draining: /readyz answers 503 until the shutdown starts";
        "seconds" => period.as_secs_f64());
    tokio::select! {
        () = tokio::time::sleep(period) => {}
        signal = stop.next(log) => slog::info!(log, "drain ended early"; "signal" => signal),
    }
}

/// `serve`'s options, apart from the database.
pub(super) struct ServeOptions {
    pub(super) bind: SocketAddr,
    pub(super) demo: bool,
    pub(super) create_database: bool,
    pub(super) log_level: String,
    pub(super) log_format: LogFormat,
    /// Whether requests and statements are counted and timed
    /// (`runtime::metrics`, `crate::metrics::database`).
    pub(super) metrics: bool,
    /// Where `/metrics` is served apart from the API, if it is.
    pub(super) metrics_bind: Option<SocketAddr>,
    pub(super) shutdown_timeout: Duration,
    /// How long `/readyz` answers 503 after SIGTERM before the shutdown.
    pub(super) drain: Duration,
    /// `None`: connections are never closed for holding a descriptor idle.
    pub(super) reaper: Option<ReaperLimits>,
}

pub(super) async fn serve(db: &Database, options: &ServeOptions) -> anyhow::Result<()> {
    let level = match options.log_level.as_str() {
        "trace" => ConfigLoggingLevel::Trace,
        "debug" => ConfigLoggingLevel::Debug,
        "warn" => ConfigLoggingLevel::Warn,
        "error" => ConfigLoggingLevel::Error,
        _ => ConfigLoggingLevel::Info,
    };
    let log = logging::stderr_logger(level, options.log_format)?;
    match process_limits::raise_open_files_limit() {
        Ok((soft, hard)) => slog::info!(log, "open files limit"; "soft" => soft, "hard" => hard),
        Err(e) => slog::warn!(log, "cannot read or raise the open files limit"; "error" => %e),
    }
    let storage = open(db, options.demo || options.create_database, &log).await?;
    if options.demo && storage.is_empty().await? {
        storage
            .import(&demo::data())
            .await
            .map_err(|e: StorageError| anyhow::anyhow!("seeding demo data: {e}"))?;
    }
    petstore_api::runtime::metrics::set_enabled(options.metrics);
    crate::metrics::register(storage.backend(), storage.pool_handle());
    let demo_key = match options.demo {
        true => Some(keys::issue(&storage, "demo").await?.1),
        false => None,
    };
    let metrics_server = options
        .metrics_bind
        .map(|bind| server::start_metrics(bind, log.new(slog::o!("component" => "metrics"))))
        .transpose()?;
    let metrics_at = match metrics_server {
        Some(_) => server::MetricsAt::Apart,
        None => server::MetricsAt::Here,
    };
    let server = server::start_with(storage.clone(), options.bind, log.clone(), metrics_at)?;
    let listener = shutdown::ListeningSocket::find(server.local_addr());
    if let Some(limits) = options.reaper {
        connection_reaper::start(server.local_addr(), limits, log.clone());
    }
    let in_flight = server.app_private().in_flight().clone();
    let base = format!("http://{}{}", server.local_addr(), petstore_api::BASE_PATH);
    slog::info!(log, "serving"; "base_url" => &base);
    let v2_base = format!("http://{}{}", server.local_addr(), petstore_api::v2::BASE_PATH);
    // The first line of stdout says where to reach the service (port 0
    // picks a free port, so scripts and tests read it from here); the
    // second, version 2. Whoever reads them may close the pipe after the
    // first line: the lines go in one write, and a closed stdout does not
    // stop the service.
    let mut stop = shutdown::StopSignals::install(&log);
    let mut announcement = format!("Serving {base}\nServing {v2_base}\n");
    if let Some(metrics) = &metrics_server {
        announcement.push_str(&format!("Metrics at http://{}/metrics\n", metrics.local_addr()));
    }
    if let Some(key) = demo_key {
        announcement.push_str(&format!(
            "Demo data is in {}. A new API key (shown once; `keys revoke` ends it):\n\n  {key}\n\n",
            redact(&db.database)
        ));
        announcement.push_str(&format!(
            "Try:\n\n  curl -H 'Authorization: Bearer {key}' {base}/store/orders\n\n"
        ));
        announcement.push_str(&format!(
            "  curl -X DELETE -H 'Authorization: Bearer {key}' {base}/store/orders/1\n\n"
        ));
        announcement.push_str(&format!(
            "  curl -H 'Authorization: Bearer {key}' '{v2_base}/store/orders?limit=2&status=pending'\n\n"
        ));
    }
    {
        use std::io::Write as _;
        let mut stdout = std::io::stdout().lock();
        let _ = stdout.write_all(announcement.as_bytes()).and_then(|()| stdout.flush());
    }
    // Borrowing `server` ends with the select, so it can be closed after.
    let signal = tokio::select! {
        result = server.wait_for_shutdown() => {
            result.map_err(|e| anyhow::anyhow!("server failed: {e}"))?;
            None
        }
        signal = stop.next(&log) => Some(signal),
    };
    // Without a signal (the server failed), the database still gets the
    // usual time to close.
    let mut deadline = tokio::time::Instant::now() + options.shutdown_timeout;
    if let Some(signal) = signal {
        if signal == "SIGTERM" && !options.drain.is_zero() {
            drain(&server, options.drain, &mut stop, &log).await;
        }
        // The shutdown's deadline starts after the drain.
        deadline = tokio::time::Instant::now() + options.shutdown_timeout;
        slog::info!(log, "shutting down"; "signal" => signal);
        shutdown::stop_serving(server.close(), listener.as_ref(), &in_flight, deadline, &log).await;
    }
    if let Some(metrics) = metrics_server
        && let Err(e) = metrics.close().await
    {
        slog::warn!(log, "the metrics server did not close cleanly"; "error" => e);
    }
    // Closing the database waits for connections still in use (a request
    // past the deadline, blocked on a lock): bounded by the same deadline,
    // with a moment for the WAL's checkpoint however late it is.
    deadline = deadline.max(tokio::time::Instant::now() + Duration::from_millis(500));
    if tokio::time::timeout_at(deadline, storage.close()).await.is_err() {
        slog::warn!(
            log,
            "the database did not close before the deadline; its data is committed already"
        );
    }
    slog::info!(log, "stopped");
    Ok(())
}
