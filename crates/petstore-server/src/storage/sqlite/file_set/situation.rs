//! What is at the three paths, observed: each file's identity (device and
//! inode) against the one opened, and what that allows.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::storage::{Result, StorageError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Identity {
    pub(super) device: u64,
    pub(super) inode: u64,
}

impl Identity {
    pub(super) fn of(metadata: &std::fs::Metadata) -> Identity {
        Identity {
            device: metadata.dev(),
            inode: metadata.ino(),
        }
    }
}

/// One of the three paths, and the file that was there at open.
pub(super) struct Watched {
    pub(super) path: PathBuf,
    pub(super) opened: Identity,
}

impl Watched {
    pub(super) fn take(path: PathBuf) -> std::io::Result<Watched> {
        let opened = Identity::of(&std::fs::metadata(&path)?);
        Ok(Watched { path, opened })
    }

    /// What is at the path now, and its mode bits.
    pub(super) fn look(&self) -> (Found, u32) {
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
pub(super) enum Found {
    Ours,
    Missing,
    Other,
    /// It cannot be looked at (permissions, an I/O error).
    Unreadable,
}

/// What is at the three paths now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Situation {
    pub(super) database: Found,
    pub(super) wal: Found,
    pub(super) shm: Found,
    /// The database file's mode allows nobody to write it (`chmod a-w`).
    pub(super) read_only: bool,
}

impl Situation {
    pub(super) const AS_OPENED: Situation = Situation {
        database: Found::Ours,
        wal: Found::Ours,
        shm: Found::Ours,
        read_only: false,
    };

    /// The three files are the ones opened: a connection may open them.
    pub(super) fn intact(self) -> bool {
        let Situation { database, wal, shm, .. } = self;
        [database, wal, shm] == [Found::Ours; 3]
    }

    pub(super) fn writable(self) -> bool {
        self.intact() && !self.read_only
    }

    /// What the connections read is what is at the paths: the database
    /// file is ours, and no other file sits at a companion's path (another
    /// process's index or WAL, which ours cannot see).
    pub(super) fn readable(self) -> bool {
        self.database == Found::Ours
            && [self.wal, self.shm]
                .iter()
                .all(|f| matches!(f, Found::Ours | Found::Missing))
    }

    /// One byte, so that callers compare it with the watcher's without a lock.
    pub(super) fn code(self) -> u8 {
        let bits = |f: Found| match f {
            Found::Ours => 0,
            Found::Missing => 1,
            Found::Other => 2,
            Found::Unreadable => 3,
        };
        bits(self.database) | bits(self.wal) << 2 | bits(self.shm) << 4 | u8::from(self.read_only) << 6
    }
}

/// The database file's path and its companions'.
#[derive(Debug, Clone)]
pub(super) struct Paths {
    pub(super) database: PathBuf,
    pub(super) wal: PathBuf,
    pub(super) shm: PathBuf,
}

impl Paths {
    /// SQLite names the companions after the database's path with
    /// symbolic links resolved.
    pub(super) fn of(database: &Path) -> Result<Paths> {
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
