//! Whether anything may have changed at the database's three paths since
//! they were last looked at, told by one system call without a path walk.
//!
//! The file identity check (`file_set/`) keeps a promise for every
//! request: a database file deleted or replaced, or a foreign file at a
//! companion's path, is refused by the next request. Looking at the three
//! paths costs three `statx`, each walking the path: the largest cost of a
//! cached list in a profile. The kernel can say instead when a name
//! changes: an inotify event is queued inside the `unlink` or `rename`
//! that causes it, before that call returns, so a request that arrives
//! after the change finds the event queued. A request then asks whether
//! the queue holds anything (`poll` with no timeout, which consumes
//! nothing) and looks at the paths only when it does.
//!
//! What is watched:
//! - the database's folder, for names created, deleted or moved in or
//!   out: every way to delete or replace one of the three files, or to
//!   put one at a missing companion's path;
//! - that folder and every folder above it, for being moved or deleted:
//!   each changes what the paths lead to. Then the watches no longer stand
//!   for the paths (a new folder at the old name is not watched), so the
//!   events stop being trusted and every read looks, as before.
//!
//! The events are trusted only where the path as given has no symbolic
//! link (a link retargeted changes where the path leads without an event
//! in any watched folder) and inotify is available (a user's instances are
//! limited). Elsewhere every read looks. Not seen by any event: a mount
//! over a folder of the path, and permission changes on it, which writes
//! (they look every time) and the file watcher (every 20 ms) still see.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use nix::errno::Errno;
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::inotify::{AddWatchFlags, InitFlags, Inotify};

pub(super) struct PathEvents {
    inotify: Inotify,
    /// The last look found the paths readable, and every event consumed
    /// since was consumed before a look that followed it.
    clean: AtomicBool,
    /// False once a watched folder moved or was deleted, or events were
    /// lost: the watches may no longer stand for the paths.
    trusted: AtomicBool,
    /// One look at a time: a look stands for the events consumed before it.
    looking: Mutex<()>,
    #[cfg(test)]
    pub(super) looks: std::sync::atomic::AtomicU64,
}

impl PathEvents {
    /// Watches `database`'s folder and the folders above it; `None` where
    /// the events cannot stand for the paths (a symbolic link on the way,
    /// no inotify instance left).
    pub(super) fn watch(database: &Path) -> Option<PathEvents> {
        let as_given = std::path::absolute(database).ok()?;
        if std::fs::canonicalize(database).ok()? != as_given {
            return None;
        }
        let folder = as_given.parent()?;
        let inotify = Inotify::init(InitFlags::IN_NONBLOCK | InitFlags::IN_CLOEXEC).ok()?;
        let moved_or_deleted = AddWatchFlags::IN_MOVE_SELF
            | AddWatchFlags::IN_DELETE_SELF
            | AddWatchFlags::IN_ONLYDIR
            | AddWatchFlags::IN_DONT_FOLLOW;
        let names = AddWatchFlags::IN_CREATE | AddWatchFlags::IN_DELETE | AddWatchFlags::IN_MOVE;
        inotify.add_watch(folder, moved_or_deleted | names).ok()?;
        for above in folder.ancestors().skip(1) {
            inotify.add_watch(above, moved_or_deleted).ok()?;
        }
        Some(PathEvents {
            inotify,
            clean: AtomicBool::new(false),
            trusted: AtomicBool::new(true),
            looking: Mutex::new(()),
            #[cfg(test)]
            looks: std::sync::atomic::AtomicU64::new(0),
        })
    }

    /// Whether the last look still stands for the paths: it found them
    /// readable, and no event is queued. Asked only while [`trusted`].
    ///
    /// [`trusted`]: PathEvents::trusted
    pub(super) fn unchanged(&self) -> bool {
        // The queue is asked before `clean` is read. A request that finds
        // the queue empty after another consumed an event then reads the
        // `false` that one stored before consuming it, or the `true` of a
        // look made after: never the `true` of a look older than the event.
        !self.queued() && self.clean.load(Ordering::SeqCst)
    }

    /// Whether events still stand for the paths; when not, every read
    /// looks, and [`PathEvents::look`] need not be used.
    pub(super) fn trusted(&self) -> bool {
        self.trusted.load(Ordering::SeqCst)
    }

    /// Consumes the queued events, then runs `look`; its success means
    /// the paths were found readable.
    pub(super) fn look<E>(&self, look: impl FnOnce() -> Result<(), E>) -> Result<(), E> {
        let _one = self.looking.lock().unwrap_or_else(|p| p.into_inner());
        self.clean.store(false, Ordering::SeqCst);
        if !self.consume() {
            self.trusted.store(false, Ordering::SeqCst);
        }
        #[cfg(test)]
        self.looks.fetch_add(1, Ordering::SeqCst);
        let result = look();
        self.clean.store(result.is_ok(), Ordering::SeqCst);
        result
    }

    fn queued(&self) -> bool {
        let mut fds = [PollFd::new(std::os::fd::AsFd::as_fd(&self.inotify), PollFlags::POLLIN)];
        // An error is taken as an event: the caller looks.
        !matches!(poll(&mut fds, PollTimeout::ZERO), Ok(0))
    }

    /// Reads every queued event; false when one says the watches may no
    /// longer stand for the paths (a folder moved or deleted, a watch
    /// dropped, events lost) or the queue cannot be read.
    fn consume(&self) -> bool {
        let lost = AddWatchFlags::IN_MOVE_SELF
            | AddWatchFlags::IN_DELETE_SELF
            | AddWatchFlags::IN_IGNORED
            | AddWatchFlags::IN_UNMOUNT
            | AddWatchFlags::IN_Q_OVERFLOW;
        let mut holds = true;
        loop {
            match self.inotify.read_events() {
                Ok(events) if events.is_empty() => return holds,
                Ok(events) => holds &= events.iter().all(|e| !e.mask.intersects(lost)),
                Err(Errno::EAGAIN) => return holds,
                Err(Errno::EINTR) => {}
                Err(_) => return false,
            }
        }
    }
}
