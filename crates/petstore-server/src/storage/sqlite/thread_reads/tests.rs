//! The reads on the request's thread against a real SQLite file: counters,
//! pages, the WAL-index look, and what a busy or closed reader does.

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
    assert!(reads.lock_index().wal_index.is_some(), "the -shm file is mapped");
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
    let header = || reads.lock_index().wal_index.as_ref().unwrap().header();
    let header_now = header().unwrap();
    let mut torn = header_now;
    // The second copy as a writer leaves it first (`iChange`, at
    // offset 8, moved).
    torn[8] = torn[8].wrapping_add(1);
    let shm = format!("{}-shm", path.display());
    let file = std::fs::OpenOptions::new().write(true).open(&shm).unwrap();
    std::os::unix::fs::FileExt::write_all_at(&file, &torn, 48).unwrap();
    assert_eq!(header(), None, "copies that differ");
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
    // Unmapped before the connections closed: a process that opens the
    // database next may shorten `-shm`.
    assert!(reads.lock_index().wal_index.is_none());
}
