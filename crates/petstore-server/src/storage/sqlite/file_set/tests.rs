//! The file set against real files: deleted, replaced, made read-only,
//! moved, linked, each noticed by the next read or write.

use super::*;

fn discard() -> Logger {
    Logger::root(slog::Discard, slog::o!())
}

fn database(dir: &Path) -> (PathBuf, Connection) {
    let path = dir.join("files.db");
    let writer = Connection::open(&path).unwrap();
    writer
        .execute_batch(
            "PRAGMA journal_mode = WAL;
             CREATE TABLE t (x INTEGER);",
        )
        .unwrap();
    (path, writer)
}

fn wait_until(mut done: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while !done() {
        assert!(std::time::Instant::now() < deadline, "timed out");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn as_opened_everything_is_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _writer) = database(dir.path());
    let files = FileSet::open(&path, Duration::from_secs(1), discard()).unwrap();
    for access in [Access::Read, Access::Write, Access::Connect] {
        files.check(access).unwrap();
    }
}

#[test]
fn a_deleted_wal_is_copied_into_the_database_file_and_writes_stop() {
    let dir = tempfile::tempdir().unwrap();
    let (path, writer) = database(dir.path());
    let files = FileSet::open(&path, Duration::from_secs(1), discard()).unwrap();
    writer.execute("INSERT INTO t VALUES (1)", []).unwrap();
    std::fs::remove_file(dir.path().join("files.db-wal")).unwrap();
    let error = files.check(Access::Write).unwrap_err().to_string();
    assert!(error.contains("-wal was deleted"), "{error}");
    files.check(Access::Read).unwrap();
    assert!(files.check(Access::Connect).is_err());
    // The watcher copies the committed row into the file itself.
    wait_until(|| files.handled.load(Ordering::Acquire) != Situation::AS_OPENED.code());
    drop(writer);
    let copy = dir.path().join("copy.db");
    std::fs::copy(&path, &copy).unwrap();
    let rows: i64 = Connection::open(&copy)
        .unwrap()
        .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, 1, "the database file alone holds the committed row");
}

#[test]
fn a_read_only_file_refuses_writes_until_writable() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let (path, _writer) = database(dir.path());
    let files = FileSet::open(&path, Duration::from_secs(1), discard()).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    assert!(
        files
            .check(Access::Write)
            .unwrap_err()
            .to_string()
            .contains("read-only")
    );
    files.check(Access::Read).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    files.check(Access::Write).unwrap();
}

#[test]
fn a_replaced_file_loses_the_old_companions() {
    let dir = tempfile::tempdir().unwrap();
    let (path, writer) = database(dir.path());
    let files = FileSet::open(&path, Duration::from_secs(1), discard()).unwrap();
    writer.execute("INSERT INTO t VALUES (1)", []).unwrap();
    let other = dir.path().join("other.db");
    Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE u (y INTEGER)")
        .unwrap();
    std::fs::rename(&other, &path).unwrap();
    assert!(files.check(Access::Read).is_err());
    wait_until(|| !dir.path().join("files.db-wal").exists() && !dir.path().join("files.db-shm").exists());
    drop(writer);
    drop(files);
    let tables: i64 = Connection::open(&path)
        .unwrap()
        .query_row("SELECT count(*) FROM sqlite_schema WHERE name = 'u'", [], |r| r.get(0))
        .unwrap();
    assert_eq!(tables, 1, "the new file is intact");
}
fn read_looks(files: &FileSet) -> u64 {
    let events = files.events.as_ref().expect("inotify watches the folder");
    events.looks.load(Ordering::SeqCst)
}

