//! The `petstore-server` command line.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::{Parser, Subcommand};
use dropshot::ConfigLoggingLevel;

use crate::storage::sql::SqlStorage;
use crate::storage::{ImportData, ShipOutcome, Storage, StorageError};
use crate::{demo, keys, server};

#[derive(Parser)]
#[command(name = "petstore-server", version, about = "The Pet Store orders service")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args)]
struct Database {
    /// The database: a SQLite file (created and migrated if missing), a
    /// `sqlite:` URL, or a `postgres://` URL (migrated if needed).
    #[arg(long, env = "PETSTORE_DATABASE", default_value = "petstore.db", global = true)]
    database: String,
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
        /// The least severe log level written to stderr.
        #[arg(long, default_value = "info", value_parser = ["trace", "debug", "info", "warn", "error"])]
        log_level: String,
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
    match runtime.block_on(run(cli.command)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn open(db: &Database) -> anyhow::Result<SqlStorage> {
    SqlStorage::open(&db.database)
        .await
        .with_context(|| format!("database {}", redact(&db.database)))
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
            log_level,
        } => serve(&db, bind, demo, &log_level).await,
        Command::Keys { db, command } => {
            let storage = open(&db).await?;
            let result = keys_command(&storage, command).await;
            storage.close().await;
            result
        }
        Command::Import { db, file } => {
            // Read and validate the whole file before touching the database.
            let text = std::fs::read_to_string(&file).with_context(|| format!("cannot read {}", file.display()))?;
            let data: ImportData = serde_json::from_str(&text)
                .with_context(|| format!("{} is not a valid import file", file.display()))?;
            let storage = open(&db).await?;
            let result = storage.import(&data).await;
            storage.close().await;
            result.with_context(|| format!("import of {} failed; nothing was loaded", file.display()))?;
            println!("imported {} pets and {} orders", data.pets.len(), data.orders.len());
            Ok(())
        }
        Command::Ship { db, id } => {
            let storage = open(&db).await?;
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

async fn serve(db: &Database, bind: SocketAddr, demo: bool, log_level: &str) -> anyhow::Result<()> {
    let level = match log_level {
        "trace" => ConfigLoggingLevel::Trace,
        "debug" => ConfigLoggingLevel::Debug,
        "warn" => ConfigLoggingLevel::Warn,
        "error" => ConfigLoggingLevel::Error,
        _ => ConfigLoggingLevel::Info,
    };
    let log = server::stderr_logger(level)?;
    let storage = open(db).await?;
    if demo && storage.is_empty().await? {
        storage
            .import(&demo::data())
            .await
            .map_err(|e: StorageError| anyhow::anyhow!("seeding demo data: {e}"))?;
    }
    let demo_key = match demo {
        true => Some(keys::issue(&storage, "demo").await?.1),
        false => None,
    };
    let server = server::start(storage.clone(), bind, log.clone())?;
    let base = format!("http://{}{}", server.local_addr(), petstore_api::BASE_PATH);
    slog::info!(log, "serving"; "base_url" => &base);
    // The first line of stdout says where to reach the service (port 0
    // picks a free port, so scripts and tests read it from here).
    println!("Serving {base}");
    if let Some(key) = demo_key {
        println!(
            "Demo data is in {}. A new API key (shown once; `keys revoke` ends it):\n\n  {key}\n",
            redact(&db.database)
        );
        println!("Try:\n\n  curl -H 'Authorization: Bearer {key}' {base}/store/orders\n");
        println!("  curl -X DELETE -H 'Authorization: Bearer {key}' {base}/store/orders/1\n");
    }
    // Borrowing `server` ends with the select, so it can be closed after.
    let signal = tokio::select! {
        result = server.wait_for_shutdown() => {
            result.map_err(|e| anyhow::anyhow!("server failed: {e}"))?;
            None
        }
        signal = shutdown_signal() => Some(signal),
    };
    if let Some(signal) = signal {
        slog::info!(log, "shutting down: finishing requests in flight"; "signal" => signal);
        server
            .close()
            .await
            .map_err(|e| anyhow::anyhow!("shutdown failed: {e}"))?;
    }
    storage.close().await;
    Ok(())
}

/// Resolves on SIGINT or SIGTERM.
async fn shutdown_signal() -> &'static str {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = match signal(SignalKind::terminate()) {
        Ok(s) => s,
        Err(_) => return std::future::pending().await,
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => "SIGINT",
        _ = term.recv() => "SIGTERM",
    }
}
