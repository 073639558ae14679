//! The SQLite file and its two companions, `-wal` and `-shm`, watched so
//! that deleting or replacing any of them while serving never costs an
//! acknowledged write and never corrupts another file.
//!
//! SQLite keeps committed changes in `-wal` until a checkpoint copies them
//! into the database file, and indexes them in `-shm`. Each connection
//! opens the three files once and keeps its descriptors. So, while serving:
//! - `-wal` deleted: commits go on into the unlinked file, and are gone
//!   after a kill -9;
//! - `-shm` deleted: the next process to open the database builds an index
//!   of its own, and two processes then write one WAL without a common lock;
//! - the database file replaced (a backup restored with `mv`): whoever
//!   opens it next replays the old file's `-wal` into it, and SQLite's last
//!   connection deletes `-wal` and `-shm` *by path* when it closes, whoever
//!   they belong to by then.
//!
//! So the three files' identities (device and inode) are taken at open, and
//! what is at their paths is observed before a write commits, after it
//! commits (before it is acknowledged), at every change-counter read (every
//! request; a read looks only after an inotify event, see
//! `path_events.rs`), before a pooled connection opens, and by a watcher
//! thread every few milliseconds. When it changes, the watcher, through the
//! anchor connection:
//! 1. checkpoints: every committed change is copied from the WAL (still
//!    open through the anchor) into the database file, which SQLite then
//!    fsyncs (`synchronous = FULL`), and the WAL is emptied;
//! 2. if another file now has the database's name, removes the old `-wal`
//!    and `-shm` from beside it, if they are still ours;
//! 3. logs an error saying what happened and what to do.
//!
//! Writes get 503 until the three are as they were (the same files put
//! back), or the service is restarted. Reads go on while the database file
//! is ours and nothing foreign sits at a companion's path.
//!
//! The anchor is a connection opened before any other and closed after
//! all. While it is open no other connection of this process is the
//! database's last, so none of them checkpoints or deletes anything by path
//! when it closes. At close the anchor is closed (SQLite's last close then
//! checkpoints and removes `-wal` and `-shm`) only if the three files are
//! still ours; otherwise it is leaked, and the process's exit releases it
//! without touching any path.
//!
//! Why not SQLite's own means: a WAL header holds no trace of the database
//! it belongs to (see README, "What does not hold"), and keeping the WAL on
//! close (`SQLITE_FCNTL_PERSIST_WAL`) needs a file control that neither
//! sqlx nor safe rusqlite exposes.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex, Weak};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};
use slog::Logger;

use super::path_events::PathEvents;
use super::{Result, StorageError};

/// How often the watcher looks when nobody has told it of a change.
const WATCH_EVERY: Duration = Duration::from_millis(20);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Identity {
    device: u64,
    inode: u64,
}

impl Identity {
    fn of(metadata: &std::fs::Metadata) -> Identity {
        Identity {
            device: metadata.dev(),
            inode: metadata.ino(),
        }
    }
}

/// One of the three paths, and the file that was there at open.
struct Watched {
    path: PathBuf,
    opened: Identity,
}

impl Watched {
    fn take(path: PathBuf) -> std::io::Result<Watched> {
        let opened = Identity::of(&std::fs::metadata(&path)?);
        Ok(Watched { path, opened })
    }

    /// What is at the path now, and its mode bits.
    fn look(&self) -> (Found, u32) {
        match std::fs::metadata(&self.path) {
            Ok(m) if Identity::of(&m) == self.opened => (Found::Ours, m.mode()),
            Ok(m) => (Found::Other, m.mode()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Found::Missing, 0),
            Err(_) => (Found::Unreadable, 0),
        }
    }
}

/// What is at one of the three paths, against what was there at open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Found {
    Ours,
    Missing,
    Other,
    /// It cannot be looked at (permissions, an I/O error).
    Unreadable,
}

/// What is at the three paths now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Situation {
    database: Found,
    wal: Found,
    shm: Found,
    /// The database file's mode allows nobody to write it (`chmod a-w`).
    read_only: bool,
}

impl Situation {
    const AS_OPENED: Situation = Situation {
        database: Found::Ours,
        wal: Found::Ours,
        shm: Found::Ours,
        read_only: false,
    };

