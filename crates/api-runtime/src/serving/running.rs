//! A service served as a process, the same way for every service: its
//! endpoints with the probes and `/metrics`, the connection reaper, the
//! signals, a drain, and a shutdown bounded by a deadline.
//!
//! A service's `main` reads [`ServeOptions`] (flattened into its own
//! arguments), builds its logger with [`ServeOptions::logger`], starts
//! with [`Running::start`], says where it listens, and waits in
//! [`Running::until_stopped`]; whatever it must close (a database) it
//! closes after, by the deadline that returns.

use std::net::SocketAddr;
use std::time::Duration;

use dropshot::{ApiDescription, ConfigDropshot, HandlerTaskMode, HttpServer, ServerBuilder, VersionPolicy};
use slog::Logger;
use tokio::time::Instant;

use super::connection_reaper;
use super::logging::{self, ServiceLog};
use super::options::{ServeOptions, Switch};
use super::origins::Cors;
use super::probes;
use super::process_limits;
use super::shutdown::{ListeningSocket, StopSignals, stop_serving};
use super::state::Served;

/// What differs between services, beside their endpoints.
pub struct Settings {
    /// The largest request body accepted (413 beyond).
    pub body_limit: usize,
    /// How a request's version is told, for a server of several majors
    /// (`runtime::VersionByPath`); `None` for one.
    pub version_policy: Option<VersionPolicy>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            body_limit: 1024 * 1024,
            version_policy: None,
        }
    }
}

/// A service being served; see the module's documentation.
pub struct Running<C: Served> {
    server: HttpServer<C>,
    metrics: Option<HttpServer<()>>,
    listener: Option<ListeningSocket>,
    signals: StopSignals,
    options: ServeOptions,
    log: Logger,
}

impl ServeOptions {
    /// The log on stderr that `--log-level` and `--log-format` ask for: its
    /// logger, where the generated layer writes request lines, and, when
    /// dropped, the flush of what is buffered (hold it until the service
    /// stops).
    pub fn logger(&self) -> Result<ServiceLog, String> {
        logging::stderr_logger(self.level(), self.log_format).map_err(|e| format!("cannot log: {e}"))
    }
}

impl<C: Served> Running<C> {
    /// Serves `service` by `api` (its endpoints, without `/metrics`:
    /// the generated `register_endpoints`), with the probes and, beside
    /// them or on `--metrics-bind`, `/metrics`. The signals are caught
    /// from here on: a SIGTERM sent as soon as the address is printed is
    /// a graceful stop.
    pub fn start(
        options: &ServeOptions,
        service: C,
        mut api: ApiDescription<C>,
        settings: Settings,
        service_log: &ServiceLog,
    ) -> Result<Running<C>, String> {
        let log = service_log.logger.clone();
        let Some(serving) = service.serving() else {
            return Err("the service gives no `runtime::serving::Serving` (`Served::serving`): \
                 its requests could not be waited for at shutdown"
                .into());
        };
        if let Some(lines) = service_log.request_lines() {
            serving.write_request_lines(lines);
        }
        if let Some(cors) = Cors::from_options(&options.cors_origins)? {
            serving.allow_origins(cors)?;
        }
        match process_limits::raise_open_files_limit() {
            Ok((soft, hard)) => slog::info!(log, "open files limit"; "soft" => soft, "hard" => hard),
            Err(e) => slog::warn!(log, "cannot read or raise the open files limit"; "error" => %e),
        }
        crate::metrics::set_enabled(options.metrics == Switch::On);
        if let Err(e) = probes::register(&mut api) {
            // A spec with its own `/healthz` keeps it.
            slog::warn!(log, "the probes are not served"; "reason" => e);
        }
        let metrics = match options.metrics_bind {
            Some(bind) => Some(start_metrics(bind, log.new(slog::o!("component" => "metrics")))?),
            None => {
                crate::metrics::register_endpoint(&mut api).map_err(|e| format!("cannot serve the metrics: {e}"))?;
                None
            }
        };
        let bind = options.bind;
        let config = ConfigDropshot {
            bind_address: bind,
            default_request_body_max_bytes: settings.body_limit,
            // A handler whose client hung up is dropped rather than run to
            // the end (a spawned task per request is the costlier
            // default); the in-flight count is a guard, so it is dropped
            // with it. The request lines rely on it too (`request_lines`).
            default_handler_task_mode: HandlerTaskMode::CancelOnDisconnect,
            ..Default::default()
        };
        let mut builder = ServerBuilder::new(api, service, log.clone()).config(config);
        if let Some(policy) = settings.version_policy {
            builder = builder.version_policy(policy);
        }
        let signals = StopSignals::install(&log);
        let server = builder.start().map_err(|e| format!("cannot serve on {bind}: {e}"))?;
        let listener = ListeningSocket::find(server.local_addr());
        if let Some(limits) = options.reaper() {
            connection_reaper::start(server.local_addr(), limits, log.clone());
        }
        Ok(Running {
            server,
            metrics,
            listener,
            signals,
            options: options.clone(),
            log,
        })
    }

