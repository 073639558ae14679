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
//! header costs one `pread` of 96 bytes.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use rusqlite::{Connection, ErrorCode, OpenFlags, Params, Row};

use crate::metrics::{Statement, database};

use super::backend::PAGE_CACHE_KIB;
use super::wal_index::{Header, WalIndex};
use super::{KeysVersion, OrdersVersion, Result, StorageError, Versions};

const READ: &str = "SELECT counter, keys_counter FROM changes WHERE id = 1";

pub(super) struct ThreadReads {
    /// `None` once closed.
    connections: Vec<Mutex<Option<Connection>>>,
    /// The `-shm` file's header; `None` if it could not be opened (every
    /// call then reads).
    wal_index: Option<WalIndex>,
    /// The header seen before a read, and what that read found.
    last: Mutex<Option<(Header, Versions)>>,
    /// Set by [`ThreadReads::close`]: a look at the header uses no
    /// connection, so it must be told.
    closed: AtomicBool,
    /// Reads made, for the tests that prove the header saved them.
    #[cfg(test)]
    reads: std::sync::atomic::AtomicUsize,
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
            wal_index: WalIndex::open(Path::new(&shm)),
            last: Mutex::new(None),
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
        let header = self.wal_index.as_ref().and_then(WalIndex::header);
        if let Some(header) = header {
            let last = self.last.lock().unwrap_or_else(|p| p.into_inner());
            if let Some((seen, versions)) = *last
                && seen == header
            {
                return Some(Ok(versions));
            }
        }
        let read = self.read()?;
        if let (Some(header), Ok(versions)) = (header, &read) {
            *self.last.lock().unwrap_or_else(|p| p.into_inner()) = Some((header, *versions));
        }
        Some(read)
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
        for connection in &self.connections {
            connection
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .take();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn database(dir: &Path) -> (std::path::PathBuf, Connection) {
        let path = dir.join("counters.db");
        let writer = Connection::open(&path).unwrap();
        writer
            .execute_batch(
                "PRAGMA journal_mode = WAL;
                 CREATE TABLE changes (id INTEGER PRIMARY KEY, counter INTEGER NOT NULL, keys_counter INTEGER NOT NULL);
                 INSERT INTO changes VALUES (1, 0, 0);",
            )
            .unwrap();
        (path, writer)
    }

    #[test]
    fn every_connection_caches_at_most_page_cache_kib() {
        let dir = tempfile::tempdir().unwrap();
        let (path, _writer) = database(dir.path());
        let reads = ThreadReads::open(&path, 3).unwrap();
        for connection in &reads.connections {
            let guard = connection.lock().unwrap();
            let size: i64 = guard
                .as_ref()
                .unwrap()
                .query_row("PRAGMA cache_size", [], |row| row.get(0))
                .unwrap();
            assert_eq!(size, -i64::from(PAGE_CACHE_KIB));
        }
    }

    #[test]
    fn a_read_sees_every_commit_before_it() {
        let dir = tempfile::tempdir().unwrap();
        let (path, writer) = database(dir.path());
        let reads = ThreadReads::open(&path, 2).unwrap();
        for n in 1..=3 {
            writer
                .execute("UPDATE changes SET counter = ?1, keys_counter = ?1 * 10", [n])
                .unwrap();
            let versions = reads.try_read().unwrap().unwrap();
            assert_eq!(versions.orders, OrdersVersion(n));
            assert_eq!(versions.keys, KeysVersion(n * 10));
        }
    }

    #[test]
    fn a_write_in_progress_does_not_hold_a_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let (path, writer) = database(dir.path());
        let reads = ThreadReads::open(&path, 1).unwrap();
        writer
            .execute_batch("BEGIN IMMEDIATE; UPDATE changes SET counter = 5;")
            .unwrap();
        // Not committed: the read sees the committed state, at once.
        assert_eq!(reads.try_read().unwrap().unwrap().orders, OrdersVersion(0));
        writer.execute_batch("COMMIT").unwrap();
        assert_eq!(reads.try_read().unwrap().unwrap().orders, OrdersVersion(5));
    }

    #[test]
    fn with_every_connection_in_use_the_caller_reads_elsewhere() {
        let dir = tempfile::tempdir().unwrap();
        let (path, _writer) = database(dir.path());
        let reads = ThreadReads::open(&path, 1).unwrap();
        let _in_use = reads.connections[0].lock().unwrap();
        assert!(reads.try_read().is_none());
    }

    #[test]
    fn a_busy_database_sends_the_caller_elsewhere() {
        let dir = tempfile::tempdir().unwrap();
        let (path, writer) = database(dir.path());
        // An exclusive lock in rollback-journal mode stops every reader (a
        // WAL reader never waits; and once readers hold the WAL open, the
        // mode cannot change: it changes first).
        writer.execute_batch("PRAGMA journal_mode = DELETE").unwrap();
        let reads = ThreadReads::open(&path, 1).unwrap();
        writer
            .execute_batch("BEGIN EXCLUSIVE; UPDATE changes SET counter = 1;")
            .unwrap();
        assert!(reads.try_read().is_none(), "busy: read through the pool, which waits");
        writer.execute_batch("COMMIT").unwrap();
        assert_eq!(reads.try_read().unwrap().unwrap().orders, OrdersVersion(1));
    }

