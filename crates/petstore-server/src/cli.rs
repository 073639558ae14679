//! The `petstore-server` command line.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::{Parser, Subcommand};
use dropshot::{ConfigLoggingLevel, HttpServer};
use slog::Logger;

use crate::connection_reaper::ReaperLimits;
use crate::logging::LogFormat;
use crate::service::Service;
use crate::shutdown::StopSignals;
use crate::storage::backend::WaitLimits;
use crate::storage::sql::{OpenOptions, SqlStorage};
use crate::storage::{ImportData, ShipOutcome, Storage, StorageError, backup};
use crate::{connection_reaper, demo, keys, logging, process_limits, server, shutdown};

#[derive(Parser)]
#[command(name = "petstore-server", version, about = "The Pet Store orders service")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args)]
struct Database {
    /// The database: a SQLite file, a `sqlite:` URL, or a `postgres://` URL
    /// (migrated if needed). Only `import`, `keys create` and `serve
    /// --demo` or `--create-database` create a missing SQLite file.
    #[arg(long, env = "PETSTORE_DATABASE", default_value = "petstore.db", global = true)]
    database: String,
    /// The longest a request waits for the database: for a lock another
    /// transaction holds (PostgreSQL's lock_timeout, SQLite's busy
    /// timeout) or for a pooled connection. Past it, the request gets 503.
    #[arg(long, value_name = "SECONDS", default_value = "5", value_parser = seconds, global = true)]
    db_wait_limit: Duration,
    /// The longest one PostgreSQL statement may run (statement_timeout).
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = seconds, global = true)]
    db_statement_limit: Duration,
}

/// When client connections that hold a descriptor without using it are
/// closed (see `connection_reaper`).
#[derive(clap::Args)]
struct ConnectionLimits {
    /// Close a connection that has sent nothing this long after it opened.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = seconds)]
    silent_timeout: Duration,
    /// At most this many connections from one address may be open without
    /// having sent anything (after their first second); newer ones are
    /// closed.
    #[arg(long, value_name = "N", default_value = "100")]
    silent_per_client: usize,
    /// Close a connection on which nothing was sent or received this long.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = seconds)]
    idle_timeout: Duration,
    /// Never close connections for the reasons above (a reverse proxy in
    /// front does it).
    #[arg(long)]
    keep_silent_connections: bool,
}

/// A positive number of seconds, such as `5` or `0.5`.
fn seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 86_400.0 => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!("{text:?} is not a number of seconds between 0 and 86400")),
    }
}

/// On or off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Switch {
    On,
    Off,
}

/// A number of seconds from 0 to 86400.
fn seconds_or_zero(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(0.0) => Ok(Duration::ZERO),
        _ => seconds(text),
    }
}

#[derive(Subcommand)]
enum Command {
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
enum KeysCommand {
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

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(run(cli.command));
    // Tasks still running (connections left at a shutdown's deadline) are
    // dropped; a blocking thread gets a moment, never a hang.
    runtime.shutdown_timeout(Duration::from_secs(1));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Opens the database; a missing SQLite file is created only if `create`.
/// What the storage notices by itself goes to `log`.
async fn open(db: &Database, create: bool, log: &slog::Logger) -> anyhow::Result<SqlStorage> {
    let options = OpenOptions {
        limits: WaitLimits {
            wait: db.db_wait_limit,
            statement: db.db_statement_limit,
        },
        create,
        log: log.clone(),
    };
    SqlStorage::open_with(&db.database, &options)
        .await
        .map_err(|e| match e {
            StorageError::Missing(_) => anyhow::anyhow!(
                "{e}. Check --database (or PETSTORE_DATABASE); to start a new database, \
                 run `import`, `keys create`, or `serve` with --create-database or --demo"
            ),
            other => anyhow::Error::new(other),
        })
        .with_context(|| format!("database {}", redact(&db.database)))
}

/// A one-shot command reports through its result, not a log.
fn quiet() -> slog::Logger {
    slog::Logger::root(slog::Discard, slog::o!())
}

/// A database string fit for messages: a URL's password is hidden.
fn redact(database: &str) -> String {
    match (database.find("://"), database.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &database[scheme + 3..at];
            match credentials.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &database[..scheme + 3], &database[at..]),
                None => database.to_string(),
            }
        }
        _ => database.to_string(),
    }
}

async fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Serve {
            db,
            bind,
            demo,
            create_database,
            log_level,
            log_format,
            metrics,
            metrics_bind,
            shutdown_timeout,
            drain_seconds,
            connections,
        } => {
            let reaper = (!connections.keep_silent_connections).then_some(ReaperLimits {
                silent: connections.silent_timeout,
                silent_per_client: connections.silent_per_client,
                idle: connections.idle_timeout,
            });
            let options = ServeOptions {
                bind,
                demo,
                create_database,
                log_level,
                log_format,
                metrics: metrics == Switch::On,
                metrics_bind,
                shutdown_timeout,
                drain: drain_seconds,
                reaper,
            };
            serve(&db, &options).await
        }
        Command::Keys { db, command } => {
            let creates = matches!(command, KeysCommand::Create { .. });
            let storage = open(&db, creates, &quiet()).await?;
            let result = keys_command(&storage, command).await;
            storage.close().await;
            result
        }
        Command::Import { db, file } => {
            // Read and validate the whole file before touching the database.
            let text = std::fs::read_to_string(&file).with_context(|| format!("cannot read {}", file.display()))?;
            let data: ImportData = serde_json::from_str(&text)
                .with_context(|| format!("{} is not a valid import file", file.display()))?;
            let storage = open(&db, true, &quiet()).await?;
            let result = storage.import(&data).await;
            storage.close().await;
            result.with_context(|| format!("import of {} failed; nothing was loaded", file.display()))?;
            println!("imported {} pets and {} orders", data.pets.len(), data.orders.len());
            Ok(())
        }
        Command::Backup { db, file } => {
            let report = backup::backup(&db.database, &file, db.db_wait_limit)
                .await
                .with_context(|| format!("backup of {} to {}", redact(&db.database), file.display()))?;
            let orders = report.orders.map(|n| format!(", {n} orders")).unwrap_or_default();
            println!(
                "backup of {} written to {} ({} bytes{orders})",
                redact(&db.database),
                report.path.display(),
                report.bytes
            );
            Ok(())
        }
        Command::Ship { db, id } => {
            let storage = open(&db, false, &quiet()).await?;
            let outcome = storage.ship_order(id).await;
            storage.close().await;
            match outcome? {
                ShipOutcome::Shipped => {
                    println!("order {id} shipped");
                    Ok(())
                }
                ShipOutcome::NotFound => bail!("order {id} not found"),
                ShipOutcome::NotPending(status) => bail!("order {id} is {}, not pending", status.as_str()),
            }
        }
    }
}

async fn keys_command(storage: &SqlStorage, command: KeysCommand) -> anyhow::Result<()> {
    match command {
        KeysCommand::Create { name } => {
            let (id, key) = keys::issue(storage, &name).await?;
            eprintln!("created key {id} for {name:?}; it is shown only once:");
            println!("{key}");
        }
        KeysCommand::List => {
            println!("{:>4}  {:<24}  {:<27}  revoked", "id", "name", "created");
            for key in storage.list_api_keys().await? {
                let revoked = key.revoked_at.map(|t| t.to_rfc3339()).unwrap_or_else(|| "-".into());
                println!(
                    "{:>4}  {:<24}  {:<27}  {revoked}",
                    key.id,
                    key.name,
                    key.created_at.to_rfc3339()
                );
            }
        }
        KeysCommand::Revoke { id } => {
            if !storage.revoke_api_key(id).await? {
                bail!("no active key with id {id}");
            }
            println!("key {id} revoked");
        }
    }
    Ok(())
}

/// The drain period: `/readyz` answers 503 while everything else is
/// served as before, until `period` has passed or another signal comes.
async fn drain<S: Storage>(server: &HttpServer<Service<S>>, period: Duration, stop: &mut StopSignals, log: &Logger) {
    server.app_private().start_draining();
    slog::info!(log, "draining: /readyz answers 503 until the shutdown starts";
        "seconds" => period.as_secs_f64());
    tokio::select! {
        () = tokio::time::sleep(period) => {}
        signal = stop.next(log) => slog::info!(log, "drain ended early"; "signal" => signal),
    }
}

/// `serve`'s options, apart from the database.
struct ServeOptions {
    bind: SocketAddr,
    demo: bool,
    create_database: bool,
    log_level: String,
    log_format: LogFormat,
    /// Whether requests and statements are counted and timed
    /// (`runtime::metrics`, `crate::metrics::database`).
    metrics: bool,
    /// Where `/metrics` is served apart from the API, if it is.
    metrics_bind: Option<SocketAddr>,
    shutdown_timeout: Duration,
    /// How long `/readyz` answers 503 after SIGTERM before the shutdown.
    drain: Duration,
    /// `None`: connections are never closed for holding a descriptor idle.
    reaper: Option<ReaperLimits>,
}

async fn serve(db: &Database, options: &ServeOptions) -> anyhow::Result<()> {
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
    crate::metrics::register(&storage);
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
