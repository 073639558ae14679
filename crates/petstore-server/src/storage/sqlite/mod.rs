//! What only SQLite needs, behind the storage's one hook ([`Hook`]): the
//! database file and its companions, checked before and after every write
//! and at counter reads, and watched ([`file_set`]); and reads made on the
//! request's own thread ([`thread_reads`]), the change counters only when
//! the WAL-index header moved ([`wal_index`]). The backend-neutral
//! queries (`storage/sql/`) call the hook and know none of this.

mod file_set;
mod path_events;
mod thread_reads;
mod wal_index;

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use rusqlite::types::Value;
use sqlx::migrate::Migrator;
use sqlx::{AnyPool, ConnectOptions, Connection};

use crate::metrics::Statement;
use crate::storage::backend::{Backend, SQLITE_CONNECTIONS};
use crate::storage::hook::{Access, Hook};
use crate::storage::migrations;
use crate::storage::stored::{Argument, StoredOrder};
use crate::storage::{OrderRecord, Result, StorageError, Versions};
use file_set::FileSet;
use thread_reads::ThreadReads;

/// SQLite connections kept for reads on the request's thread (the change
/// counters, v2's pages): one per runtime worker thread is enough for none
/// to wait for another.
const THREAD_READERS: usize = 4;

/// SQLite's hook: the file set, and the reads on the request's thread
/// (opened once the schema is migrated).
pub(crate) struct SqliteFiles {
    files: Arc<FileSet>,
    reads: OnceLock<ThreadReads>,
}

impl SqliteFiles {
    /// Makes sure the SQLite file exists (creating it if `create`), and
    /// opens its file set. Only this first connection may create the
    /// file: the pool's never do, so a file deleted later is not silently
    /// recreated empty.
    pub(crate) async fn open(database: &str, create: bool, wait: Duration, log: slog::Logger) -> Result<Arc<Self>> {
        let options = Backend::sqlite_options(database)?;
        let path = options.get_filename().to_path_buf();
        if !path.exists() {
            if !create {
                return Err(StorageError::Missing(format!(
                    "the SQLite database {} does not exist",
                    path.display()
                )));
            }
            let creator = options
                .create_if_missing(true)
                .connect()
                .await
                .map_err(|e| StorageError::Unavailable(format!("cannot create {}: {e}", path.display())))?;
            let _ = creator.close().await;
        }
        let files = tokio::task::spawn_blocking(move || FileSet::open(&path, wait, log))
            .await
            .map_err(|e| StorageError::Internal(format!("cannot open the database files: {e}")))??;
        Ok(Arc::new(SqliteFiles {
            files,
            reads: OnceLock::new(),
        }))
    }

    /// Before the schema is migrated: no migration under another
    /// process's feet, no start on a newer schema; and every connection of
    /// the pool opened now rather than on demand (see
    /// `Backend::pool_options`): each one acquired while the others are
    /// held is a new one.
    pub(crate) async fn before_migrations(&self, pool: &AnyPool, migrator: &Migrator) -> Result<()> {
        migrations::check_sqlite(pool, migrator, self.files.path()).await?;
        let mut held = Vec::new();
        while pool.size() < SQLITE_CONNECTIONS {
            held.push(
                pool.acquire()
                    .await
                    .map_err(|e| StorageError::Unavailable(format!("cannot open the database's connections: {e}")))?,
            );
        }
        Ok(())
    }

    /// Once the schema is migrated: the connections that read on the
    /// request's thread.
    pub(crate) fn open_readers(&self) -> Result<()> {
        let reads = ThreadReads::open(self.files.path(), THREAD_READERS)?;
        let _ = self.reads.set(reads);
        Ok(())
    }
}

impl Hook for SqliteFiles {
    /// Fails unless the files at their paths allow `access` (see
    /// [`FileSet`]).
    fn check(&self, access: Access) -> Result<()> {
        self.files.check(access)
    }

    fn versions_now(&self) -> Option<Result<Versions>> {
        let reads = self.reads.get()?;
        if let Err(e) = self.check(Access::Read) {
            return Some(Err(e));
        }
        reads.try_read()
    }

    /// A page read on the request's thread; `None` when that read cannot
    /// start at once.
    fn order_page(&self, sql: &str, arguments: &[Argument], limit: i64) -> Option<Result<Vec<OrderRecord>>> {
        let reads = self.reads.get()?;
        let values = arguments.iter().map(sqlite_value).chain([Value::Integer(limit)]);
        let metrics = crate::metrics::database();
        let started = metrics.start();
        let rows = reads.try_rows("the orders", sql, rusqlite::params_from_iter(values), |row| {
            Ok(StoredOrder {
                id: row.get(0)?,
                pet_id: row.get(1)?,
                quantity: row.get(2)?,
                ship_date: row.get(3)?,
                complete: row.get::<_, Option<i64>>(4)?.map(|c| c != 0),
                status: row.get(5)?,
            })
        })?;
        metrics.ran(Statement::OrderPage, started);
        Some(rows.and_then(|rows| rows.into_iter().map(StoredOrder::record).collect()))
    }

    fn closing(&self) {
        if let Some(reads) = self.reads.get() {
            reads.close();
        }
    }

    /// The anchor closes last: if no other process has the database open,
    /// SQLite then checkpoints the WAL into the database file and removes
    /// `-wal` and `-shm`; if the files are no longer the ones opened,
    /// nothing at their paths is touched (see [`FileSet::close`]).
    fn closed(&self) {
        self.files.close();
    }
}

/// A page's argument as rusqlite binds it.
fn sqlite_value(argument: &Argument) -> Value {
    match argument {
        Argument::Integer(value) => Value::Integer(*value),
        Argument::Text(value) => Value::Text(value.clone()),
        // As SQLite stores them, and as sqlx binds them.
        Argument::Boolean(value) => Value::Integer(i64::from(*value)),
    }
}
