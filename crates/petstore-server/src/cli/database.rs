//! Opening the database a command names, and naming it in messages
//! without its password.

use anyhow::Context;

use super::arguments::Database;
use crate::storage::StorageError;
use crate::storage::backend::WaitLimits;
use crate::storage::sql::{OpenOptions, SqlStorage};

/// Opens the database; a missing SQLite file is created only if `create`.
/// What the storage notices by itself goes to `log`.
pub(super) async fn open(db: &Database, create: bool, log: &slog::Logger) -> anyhow::Result<SqlStorage> {
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
pub(super) fn quiet() -> slog::Logger {
    slog::Logger::root(slog::Discard, slog::o!())
}

/// A database string fit for messages: a URL's password is hidden.
pub(super) fn redact(database: &str) -> String {
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
