//! What differs between the two databases: how to connect, the schema's
//! migrations, and how their errors read. The queries themselves are shared
//! (see `sql.rs`).

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::{Migration, MigrationSource, MigrationType};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection, Executor};

use super::StorageError;
use super::hook::{Access, Hook};

/// The SQLite pool's connections, all open from the start.
pub(super) const SQLITE_CONNECTIONS: u32 = 8;

/// Each SQLite connection's page cache, in KiB. SQLite's default, 2,000
/// KiB a connection, would let the pool's and the request threads'
/// connections hold up to 24 MiB once reads have crossed the store:
/// copies of pages the kernel's page cache holds anyway, and memory that
/// follows the store rather than the request. The reads here are full
/// scans (the list, once per change), which no cache short of the store
/// helps, and index lookups (a page of orders, an order, the counters),
/// which need the index's upper levels.
pub(super) const PAGE_CACHE_KIB: u32 = 256;

/// How long the database may keep a request waiting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaitLimits {
    /// A wait for a lock (PostgreSQL's `lock_timeout`, SQLite's
    /// `busy_timeout`) or for a pooled connection.
    pub wait: Duration,
    /// One statement, start to end (PostgreSQL's `statement_timeout`). Longer
    /// than `wait`: listing 100,000 orders under load legitimately takes
    /// seconds.
    pub statement: Duration,
}

impl Default for WaitLimits {
    fn default() -> Self {
        WaitLimits {
            wait: Duration::from_secs(5),
            statement: Duration::from_secs(30),
        }
    }
}

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

    /// How many times a statement that changed `rows` orders bumped the
    /// orders' counter: SQLite's triggers run for each row, PostgreSQL's
    /// once per statement that changed any (the migrations' triggers).
    pub(super) fn counter_bumps(self, rows: usize) -> i64 {
        match (self, rows) {
            (_, 0) => 0,
            (Backend::Sqlite, rows) => rows as i64,
            (Backend::Postgres, _) => 1,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "SQLite",
            Backend::Postgres => "PostgreSQL",
        }
    }

    /// How to connect. A SQLite file is never created here: a connection
    /// opened after the file was deleted would otherwise serve a new, empty
    /// database (see [`super::sql::SqlStorage::open_with`] for creation).
    pub(super) fn connect_options(self, database: &str) -> Result<AnyConnectOptions, StorageError> {
        let invalid = |e: &dyn std::fmt::Display| StorageError::Invalid(format!("invalid database {database:?}: {e}"));
        match self {
            Backend::Postgres => database.parse().map_err(|e| invalid(&e)),
            Backend::Sqlite => {
                // sqlx turns the options into a URL for its `Any` driver.
                let options = Self::sqlite_options(database)?.create_if_missing(false);
                AnyConnectOptions::from_url(&options.to_url_lossy()).map_err(|e| invalid(&e))
            }
        }
    }

    /// A SQLite database's options, with its path made absolute: that keeps
    /// a relative name with a `:` from being read as a host and port once
    /// the options are a URL.
    pub(super) fn sqlite_options(database: &str) -> Result<SqliteConnectOptions, StorageError> {
        let invalid = |e: &dyn std::fmt::Display| StorageError::Invalid(format!("invalid database {database:?}: {e}"));
        if database.contains(":memory:") || database.contains("mode=memory") {
            return Err(invalid(&"an in-memory database would be private to each connection"));
        }
        let options = match database.strip_prefix("sqlite:") {
            Some(_) => database.parse::<SqliteConnectOptions>().map_err(|e| invalid(&e))?,
            None => SqliteConnectOptions::new().filename(database),
        };
        let path = std::path::absolute(options.get_filename()).map_err(|e| invalid(&e))?;
        Ok(options.filename(path))
    }

    /// The pool's options. A SQLite pool opens a connection only while
    /// its files are as they were opened (the `hook`'s check): a new
    /// connection would open a new `-wal` beside whatever file has the name.
    pub(super) fn pool_options(self, limits: &WaitLimits, hook: Arc<dyn Hook>) -> AnyPoolOptions {
        let options = AnyPoolOptions::new()
            // A request waits at most this long for a connection, then gets
            // 503: an outage never hangs a request.
            .acquire_timeout(limits.wait)
            // A connection that comes back inside a transaction (a COMMIT or
            // ROLLBACK that failed, a transaction dropped on an error) is
            // closed, never reused: its next BEGIN would become a SAVEPOINT
            // inside a transaction that never commits, and its writes would
            // be acknowledged but lost.
            .after_release(|conn, _| Box::pin(async move { Ok(!conn.is_in_transaction()) }));
        let wait_ms = limits.wait.as_millis().max(1);
        let statement_ms = limits.statement.as_millis().max(1);
        match self {
            Backend::Postgres => {
                options
                    .max_connections(16)
                    .min_connections(1)
                    .after_connect(move |conn, _| {
                        Box::pin(async move {
                            // Every wait for a lock (a row another transaction
                            // holds, a table a migration locked) and every
                            // statement is bounded: past it, PostgreSQL cancels
                            // the statement (55P03, 57014) and the client gets 503.
                            conn.execute(
                                format!("SET lock_timeout = {wait_ms}; SET statement_timeout = {statement_ms};")
                                    .as_str(),
                            )
                            .await?;
                            Ok(())
                        })
                    })
            }
            // SQLite has one writer at a time; more connections only queue.
            // All of them are opened at start and kept: once a -wal or -shm
            // is deleted, no new connection may open (it would create a new
            // one beside the database), and reads go on through these.
            Backend::Sqlite => options
                .max_connections(SQLITE_CONNECTIONS)
                .min_connections(SQLITE_CONNECTIONS)
                .idle_timeout(None)
                .max_lifetime(None)
                .after_connect(move |conn, _| {
                    let hook = hook.clone();
                    Box::pin(async move {
                        // Before any statement that reads the file.
                        hook.check(Access::Connect)
                            .map_err(|e| sqlx::Error::Io(std::io::Error::other(e.to_string())))?;
                        // WAL lets readers run beside the writer; synchronous =
                        // FULL fsyncs the WAL at every commit, so a change is on
                        // disk before its response is sent. busy_timeout bounds
                        // the wait for another writer's lock.
                        conn.execute(
                            format!(
                                "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
                             PRAGMA foreign_keys = ON; PRAGMA busy_timeout = {wait_ms}; \
                             PRAGMA cache_size = -{PAGE_CACHE_KIB};"
                            )
                            .as_str(),
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
                    // connect now" (57P0x), out of resources (53), a lock
                    // wait or statement past its limit (55P03, 57014), a
                    // deadlock or serialization failure (40P01, 40001).
                    Backend::Postgres => {
                        code.starts_with("08")
                            || code.starts_with("57P0")
                            || code.starts_with("53")
                            || matches!(code.as_ref(), "55P03" | "57014" | "40P01" | "40001")
                    }
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
                (
                    "pages: ship dates that sort, secrets",
                    include_str!("../../migrations/sqlite/0004_pages.sql"),
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
                (
                    "pages: ship dates that sort, secrets",
                    include_str!("../../migrations/postgres/0004_pages.sql"),
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
