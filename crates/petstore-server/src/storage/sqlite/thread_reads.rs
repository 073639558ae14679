//! SQLite reads made on the request's own thread: the change counters,
//! which every request needs, and v2's pages.
//!
//! Every request reads the counters (see [`crate::versions`]). Through
//! sqlx, a read is a message to the connection's worker thread and a
//! wake-up back, and the requests waiting for it are woken in turn: on a
//! loaded server those hand-offs cost more than the read itself. Here a few
//! connections of our own, kept open, read with prepared statements where
//! the request runs. A WAL reader never waits for a writer, so a read takes
//! microseconds (the counters) or a fraction of a millisecond (a page of
//! 100 orders on its index) and blocks nothing but its own thread.
//!
//! A read that cannot start at once (every connection in use, or SQLite
//! answering `SQLITE_BUSY`) is not waited for on the request's thread: the
//! caller reads through the pool instead.
//!
//! Most requests need no read at all: when the WAL-index header is the one
//! seen before the last read ([`WalIndex`]), nothing was committed since,
//! and that read's counters are still the counters. A read transaction
//! costs its lock calls (`fcntl`) and SQLite's own work; looking at the
//! header costs no system call (it is mapped, as SQLite maps it).

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use rusqlite::{Connection, ErrorCode, OpenFlags, Params, Row};

use crate::metrics::{Statement, database};

use super::wal_index::{Header, WalIndex};
use crate::storage::backend::PAGE_CACHE_KIB;
use crate::storage::{KeysVersion, OrdersVersion, Result, StorageError, Versions};

const READ: &str = "SELECT counter, keys_counter FROM changes WHERE id = 1";

pub(super) struct ThreadReads {
    /// `None` once closed.
    connections: Vec<Mutex<Option<Connection>>>,
    /// The header, and what the last read found.
    index: Mutex<Index>,
    /// Set by [`ThreadReads::close`]: a look at the header uses no
    /// connection, so it must be told.
    closed: AtomicBool,
    /// Reads made, for the tests that prove the header saved them.
    #[cfg(test)]
    reads: std::sync::atomic::AtomicUsize,
}

struct Index {
    /// The `-shm` file's header; `None` if it could not be mapped (every
    /// call then reads), and once closed: unmapped before the connections
    /// close (see `wal_index`).
    wal_index: Option<WalIndex>,
    /// The header seen before a read, and what that read found.
    last: Option<(Header, Versions)>,
}

impl ThreadReads {
    /// `count` connections to the existing database at `path`.
    pub(super) fn open(path: &Path, count: usize) -> Result<ThreadReads> {
        let connections = (0..count)
            .map(|_| {
                // Without SQLITE_OPEN_CREATE: a missing file is an error,
                // never a new empty database.
                let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
                let connection = Connection::open_with_flags(path, flags).map_err(|e| {
                    StorageError::Unavailable(format!("cannot open {} to read its counters: {e}", path.display()))
                })?;
                connection
                    .execute_batch(&format!(
                        "PRAGMA query_only = ON; PRAGMA busy_timeout = 0; PRAGMA cache_size = -{PAGE_CACHE_KIB};"
                    ))
                    .map_err(|e| StorageError::Internal(format!("cannot set up a counter reader: {e}")))?;
                // A first read opens the WAL and its index, kept open from
                // now on, as every other connection's are: a connection
                // whose first read came after the WAL's deletion would fail
                // (or create a new WAL at its path, which reads must refuse).
                connection
                    .query_row(READ, [], |_| Ok(()))
                    .map_err(|e| StorageError::Unavailable(format!("cannot read the change counters: {e}")))?;
                Ok(Mutex::new(Some(connection)))
            })
            .collect::<Result<_>>()?;
        // The connections above hold the WAL open: SQLite keeps `-shm`
        // beside it while any connection does.
        let mut shm = path.as_os_str().to_owned();
        shm.push("-shm");
        Ok(ThreadReads {
            connections,
            index: Mutex::new(Index {
                wal_index: WalIndex::open(Path::new(&shm)),
                last: None,
            }),
            closed: AtomicBool::new(false),
            #[cfg(test)]
            reads: Default::default(),
        })
    }

    /// The counters now, or `None` when they cannot be read at once.
    pub(super) fn try_read(&self) -> Option<Result<Versions>> {
        if self.closed.load(Ordering::Acquire) {
            return None;
        }
        // Looked at before the read: a commit between the two changes the
        // header again, so the pair kept below never claims more than the
        // read saw.
        let header = {
            let index = self.lock_index();
            let header = index.wal_index.as_ref().and_then(WalIndex::header);
            if let (Some(header), Some((seen, versions))) = (header, index.last)
                && seen == header
            {
                return Some(Ok(versions));
            }
            header
        };
        let read = self.read()?;
        if let (Some(header), Ok(versions)) = (header, &read) {
            self.lock_index().last = Some((header, *versions));
        }
        Some(read)
    }

    fn lock_index(&self) -> std::sync::MutexGuard<'_, Index> {
        self.index.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The counters, in a read transaction of their own (timed as the
    /// `changes` statement: a look at the header is not one).
    fn read(&self) -> Option<Result<Versions>> {
        #[cfg(test)]
        self.reads.fetch_add(1, Ordering::Relaxed);
        let metrics = database();
        let started = metrics.start();
        let read = self.on_free_connection("the change counters", |connection| {
            connection.prepare_cached(READ)?.query_row([], |row| {
                Ok(Versions {
                    orders: OrdersVersion(row.get(0)?),
                    keys: KeysVersion(row.get(1)?),
                })
            })
        })?;
        metrics.ran(Statement::Changes, started);
        Some(read)
    }

    /// Every row `sql` selects with `params`, each taken by `row`; `None`
    /// when the read cannot start at once (the caller reads through the
    /// pool). `what` names the rows in an error.
    pub(super) fn try_rows<T>(
        &self,
        what: &str,
        sql: &str,
        params: impl Params,
        row: impl FnMut(&Row<'_>) -> rusqlite::Result<T>,
    ) -> Option<Result<Vec<T>>> {
        // Closed connections are `None`: no read starts.
        self.on_free_connection(what, |connection| {
            connection.prepare_cached(sql)?.query_map(params, row)?.collect()
        })
    }

    /// `read` on a connection no other thread is using; `None` when every
    /// one is in use, or SQLite is busy.
    fn on_free_connection<T>(
        &self,
        what: &str,
        read: impl FnOnce(&Connection) -> rusqlite::Result<T>,
    ) -> Option<Result<T>> {
        let guard = self.connections.iter().find_map(|c| c.try_lock().ok())?;
        let connection = guard.as_ref()?;
        match read(connection) {
            Ok(value) => Some(Ok(value)),
            Err(rusqlite::Error::SqliteFailure(e, _))
                if matches!(e.code, ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) =>
            {
                None
            }
            Err(e) => Some(Err(StorageError::Unavailable(format!("cannot read {what}: {e}")))),
        }
    }

    /// Closes every connection (waiting for a read in progress), so that
    /// the database's last connection can remove the WAL.
    pub(super) fn close(&self) {
        self.closed.store(true, Ordering::Release);
        // Unmapped while this process's connections still keep SQLite
        // from shortening the file.
        self.lock_index().wal_index = None;
        for connection in &self.connections {
            connection
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .take();
        }
    }
}

#[cfg(test)]
mod tests;