#[test]
fn reads_look_at_the_paths_only_after_an_event() {
    let dir = tempfile::tempdir().unwrap();
    let (path, writer) = database(dir.path());
    let files = FileSet::open(&path, Duration::from_secs(1), discard()).unwrap();
    files.check(Access::Read).unwrap();
    assert_eq!(read_looks(&files), 1, "the first read looks");
    for _ in 0..100 {
        files.check(Access::Read).unwrap();
    }
    writer.execute("INSERT INTO t VALUES (1)", []).unwrap();
    files.check(Access::Read).unwrap();
    assert_eq!(read_looks(&files), 1, "nothing named changed: no look");
    std::fs::write(dir.path().join("unrelated"), "x").unwrap();
    files.check(Access::Read).unwrap();
    files.check(Access::Read).unwrap();
    assert_eq!(read_looks(&files), 2, "a name in the folder changed: one look");
}

/// Each change is refused by the very next read, with no wait: its
/// event is queued before the call that made it returns.
#[test]
fn every_way_to_take_the_files_away_is_refused_by_the_next_read() {
    type Change = fn(&Path, &Path);
    let changes: [(&str, Change); 6] = [
        ("the database deleted", |_, db| std::fs::remove_file(db).unwrap()),
        ("the database moved away", |dir, db| {
            std::fs::rename(db, dir.join("moved.db")).unwrap()
        }),
        ("another file moved over the database", |dir, db| {
            std::fs::write(dir.join("restored.db"), "a backup").unwrap();
            std::fs::rename(dir.join("restored.db"), db).unwrap();
        }),
        ("a foreign -shm", |dir, _| {
            std::fs::remove_file(dir.join("files.db-shm")).unwrap();
            std::fs::write(dir.join("files.db-shm"), "not ours").unwrap();
        }),
        ("the folder moved", |dir, _| {
            std::fs::rename(dir, dir.with_file_name("elsewhere")).unwrap()
        }),
        ("a folder above moved", |dir, _| {
            let above = dir.parent().unwrap();
            std::fs::rename(above, above.with_file_name("elsewhere")).unwrap()
        }),
    ];
    for (what, change) in changes {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("above").join("data");
        std::fs::create_dir_all(&dir).unwrap();
        let (path, _writer) = database(&dir);
        let files = FileSet::open(&path, Duration::from_secs(1), discard()).unwrap();
        files.check(Access::Read).unwrap();
        files.check(Access::Read).unwrap();
        change(&dir, &path);
        assert!(files.check(Access::Read).is_err(), "{what}: refused at once");
    }
}

#[test]
fn after_a_folder_moves_every_read_looks() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("data");
    std::fs::create_dir(&dir).unwrap();
    let (path, _writer) = database(&dir);
    let files = FileSet::open(&path, Duration::from_secs(1), discard()).unwrap();
    files.check(Access::Read).unwrap();
    let away = root.path().join("away");
    std::fs::rename(&dir, &away).unwrap();
    assert!(files.check(Access::Read).is_err());
    // The same folder put back: readable again. A new folder at the
    // name would not be watched, so the events are no longer trusted.
    std::fs::rename(&away, &dir).unwrap();
    files.check(Access::Read).unwrap();
    assert!(!files.events.as_ref().unwrap().trusted());
    std::fs::remove_file(&path).unwrap();
    assert!(files.check(Access::Read).is_err(), "looked without an event");
}

#[test]
fn through_a_symbolic_link_every_read_looks() {
    let root = tempfile::tempdir().unwrap();
    let (real, other) = (root.path().join("real"), root.path().join("other"));
    for dir in [&real, &other] {
        std::fs::create_dir(dir).unwrap();
    }
    let (_, _writer) = database(&real);
    let (_, _other_writer) = database(&other);
    let link = root.path().join("current");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let files = FileSet::open(&link.join("files.db"), Duration::from_secs(1), discard()).unwrap();
    assert!(files.events.is_none(), "a link may be retargeted without an event");
    files.check(Access::Read).unwrap();
    // `ln -sfn other current`: a new link renamed over the old one.
    let next = root.path().join("next");
    std::os::unix::fs::symlink(&other, &next).unwrap();
    std::fs::rename(&next, &link).unwrap();
    assert!(files.check(Access::Read).is_err());
}