    /// The three files are the ones opened: a connection may open them.
    fn intact(self) -> bool {
        let Situation { database, wal, shm, .. } = self;
        [database, wal, shm] == [Found::Ours; 3]
    }

    fn writable(self) -> bool {
        self.intact() && !self.read_only
    }

    /// What the connections read is what is at the paths: the database
    /// file is ours, and no other file sits at a companion's path (another
    /// process's index or WAL, which ours cannot see).
    fn readable(self) -> bool {
        self.database == Found::Ours
            && [self.wal, self.shm]
                .iter()
                .all(|f| matches!(f, Found::Ours | Found::Missing))
    }

    /// One byte, so that callers compare it with the watcher's without a lock.
    fn code(self) -> u8 {
        let bits = |f: Found| match f {
            Found::Ours => 0,
            Found::Missing => 1,
            Found::Other => 2,
            Found::Unreadable => 3,
        };
        bits(self.database) | bits(self.wal) << 2 | bits(self.shm) << 4 | u8::from(self.read_only) << 6
    }
}

/// What a caller is about to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Access {
    /// Read through connections already open.
    Read,
    /// Commit, or acknowledge a commit.
    Write,
    /// Open a new connection (which would create a `-wal` or `-shm` that
    /// is missing, beside whatever file has the name).
    Connect,
}

/// The database file's path and its companions'.
#[derive(Debug, Clone)]
struct Paths {
    database: PathBuf,
    wal: PathBuf,
    shm: PathBuf,
}

impl Paths {
    /// SQLite names the companions after the database's path with
    /// symbolic links resolved.
    fn of(database: &Path) -> Result<Paths> {
        let resolved = std::fs::canonicalize(database).map_err(|e| {
            StorageError::Unavailable(format!("cannot resolve the database path {}: {e}", database.display()))
        })?;
        let beside = |suffix: &str| {
            let mut name = resolved.clone().into_os_string();
            name.push(suffix);
            PathBuf::from(name)
        };
        Ok(Paths {
            wal: beside("-wal"),
            shm: beside("-shm"),
            database: database.to_path_buf(),
        })
    }
}

pub(super) struct FileSet {
    database: Watched,
    wal: Watched,
    shm: Watched,
    /// Tells reads when they need not look; `None` where its events
    /// cannot stand for the paths.
    events: Option<PathEvents>,
    /// `None` once closed (or leaked at close).
    anchor: Mutex<Option<Connection>>,
    /// The situation the watcher last acted on ([`Situation::code`]).
    handled: AtomicU8,
    watcher: Arc<Wake>,
    thread: Mutex<Option<JoinHandle<()>>>,
    log: Logger,
}

/// Wakes the watcher early, or stops it.
#[derive(Default)]
struct Wake {
    stop: Mutex<bool>,
    signal: Condvar,
}

