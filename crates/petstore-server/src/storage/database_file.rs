//! The SQLite file the service opened, so that a file deleted or replaced
//! while serving is noticed instead of written to.
//!
//! A connection that is already open keeps writing into a deleted file
//! (an unlinked inode nobody will read again), and a new connection would
//! open whatever file now has the name. Both would acknowledge writes that
//! are then lost. The file's identity (device and inode) is taken at open,
//! and compared before every commit and every change-counter read (which
//! every request makes): on a mismatch, the storage is unavailable (503)
//! until the operator puts the file back or restarts the service.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::{Result, StorageError};

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct DatabaseFile {
    path: PathBuf,
    device: u64,
    inode: u64,
}

impl DatabaseFile {
    /// The file at `path` as it is now.
    pub(super) fn identify(path: &Path) -> Result<DatabaseFile> {
        let metadata = std::fs::metadata(path)
            .map_err(|e| StorageError::Unavailable(format!("cannot read the database file {}: {e}", path.display())))?;
        Ok(DatabaseFile {
            path: path.to_path_buf(),
            device: metadata.dev(),
            inode: metadata.ino(),
        })
    }

    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    /// Fails unless the same file is still at the same path.
    pub(super) fn verify(&self) -> Result<()> {
        let gone = |what: &str| {
            StorageError::Unavailable(format!(
                "the database file {} was {what} while the service was running; \
                 writes are refused until it is back or the service is restarted",
                self.path.display()
            ))
        };
        match std::fs::metadata(&self.path) {
            Ok(now) if now.dev() == self.device && now.ino() == self.inode => Ok(()),
            Ok(_) => Err(gone("replaced")),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(gone("deleted")),
            Err(e) => Err(StorageError::Unavailable(format!(
                "cannot check the database file {}: {e}",
                self.path.display()
            ))),
        }
    }
}