    #[test]
    fn a_missing_file_is_not_created() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("absent.db");
        assert!(ThreadReads::open(&path, 1).is_err());
        assert!(!path.exists());
    }

    /// A connection that first reads after the WAL is deleted would open
    /// the WAL by path and create a new one there, which the file watcher
    /// must take for a foreign file (and then refuse reads): every
    /// connection opens the WAL when it is opened.
    #[test]
    fn a_first_read_after_the_wal_is_deleted_creates_no_wal() {
        let dir = tempfile::tempdir().unwrap();
        let (path, _writer) = database(dir.path());
        let reads = ThreadReads::open(&path, 3).unwrap();
        let wal = dir.path().join("counters.db-wal");
        std::fs::remove_file(&wal).unwrap();
        for connection in &reads.connections {
            let connection = connection.lock().unwrap();
            let counter: i64 = connection
                .as_ref()
                .unwrap()
                .query_row("SELECT counter FROM changes WHERE id = 1", [], |row| row.get(0))
                .unwrap();
            assert_eq!(counter, 0);
        }
        assert!(!wal.exists(), "a reader created a new WAL at the deleted one's path");
    }

    /// The header saves the read while nothing is committed, and any
    /// commit, by any connection, brings it back.
    #[test]
    fn a_read_is_made_only_after_a_commit() {
        let dir = tempfile::tempdir().unwrap();
        let (path, writer) = database(dir.path());
        let reads = ThreadReads::open(&path, 2).unwrap();
        assert!(reads.wal_index.is_some(), "the -shm file is mapped");
        let made = || reads.reads.load(Ordering::Relaxed);
        assert_eq!(reads.try_read().unwrap().unwrap().orders, OrdersVersion(0));
        assert_eq!(made(), 1);
        for _ in 0..5 {
            assert_eq!(reads.try_read().unwrap().unwrap().orders, OrdersVersion(0));
        }
        assert_eq!(made(), 1, "nothing committed: no read");
        for n in 1..=3 {
            writer.execute("UPDATE changes SET counter = ?1", [n]).unwrap();
            assert_eq!(reads.try_read().unwrap().unwrap().orders, OrdersVersion(n));
            assert_eq!(reads.try_read().unwrap().unwrap().orders, OrdersVersion(n));
        }
        assert_eq!(made(), 4, "one read per commit");
        // A change elsewhere than the counters moves the header too: a
        // read, which finds the same counters.
        writer.execute("CREATE TABLE unrelated (x)", []).unwrap();
        assert_eq!(reads.try_read().unwrap().unwrap().orders, OrdersVersion(3));
        assert_eq!(made(), 5);
        // A transaction that rewrites no byte writes no frame: no read.
        writer.execute("UPDATE changes SET counter = counter", []).unwrap();
        assert_eq!(reads.try_read().unwrap().unwrap().orders, OrdersVersion(3));
        assert_eq!(made(), 5);
    }

    /// After a checkpoint restarts the WAL, the same number of frames
    /// holds other data: the salts tell the headers apart.
    #[test]
    fn a_wal_restart_is_not_taken_for_no_change() {
        let dir = tempfile::tempdir().unwrap();
        let (path, writer) = database(dir.path());
        let reads = ThreadReads::open(&path, 1).unwrap();
        for n in 1..=4 {
            writer
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| row.get::<_, i64>(0))
                .unwrap();
            // One frame after each restart: the same `mxFrame` each time.
            writer.execute("UPDATE changes SET counter = ?1", [n]).unwrap();
            assert_eq!(reads.try_read().unwrap().unwrap().orders, OrdersVersion(n));
        }
    }

    /// A header in the middle of being written (its copies differ) is not
    /// trusted: a read is made.
    #[test]
    fn copies_that_differ_send_the_caller_to_a_read() {
        let dir = tempfile::tempdir().unwrap();
        let (path, _writer) = database(dir.path());
        let reads = ThreadReads::open(&path, 1).unwrap();
        reads.try_read().unwrap().unwrap();
        let index = reads.wal_index.as_ref().unwrap();
        let header = index.header().unwrap();
        let mut torn = header;
        // The second copy as a writer leaves it first (`iChange`, at
        // offset 8, moved).
        torn[8] = torn[8].wrapping_add(1);
        let shm = format!("{}-shm", path.display());
        let file = std::fs::OpenOptions::new().write(true).open(&shm).unwrap();
        std::os::unix::fs::FileExt::write_all_at(&file, &torn, 48).unwrap();
        assert_eq!(index.header(), None, "copies that differ");
        // SQLite's own read then rebuilds the index (or finds it busy).
        let _ = reads.try_read();
        assert_eq!(reads.reads.load(Ordering::Relaxed), 2);
    }

    #[test]
    fn rows_are_read_here_unless_no_connection_is_free() {
        let dir = tempfile::tempdir().unwrap();
        let (path, writer) = database(dir.path());
        writer
            .execute_batch("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3);")
            .unwrap();
        let reads = ThreadReads::open(&path, 1).unwrap();
        let read = |after: i64| {
            reads.try_rows("t", "SELECT x FROM t WHERE x > $1 ORDER BY x", [after], |row| {
                row.get::<_, i64>(0)
            })
        };
        assert_eq!(read(1).unwrap().unwrap(), [2, 3]);
        let failed = reads.try_rows("the rows of u", "SELECT x FROM u", [], |row| row.get::<_, i64>(0));
        let error = failed.unwrap().unwrap_err().to_string();
        assert!(error.contains("cannot read the rows of u"), "{error}");
        let _in_use = reads.connections[0].lock().unwrap();
        assert!(read(0).is_none(), "read through the pool instead");
    }

    #[test]
    fn closed_readers_send_the_caller_elsewhere() {
        let dir = tempfile::tempdir().unwrap();
        let (path, _writer) = database(dir.path());
        let reads = ThreadReads::open(&path, 2).unwrap();
        reads.close();
        assert!(reads.try_read().is_none());
    }
}