impl FileSet {
    /// Opens the anchor on the existing database at `path` (putting it in
    /// WAL mode), takes the three files' identities, and starts watching.
    pub(super) fn open(path: &Path, wait: Duration, log: Logger) -> Result<Arc<FileSet>> {
        let unavailable = |e: &dyn std::fmt::Display| {
            // The usual reason a file that opens cannot be read in WAL mode.
            let hint = match Paths::of(path) {
                Ok(paths) if !paths.wal.exists() || !paths.shm.exists() => format!(
                    " (SQLite keeps {} and {} beside it: its folder must be writable)",
                    paths.wal.display(),
                    paths.shm.display()
                ),
                _ => String::new(),
            };
            StorageError::Unavailable(format!("cannot open the database {}: {e}{hint}", path.display()))
        };
        // Without SQLITE_OPEN_CREATE: a missing file is an error, never a
        // new empty database.
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let anchor = Connection::open_with_flags(path, flags).map_err(|e| unavailable(&e))?;
        anchor.busy_timeout(wait).map_err(|e| unavailable(&e))?;
        let mode: String = anchor
            .query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))
            .map_err(|e| unavailable(&e))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(unavailable(&format!(
                "it cannot be put in WAL mode (journal_mode is {mode})"
            )));
        }
        // A read opens `-wal` and `-shm`, and takes the shared lock on the
        // database file that a connection in WAL mode keeps until it closes.
        anchor
            .execute_batch("PRAGMA synchronous = FULL")
            .and_then(|()| anchor.query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get::<_, i64>(0)))
            .map_err(|e| unavailable(&e))?;
        let paths = Paths::of(path)?;
        let take =
            |path: PathBuf| Watched::take(path.clone()).map_err(|e| unavailable(&format!("{}: {e}", path.display())));
        // Its first answer is "look": the watches begin before that look.
        let events = PathEvents::watch(&paths.database);
        let files = Arc::new(FileSet {
            events,
            database: take(paths.database)?,
            wal: take(paths.wal)?,
            shm: take(paths.shm)?,
            anchor: Mutex::new(Some(anchor)),
            handled: AtomicU8::new(Situation::AS_OPENED.code()),
            watcher: Arc::new(Wake::default()),
            thread: Mutex::new(None),
            log,
        });
        // The watcher holds the files weakly: dropping the storage ends it.
        let (weak, wake) = (Arc::downgrade(&files), files.watcher.clone());
        let thread = std::thread::Builder::new()
            .name("sqlite-files".into())
            .spawn(move || watch(weak, wake))
            .map_err(|e| StorageError::Internal(format!("cannot start the database file watcher: {e}")))?;
        *files.thread.lock().unwrap_or_else(|p| p.into_inner()) = Some(thread);
        Ok(files)
    }

    pub(super) fn path(&self) -> &Path {
        &self.database.path
    }

    /// Fails unless what is at the paths now allows `access`. A change
    /// the watcher has not acted on yet wakes it; the caller does not wait.
    ///
    /// A read skips the look while the path events say nothing changed
    /// since a look that found the paths readable (`path_events.rs`).
    pub(super) fn check(&self, access: Access) -> Result<()> {
        match &self.events {
            Some(events) if access == Access::Read && events.trusted() => {
                if events.unchanged() {
                    return Ok(());
                }
                events.look(|| self.look(access))
            }
            _ => self.look(access),
        }
    }

    /// [`FileSet::check`] by a look at the three paths.
    fn look(&self, access: Access) -> Result<()> {
        let now = self.observe();
        if now.code() != self.handled.load(Ordering::Acquire) {
            self.watcher.signal.notify_one();
        }
        let allowed = match access {
            Access::Read => now.readable(),
            Access::Write => now.writable(),
            Access::Connect => now.intact(),
        };
        match allowed {
            true => Ok(()),
            false => Err(StorageError::Unavailable(self.problem(now))),
        }
    }

    fn observe(&self) -> Situation {
        let (database, mode) = self.database.look();
        Situation {
            database,
            wal: self.wal.look().0,
            shm: self.shm.look().0,
            read_only: database == Found::Ours && mode & 0o222 == 0,
        }
    }

    /// What happened, and what the operator should do.
    fn problem(&self, now: Situation) -> String {
        let database = self.database.path.display();
        let changed = |found: Found| match found {
            Found::Missing => "deleted",
            Found::Other => "replaced by another file",
            Found::Unreadable => "made impossible to check",
            Found::Ours => "kept",
        };
        if now.database == Found::Other {
            return format!(
                "the database file {database} was replaced while the service was running; nothing more is \
                 written to either file, and the old file's -wal and -shm are removed from beside the new one. \
                 Restart the service to serve the new file"
            );
        }
        if now.database != Found::Ours {
            return format!(
                "the database file {database} was {} while the service was running; writes are refused \
                 until it is back or the service is restarted",
                changed(now.database)
            );
        }
        for (found, path) in [(now.wal, &self.wal.path), (now.shm, &self.shm.path)] {
            if found != Found::Ours {
                // Whether a file at a companion's path belongs to this
                // database cannot be told from SQLite's formats, so it is
                // left alone; the operator knows where it came from.
                let foreign = match found {
                    Found::Other => format!(
                        " Stop the service and, unless {} was made by another process using this database \
                         after the deletion, remove it before the next start: an old -wal would be replayed \
                         into the database.",
                        path.display()
                    ),
                    _ => String::new(),
                };
                return format!(
                    "{} was {} while the service was running; what was committed is copied into {database}, \
                     and writes are refused until the service is restarted.{foreign} Never delete, copy or \
                     move a database's -wal or -shm while anything has it open",
                    path.display(),
                    changed(found)
                );
            }
        }
        if now.read_only {
            return format!(
                "the database file {database} was made read-only while the service was running; writes \
                 are refused until it is writable again"
            );
        }
        format!("the database files {database}, -wal and -shm are as they were opened")
    }

    /// The watcher's response to a change: make what was committed durable
    /// in the database file, keep the old companions from a new file, and
    /// say so. Runs on the watcher's thread only.
    fn act(&self, now: Situation) {
        if now.code() == self.handled.load(Ordering::Acquire) {
            return;
        }
        if now.intact() && !now.read_only {
            slog::info!(self.log, "the database files are as they were opened again; writes resume";
                "database" => %self.database.path.display());
            self.handled.store(now.code(), Ordering::Release);
            return;
        }
        let moved = [now.database, now.wal, now.shm]
            .iter()
            .any(|found| *found != Found::Ours);
        if moved {
            match self.checkpoint() {
                Ok(()) => slog::info!(self.log, "every committed change is in the database file";
                    "database" => %self.database.path.display()),
                Err(e) => slog::error!(self.log, "cannot copy the WAL into the database file"; "error" => e),
            }
        }
        if now.database == Found::Other {
            self.remove_companions();
        }
        slog::error!(self.log, "{}", self.problem(now));
        // After the removals, what is at the paths is what was acted on.
        self.handled.store(self.observe().code(), Ordering::Release);
    }

    /// Copies every committed frame of the WAL into the database file
    /// through the anchor (whose descriptors are the files opened, whatever
    /// the paths hold now), fsyncs it, and empties the WAL.
    fn checkpoint(&self) -> std::result::Result<(), String> {
        let anchor = self.anchor.lock().unwrap_or_else(|p| p.into_inner());
        let anchor = anchor.as_ref().ok_or("the storage is closed")?;
        let busy: i64 = anchor
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| row.get(0))
            .map_err(|e| e.to_string())?;
        match busy {
            0 => Ok(()),
            _ => Err("another connection kept reading for longer than the wait limit".into()),
        }
    }

    /// Removes `-wal` and `-shm` from the paths if they are still the files
    /// opened: they belong to a database file that no longer has the name.
    fn remove_companions(&self) {
        for companion in [&self.wal, &self.shm] {
            if companion.look().0 == Found::Ours
                && let Err(e) = std::fs::remove_file(&companion.path)
            {
                slog::error!(self.log, "cannot remove a companion of the replaced database file";
                    "path" => %companion.path.display(), "error" => %e);
            }
        }
    }

    /// Stops the watcher, then closes the anchor if the three files are
    /// still ours, after every other connection. Otherwise the anchor is
    /// leaked, so that SQLite's last close never checkpoints into, or
    /// deletes, files that are not ours; and if the database file is gone
    /// from its path, its companions are removed.
    pub(super) fn close(&self) {
        *self.watcher.stop.lock().unwrap_or_else(|p| p.into_inner()) = true;
        self.watcher.signal.notify_all();
        let thread = self.thread.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(thread) = thread
            && thread.thread().id() != std::thread::current().id()
        {
            let _ = thread.join();
        }
        let Some(anchor) = self.anchor.lock().unwrap_or_else(|p| p.into_inner()).take() else {
            return;
        };
        let now = self.observe();
        if now.intact() {
            drop(anchor);
            return;
        }
        if now.database != Found::Ours {
            self.remove_companions();
        }
        slog::warn!(self.log, "the database files were not as opened; closed without touching them";
            "database" => %self.database.path.display());
        std::mem::forget(anchor);
    }
}

impl Drop for FileSet {
    fn drop(&mut self) {
        self.close();
    }
}

/// The watcher's thread: looks every [`WATCH_EVERY`], or at once when a
/// caller saw a change, until stopped or the files are dropped.
fn watch(files: Weak<FileSet>, wake: Arc<Wake>) {
    loop {
        {
            let stop = wake.stop.lock().unwrap_or_else(|p| p.into_inner());
            if *stop {
                return;
            }
            let (stop, _) = wake
                .signal
                .wait_timeout(stop, WATCH_EVERY)
                .unwrap_or_else(|p| p.into_inner());
            if *stop {
                return;
            }
        }
        let Some(files) = files.upgrade() else {
            return;
        };
        files.act(files.observe());
    }
}

#[cfg(test)]
mod tests {
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
}
