//! The command-line options every served service takes, with the same
//! names and defaults: flatten [`ServeOptions`] into a service's own
//! `clap` arguments.

use std::net::SocketAddr;
use std::time::Duration;

use dropshot::ConfigLoggingLevel;

use super::connection_reaper::ReaperLimits;
use super::log_lines::LogFormat;

/// How a service is served: its address, its logs, its metrics, its
/// shutdown, and the connections it closes.
#[derive(clap::Args, Debug, Clone)]
pub struct ServeOptions {
    /// The address to listen on (port 0 picks a free one; stdout's first
    /// line says which).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
    /// The least severe log level written to stderr.
    #[arg(long, default_value = "info", value_parser = ["trace", "debug", "info", "warn", "error"])]
    pub log_level: String,
    /// How log records are written to stderr: `text` (for people) or
    /// `json` (one object per line, for log pipelines).
    #[arg(long, value_enum, default_value = "text")]
    pub log_format: LogFormat,
    /// Count and time every request by operation, served at
    /// `GET /metrics` (on by default: within a few percent of throughput,
    /// see BENCHMARKS.md).
    #[arg(long, value_enum, default_value = "on")]
    pub metrics: Switch,
    /// Serve `GET /metrics` on this address instead of beside the API
    /// (stdout says where: `Metrics at http://ADDR/metrics`).
    #[arg(long, value_name = "ADDRESS")]
    pub metrics_bind: Option<SocketAddr>,
    /// On SIGTERM or SIGINT, the longest the service waits for requests
    /// in flight before it exits.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = seconds)]
    pub shutdown_timeout: Duration,
    /// After SIGTERM, serve this long with `/readyz` answering 503
    /// before the shutdown starts, so that a balancer that probes takes
    /// the instance out before connections are refused. 0 (the default)
    /// starts the shutdown at once. A second signal ends the drain early.
    #[arg(long, value_name = "SECONDS", default_value = "0", value_parser = seconds_or_zero)]
    pub drain_seconds: Duration,
    /// Let web pages from ORIGIN (`https://app.example.com`) call the
    /// service from a browser (CORS); repeat it for several, with
    /// credentials allowed, or give `*` alone for any origin, without
    /// credentials. Off by default.
    #[arg(long = "cors-origin", value_name = "ORIGIN")]
    pub cors_origins: Vec<String>,
    #[command(flatten)]
    pub connections: ConnectionLimits,
}

/// When client connections that hold a descriptor without using it are
/// closed (see [`super::connection_reaper`]).
#[derive(clap::Args, Debug, Clone)]
pub struct ConnectionLimits {
    /// Close a connection that has sent nothing this long after it opened.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = seconds)]
    pub silent_timeout: Duration,
    /// At most this many connections from one address may be open without
    /// having sent anything (after their first second); newer ones are
    /// closed.
    #[arg(long, value_name = "N", default_value = "100")]
    pub silent_per_client: usize,
    /// Close a connection on which nothing was sent or received this long.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = seconds)]
    pub idle_timeout: Duration,
    /// Never close connections for the reasons above (a reverse proxy in
    /// front does it).
    #[arg(long)]
    pub keep_silent_connections: bool,
}

impl ServeOptions {
    /// The level `--log-level` names.
    pub fn level(&self) -> ConfigLoggingLevel {
        match self.log_level.as_str() {
            "trace" => ConfigLoggingLevel::Trace,
            "debug" => ConfigLoggingLevel::Debug,
            "warn" => ConfigLoggingLevel::Warn,
            "error" => ConfigLoggingLevel::Error,
            _ => ConfigLoggingLevel::Info,
        }
    }

    /// The reaper's limits; `None` with `--keep-silent-connections`.
    pub fn reaper(&self) -> Option<ReaperLimits> {
        let connections = &self.connections;
        (!connections.keep_silent_connections).then_some(ReaperLimits {
            silent: connections.silent_timeout,
            silent_per_client: connections.silent_per_client,
            idle: connections.idle_timeout,
        })
    }
}

/// On or off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Switch {
    On,
    Off,
}

/// A positive number of seconds, such as `5` or `0.5`.
pub fn seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 86_400.0 => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!("{text:?} is not a number of seconds between 0 and 86400")),
    }
}

/// A number of seconds from 0 to 86400.
pub fn seconds_or_zero(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(0.0) => Ok(Duration::ZERO),
        _ => seconds(text),
    }
}
