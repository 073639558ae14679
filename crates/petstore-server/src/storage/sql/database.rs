//! The SQL database: its pool, the backend's hook, and the cancel queue;
//! opening (and migrating) and closing it, and the helpers every query of
//! `queries.rs` goes through.

use std::future::Future;
use std::sync::Arc;

use sqlx::migrate::Migrator;
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyPool};

use crate::metrics::Statement;
use crate::storage::backend::{Backend, WaitLimits};
use crate::storage::cancel_queue::CancelQueue;
use crate::storage::cancellations::Cancellations;
use crate::storage::hook::{Access, Hook, NoHook};
use crate::storage::migrations;
use crate::storage::sqlite::SqliteFiles;
use crate::storage::stored::parse_status;
use crate::storage::timing::{acquire, timed};
use crate::storage::{OrderStatus, Result, StorageError};

/// The service's database: a pool of connections to SQLite or PostgreSQL.
#[derive(Clone)]
pub struct SqlStorage {
    pub(super) pool: AnyPool,
    pub(super) backend: Backend,
    /// Cancels go through one task that commits them in batches.
    pub(super) cancels: CancelQueue,
    /// What the cancel queue committed, for patching the list cache.
    pub(super) cancellations: Arc<Cancellations>,
    /// What the backend needs around the statements: SQLite's files
    /// checked before and after writes and at counter reads, and reads on
    /// the caller's thread; nothing on PostgreSQL.
    pub(super) hook: Arc<dyn Hook>,
}

/// How to open a database.
#[derive(Clone)]
pub struct OpenOptions {
    /// Bounds on every wait for the database.
    pub limits: WaitLimits,
    /// Whether a missing SQLite file is created (and migrated). When not,
    /// opening a missing file fails with [`StorageError::Missing`].
    pub create: bool,
    /// Where the storage reports what it notices by itself (a SQLite file
    /// or its WAL deleted or replaced while open).
    pub log: slog::Logger,
}

impl Default for OpenOptions {
    fn default() -> Self {
        OpenOptions {
            limits: WaitLimits::default(),
            create: true,
            log: slog::Logger::root(slog::Discard, slog::o!()),
        }
    }
}

impl SqlStorage {
    /// Opens and migrates `database`: a SQLite file path (created if
    /// missing), a `sqlite:` URL, or a `postgres://` URL.
    pub async fn open(database: &str) -> Result<Self> {
        Self::open_with(database, &OpenOptions::default()).await
    }

    /// Opens and migrates `database` as `options` say.
    pub async fn open_with(database: &str, options: &OpenOptions) -> Result<Self> {
        sqlx::any::install_default_drivers();
        let backend = Backend::of(database);
        let connect = backend.connect_options(database)?;
        // The file set's anchor is SQLite's first connection, so that it
        // is open before, and closed after, every other.
        let sqlite = match backend {
            Backend::Sqlite => {
                let (create, wait, log) = (options.create, options.limits.wait, options.log.clone());
                Some(SqliteFiles::open(database, create, wait, log).await?)
            }
            Backend::Postgres => None,
        };
        let hook: Arc<dyn Hook> = match &sqlite {
            Some(sqlite) => sqlite.clone(),
            None => Arc::new(NoHook),
        };
        let pool = backend
            .pool_options(&options.limits, hook.clone())
            .connect_with(connect)
            .await
            .map_err(|e| StorageError::Unavailable(format!("cannot open the {} database: {e}", backend.name())))?;
        let migrator = Migrator::new(backend.migrations())
            .await
            .map_err(|e| StorageError::Internal(format!("migrations: {e}")))?;
        if let Some(sqlite) = &sqlite {
            sqlite.before_migrations(&pool, &migrator).await?;
        }
        migrator.run(&pool).await.map_err(migrations::explain)?;
        if let Some(sqlite) = &sqlite {
            sqlite.open_readers()?;
        }
        let cancellations = Arc::new(Cancellations::default());
        let cancels = CancelQueue::start(pool.clone(), backend, hook.clone(), cancellations.clone());
        Ok(SqlStorage {
            pool,
            backend,
            cancels,
            cancellations,
            hook,
        })
    }

    /// The connection pool, for its size and use (`crate::metrics`).
    pub fn pool_handle(&self) -> AnyPool {
        self.pool.clone()
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Closes every connection. For SQLite, the file set's anchor closes
    /// last: if no other process has the database open, SQLite then
    /// checkpoints the WAL into the database file and removes `-wal` and
    /// `-shm`; if the files are no longer the ones opened, nothing at their
    /// paths is touched (see [`FileSet::close`]).
    pub async fn close(&self) {
        self.hook.closing();
        self.pool.close().await;
        // SQLite's waits for the watcher's thread, which may be checkpointing.
        let hook = self.hook.clone();
        let _ = tokio::task::spawn_blocking(move || hook.closed()).await;
    }

    /// SQLite's `PRAGMA integrity_check`: "ok" when the file is sound.
    pub async fn integrity_check(&self) -> Result<String> {
        match self.backend {
            Backend::Sqlite => {
                let mut conn = self.connection().await?;
                timed(
                    Statement::IntegrityCheck,
                    sqlx::query_scalar("PRAGMA integrity_check").fetch_one(&mut *conn),
                )
                .await
                .map_err(|e| self.classify(e))
            }
            Backend::Postgres => Ok("ok".into()),
        }
    }

    pub(super) fn classify(&self, error: sqlx::Error) -> StorageError {
        self.backend.classify(error)
    }

    /// A connection of the pool (its wait timed), for one statement or a
    /// transaction; back to the pool when dropped.
    pub(super) async fn connection(&self) -> Result<PoolConnection<Any>> {
        acquire(&self.pool).await.map_err(|e| self.classify(e))
    }

    /// The one guard around a statement that writes: the hook's check
    /// before it, and after it, before the write is acknowledged (on
    /// SQLite, a write that did not go into the files at their paths is
    /// not acknowledged). `write` runs only between the two.
    pub(super) async fn guarded_write<T>(&self, write: impl Future<Output = Result<T>>) -> Result<T> {
        self.hook.check(Access::Write)?;
        let done = write.await?;
        self.hook.check(Access::Write)?;
        Ok(done)
    }

    /// The status of an order, after a conditional update changed nothing.
    pub(super) async fn status_of(&self, id: i64) -> Result<Option<OrderStatus>> {
        let mut conn = self.connection().await?;
        let status: Option<String> = timed(
            Statement::OrderStatus,
            sqlx::query_scalar("SELECT status FROM orders WHERE id = $1")
                .bind(id)
                .fetch_optional(&mut *conn),
        )
        .await
        .map_err(|e| self.classify(e))?;
        status.as_deref().map(parse_status).transpose()
    }
}
