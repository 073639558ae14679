//! The `petstore-server` command line.

mod arguments;
mod database;
mod serve;

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Parser;

use crate::keys;
use crate::storage::sql::SqlStorage;
use crate::storage::{ImportData, ShipOutcome, Storage, backup};
use arguments::{Cli, Command, KeysCommand};
use database::{open, quiet, redact};
use serve::{PetStoreOptions, serve};

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

async fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Serve {
            db,
            demo,
            create_database,
            options,
        } => serve(&db, &PetStoreOptions { demo, create_database }, &options).await,
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
