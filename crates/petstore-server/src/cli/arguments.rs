//! The command line's arguments, as clap reads them.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand};

use petstore_api::runtime::serving::ServeOptions;
use petstore_api::runtime::serving::options::seconds;

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

#[derive(Subcommand)]
pub(super) enum Command {
    /// Serve the API under /v1.
    Serve {
        #[command(flatten)]
        db: Database,
        /// Seed demo pets and orders (if the database is empty) and print a
        /// new API key with a curl line to try.
        #[arg(long)]
        demo: bool,
        /// Create the SQLite database if it does not exist (without it,
        /// a missing file is an error: a mistyped path must not serve an
        /// empty database).
        #[arg(long)]
        create_database: bool,
        /// The options every served service takes.
        #[command(flatten)]
        options: ServeOptions,
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
