//! What differs between the two databases: how to connect, the schema's
//! migrations, and how their errors read. The queries themselves are shared
//! (see `sql.rs`).

use std::borrow::Cow;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::{Migration, MigrationSource, MigrationType};
use sqlx::{ConnectOptions, Executor};

use super::StorageError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// Embedded, one file: the default.
    Sqlite,
    /// For several instances on one database.
    Postgres,
}

impl Backend {
    /// `postgres://` or `postgresql://` selects PostgreSQL; a path or a
    /// `sqlite:` URL selects SQLite.
    pub fn of(database: &str) -> Backend {
        if database.starts_with("postgres://") || database.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "SQLite",
            Backend::Postgres => "PostgreSQL",
        }
    }

    pub(super) fn connect_options(self, database: &str) -> Result<AnyConnectOptions, StorageError> {
        let invalid = |e: &dyn std::fmt::Display| StorageError::Invalid(format!("invalid database {database:?}: {e}"));
        match self {
            Backend::Postgres => database.parse().map_err(|e| invalid(&e)),
            Backend::Sqlite => {
                if database.contains(":memory:") || database.contains("mode=memory") {
                    return Err(invalid(&"an in-memory database would be private to each connection"));
                }
                let options = match database.strip_prefix("sqlite:") {
                    Some(_) => database
                        .parse::<sqlx::sqlite::SqliteConnectOptions>()
                        .map_err(|e| invalid(&e))?,
                    None => sqlx::sqlite::SqliteConnectOptions::new().filename(database),
                };
                // sqlx turns the options into a URL for its `Any` driver; an
                // absolute path keeps a relative name with a `:` from being
                // read as a host and port.
                let path = std::path::absolute(options.get_filename()).map_err(|e| invalid(&e))?;
                AnyConnectOptions::from_url(&options.filename(path).create_if_missing(true).to_url_lossy())
                    .map_err(|e| invalid(&e))
            }
        }
    }

    pub(super) fn pool_options(self) -> AnyPoolOptions {
        let options = AnyPoolOptions::new()
            // A request waits at most this long for a connection, then gets
            // 503: an outage never hangs a request.
            .acquire_timeout(Duration::from_secs(5));
        match self {
            Backend::Postgres => options.max_connections(16).min_connections(1),
            // SQLite has one writer at a time; more connections only queue.
            Backend::Sqlite => options.max_connections(8).after_connect(|conn, _| {
                Box::pin(async move {
                    // WAL lets readers run beside the writer; synchronous =
                    // FULL fsyncs the WAL at every commit, so a change is on
                    // disk before its response is sent.
                    conn.execute(
                        "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
                         PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;",
                    )
                    .await?;
                    Ok(())
                })
            }),
        }
    }

    pub(super) fn migrations(self) -> EmbeddedMigrations {
        EmbeddedMigrations(self)
    }

    /// Sorts a database error into what the client should be told.
    pub(super) fn classify(self, error: sqlx::Error) -> StorageError {
        match &error {
            sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::Io(_)
            | sqlx::Error::Tls(_)
            | sqlx::Error::Protocol(_)
            | sqlx::Error::WorkerCrashed => StorageError::Unavailable(error.to_string()),
            sqlx::Error::Database(db) => {
                let code = db.code().unwrap_or_default();
                let unavailable = match self {
                    // SQLITE_BUSY, LOCKED, READONLY, IOERR, FULL, CANTOPEN:
                    // the primary result code is the low byte.
                    Backend::Sqlite => {
                        matches!(code.parse::<i64>().map(|c| c & 0xff), Ok(5 | 6 | 8 | 10 | 13 | 14))
                    }
                    // Connection exceptions (08), shutdowns and "cannot
                    // connect now" (57P0x), out of resources (53).
                    Backend::Postgres => code.starts_with("08") || code.starts_with("57P0") || code.starts_with("53"),
                };
                if unavailable {
                    StorageError::Unavailable(error.to_string())
                } else if db.is_unique_violation() || db.is_foreign_key_violation() || db.is_check_violation() {
                    StorageError::Invalid(db.message().to_string())
                } else {
                    StorageError::Internal(error.to_string())
                }
            }
            _ => StorageError::Internal(error.to_string()),
        }
    }
}

/// The schema's migrations for one backend, compiled in so that the binary
/// needs no files.
#[derive(Debug)]
pub(super) struct EmbeddedMigrations(Backend);

impl MigrationSource<'static> for EmbeddedMigrations {
    fn resolve(
        self,
    ) -> std::pin::Pin<Box<dyn Future<Output = Result<Vec<Migration>, sqlx::error::BoxDynError>> + Send + 'static>>
    {
        let scripts: &[(&'static str, &'static str)] = match self.0 {
            Backend::Sqlite => &[
                ("initial", include_str!("../../migrations/sqlite/0001_initial.sql")),
                (
                    "change counter",
                    include_str!("../../migrations/sqlite/0002_change_counter.sql"),
                ),
                (
                    "change counters: keys",
                    include_str!("../../migrations/sqlite/0003_change_counters.sql"),
                ),
            ],
            Backend::Postgres => &[
                ("initial", include_str!("../../migrations/postgres/0001_initial.sql")),
                (
                    "change counter",
                    include_str!("../../migrations/postgres/0002_change_counter.sql"),
                ),
                (
                    "change counters: keys, and only statements that change rows",
                    include_str!("../../migrations/postgres/0003_change_counters.sql"),
                ),
            ],
        };
        let migrations = scripts
            .iter()
            .copied()
            .zip(1..)
            .map(|((name, sql), version)| {
                Migration::new(
                    version,
                    Cow::Borrowed(name),
                    MigrationType::Simple,
                    Cow::Borrowed(sql),
                    false,
                )
            })
            .collect();
        Box::pin(async move { Ok(migrations) })
    }
}
