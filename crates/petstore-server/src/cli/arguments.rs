//! The command line's arguments, as clap reads them.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand};

use crate::logging::LogFormat;

#[derive(Parser)]
#[command(name = "petstore-server", version, about = "The Pet Store orders service")]
pub(super) struct Cli {
    #[command(subcommand)]
    pub(super) command: Command,
}

#[derive(clap::Args)]
pub(super) struct Database {
    /// The database: a SQLite file, a `sqlite:` URL, or a `postgres://` URL
    /// (migrated if needed). Only `import`, `keys create` and `serve
    /// --demo` or `--create-database` create a missing SQLite file.
    #[arg(long, env = "PETSTORE_DATABASE", default_value = "petstore.db", global = true)]
    pub(super) database: String,
    /// The longest a request waits for the database: for a lock another
    /// transaction holds (PostgreSQL's lock_timeout, SQLite's busy
    /// timeout) or for a pooled connection. Past it, the request gets 503.
    #[arg(long, value_name = "SECONDS", default_value = "5", value_parser = seconds, global = true)]
    pub(super) db_wait_limit: Duration,
    /// The longest one PostgreSQL statement may run (statement_timeout).
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = seconds, global = true)]
    pub(super) db_statement_limit: Duration,
}

/// When client connections that hold a descriptor without using it are
/// closed (see `connection_reaper`).
#[derive(clap::Args)]
pub(super) struct ConnectionLimits {
    /// Close a connection that has sent nothing this long after it opened.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = seconds)]
    pub(super) silent_timeout: Duration,
    /// At most this many connections from one address may be open without
    /// having sent anything (after their first second); newer ones are
    /// closed.
    #[arg(long, value_name = "N", default_value = "100")]
    pub(super) silent_per_client: usize,
    /// Close a connection on which nothing was sent or received this long.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = seconds)]
    pub(super) idle_timeout: Duration,
    /// Never close connections for the reasons above (a reverse proxy in
    /// front does it).
    #[arg(long)]
    pub(super) keep_silent_connections: bool,
}

/// A positive number of seconds, such as `5` or `0.5`.
pub(super) fn seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 86_400.0 => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!("{text:?} is not a number of seconds between 0 and 86400")),
    }
}

/// On or off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum Switch {
    On,
    Off,
}

/// A number of seconds from 0 to 86400.
pub(super) fn seconds_or_zero(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(0.0) => Ok(Duration::ZERO),
        _ => seconds(text),
    }
}

#[derive(Subcommand)]
pub(super) enum Command {
    /// Serve the API under /v1.
    Serve {
        #[command(flatten)]
        db: Database,
        /// The address to listen on.
        #[arg(long, default_value = "127.0.0.1:8080")]
        bind: SocketAddr,
        /// Seed demo pets and orders (if the database is empty) and print a
        /// new API key with a curl line to try.
        #[arg(long)]
        demo: bool,
        /// Create the SQLite database if it does not exist (without it,
        /// a missing file is an error: a mistyped path must not serve an
        /// empty database).
        #[arg(long)]
        create_database: bool,
        /// The least severe log level written to stderr.
        #[arg(long, default_value = "info", value_parser = ["trace", "debug", "info", "warn", "error"])]
        log_level: String,
        /// How log records are written to stderr: `text` (for people) or
        /// `json` (one object per line, for log pipelines).
        #[arg(long, value_enum, default_value = "text")]
        log_format: LogFormat,
        /// Count and time every request by operation, and the database's
        /// waits and statements, served at `GET /metrics` (on by default:
        /// within 3 % of throughput, see BENCHMARKS.md).
        #[arg(long, value_enum, default_value = "on")]
        metrics: Switch,
        /// Serve `GET /metrics` on this address instead of beside the API
        /// (stdout's third line says where: `Metrics at http://ADDR/metrics`).
        #[arg(long, value_name = "ADDRESS")]
        metrics_bind: Option<SocketAddr>,
        /// On SIGTERM or SIGINT, the longest the service waits for requests
        /// in flight before it closes the database and exits.
        #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = seconds)]
        shutdown_timeout: Duration,
        /// After SIGTERM, serve this long with `/readyz` answering 503
        /// before the shutdown starts, so that a balancer that probes takes
        /// the instance out before connections are refused. 0 (the
        /// default) starts the shutdown at once. A second signal ends the
        /// drain early.
        #[arg(long, value_name = "SECONDS", default_value = "0", value_parser = seconds_or_zero)]
        drain_seconds: Duration,
        #[command(flatten)]
        connections: ConnectionLimits,
    },
    /// Manage API keys.
    Keys {
        #[command(flatten)]
        db: Database,
        #[command(subcommand)]
        command: KeysCommand,
    },
    /// Load pets and orders from a JSON file, all or nothing.
    Import {
        #[command(flatten)]
        db: Database,
        /// `{"pets":[{"id":1,"name":"Rex"}],"orders":[{"id":1,"petId":1,...,"status":"pending"}]}`
        file: PathBuf,
    },
    /// Copy the database while the service runs: consistent, fsync'd,
    /// written under a temporary name and renamed to FILE once complete
    /// (an existing FILE is replaced). SQLite: `VACUUM INTO`, never
    /// blocking writers; PostgreSQL: `pg_dump --format=custom`.
    Backup {
        #[command(flatten)]
        db: Database,
        /// Where the copy goes.
        file: PathBuf,
    },
    /// Move a pending order to shipped.
    Ship {
        #[command(flatten)]
        db: Database,
        /// The order's id.
        id: i64,
    },
}

#[derive(Subcommand)]
pub(super) enum KeysCommand {
    /// Create a key and print it. It is shown only this once.
    Create {
        /// Who the key is for.
        #[arg(long)]
        name: String,
    },
    /// List keys (ids, names, dates; never the keys themselves).
    List,
    /// Revoke a key: it stops working at once.
    Revoke {
        /// The key's id, as `keys list` shows it.
        id: i64,
    },
}
