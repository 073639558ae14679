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
//! it belongs to (see docs/operating.md, "What does not hold"), and keeping the WAL on
//! close (`SQLITE_FCNTL_PERSIST_WAL`) needs a file control that neither
//! sqlx nor safe rusqlite exposes.

mod situation;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex, Weak};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};
use slog::Logger;

use super::path_events::PathEvents;
use crate::storage::hook::Access;
use crate::storage::{Result, StorageError};
use situation::{Found, Paths, Situation, Watched};

/// How often the watcher looks when nobody has told it of a change.
const WATCH_EVERY: Duration = Duration::from_millis(20);

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
mod tests;