    /// Where the service listens.
    pub fn local_addr(&self) -> SocketAddr {
        self.server.local_addr()
    }

    /// Where `/metrics` is served apart, with `--metrics-bind`.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics.as_ref().map(HttpServer::local_addr)
    }

    /// The service.
    pub fn service(&self) -> &C {
        self.server.app_private()
    }

    /// Serves until SIGTERM or SIGINT (or until the server fails), then
    /// drains (after SIGTERM, for `--drain-seconds`) and shuts down: new
    /// clients are refused, the requests in flight are answered until
    /// `--shutdown-timeout`. Returns that deadline: the service closes
    /// what it holds by then.
    pub async fn until_stopped(mut self) -> Result<Instant, String> {
        let log = self.log.clone();
        // Borrowing `server` ends with the select, so it can be closed after.
        let signal = tokio::select! {
            result = self.server.wait_for_shutdown() => {
                result.map_err(|e| format!("server failed: {e}"))?;
                None
            }
            signal = self.signals.next(&log) => Some(signal),
        };
        let serving = self.server.app_private().serving().expect("checked at start");
        let in_flight = serving.in_flight().clone();
        if let Some(signal) = signal {
            if signal == "SIGTERM" && !self.options.drain_seconds.is_zero() {
                serving.start_draining();
                slog::info!(log, "draining: /readyz answers 503 until the shutdown starts";
                    "seconds" => self.options.drain_seconds.as_secs_f64());
                tokio::select! {
                    () = tokio::time::sleep(self.options.drain_seconds) => {}
                    signal = self.signals.next(&log) => slog::info!(log, "drain ended early"; "signal" => signal),
                }
            }
            slog::info!(log, "shutting down"; "signal" => signal);
        }
        // The deadline starts after the drain.
        let deadline = Instant::now() + self.options.shutdown_timeout;
        if signal.is_some() {
            stop_serving(self.server.close(), self.listener.as_ref(), &in_flight, deadline, &log).await;
        }
        if let Some(metrics) = self.metrics
            && let Err(e) = metrics.close().await
        {
            slog::warn!(log, "the metrics server did not close cleanly"; "error" => e);
        }
        // Whatever the service closes after gets a moment however late.
        Ok(deadline.max(Instant::now() + Duration::from_millis(500)))
    }
}

/// `GET /metrics` alone on `bind`, for operators who keep it off the
/// public port (`--metrics-bind`).
pub fn start_metrics(bind: SocketAddr, log: Logger) -> Result<HttpServer<()>, String> {
    let mut api = ApiDescription::new();
    crate::metrics::register_endpoint(&mut api).map_err(|e| format!("cannot serve the metrics: {e}"))?;
    let config = ConfigDropshot {
        bind_address: bind,
        ..Default::default()
    };
    ServerBuilder::new(api, (), log)
        .config(config)
        .start()
        .map_err(|e| format!("cannot serve the metrics on {bind}: {e}"))
}

/// A service's whole life as a process: the logger the options ask for,
/// [`Running::start`], `Serving http://ADDR<base_path>` on stdout's first
/// line (and `Metrics at ...` with `--metrics-bind`), then
/// [`Running::until_stopped`]. What a generated service's `main` calls.
pub async fn serve<C: Served>(
    options: &ServeOptions,
    service: C,
    api: ApiDescription<C>,
    settings: Settings,
    base_path: &str,
) -> Result<(), String> {
    // Held to the end: dropped, it writes what the log has buffered.
    let service_log = options.logger()?;
    let log = service_log.logger.clone();
    let running = Running::start(options, service, api, settings, &service_log)?;
    let base = format!("http://{}{base_path}", running.local_addr());
    slog::info!(log, "serving"; "base_url" => &base);
    let mut announcement = format!("Serving {base}\n");
    if let Some(metrics) = running.metrics_addr() {
        announcement.push_str(&format!("Metrics at http://{metrics}/metrics\n"));
    }
    {
        // One write: whoever reads the first line may close the pipe, and
        // a closed stdout does not stop the service.
        use std::io::Write as _;
        let mut stdout = std::io::stdout().lock();
        let _ = stdout.write_all(announcement.as_bytes()).and_then(|()| stdout.flush());
    }
    running.until_stopped().await?;
    slog::info!(log, "stopped");
    Ok(())
}
