//! SQLite's WAL-index header, looked at in the `-shm` file without a lock,
//! the way SQLite's own readers look at it before they take one.
//!
//! Every commit in WAL mode rewrites the header (see SQLite's "WAL-mode
//! File Format" page): `iChange` counts transactions, `mxFrame` is the last
//! committed frame, and the salts change whenever the WAL restarts after a
//! checkpoint. A header equal to one seen earlier therefore means nothing
//! was committed since, by any connection of any process; SQLite's readers
//! rely on the same to keep their page cache.
//!
//! The header is written twice, the second copy first; copies that differ
//! are a header a writer is in the middle of, and the caller reads. A look
//! that overlaps a commit may see the header before it or after it: the
//! commit has not returned to its caller yet (SQLite writes the header
//! before it does), so either answer is one the request may get.
//!
//! The look is one `pread` of the two copies (the workspace forbids
//! `unsafe`, so the file is read rather than mapped as SQLite maps it).
//! The file is opened with `O_NOATIME` where the kernel allows it (the
//! process owns the file): a read then skips the access-time check, a
//! sixth of the `pread`'s time in a profile of cached listOrders.
//!
//! The file is opened once, while the connections that read the counters
//! hold it open: every SQLite connection of this process shares one index
//! (one SQLite library, one shared-memory node per database file), so the
//! header looked at is the one their reads begin from, for as long as the
//! storage is open. A `-shm` replaced at its path is the file identity
//! check's to refuse (`file_set/`), before any look.

use std::fs::{File, OpenOptions};
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::Path;

/// One copy: twelve 32-bit words.
const HEADER_BYTES: usize = 48;

/// One header, as its bytes: compared, never interpreted but for
/// `isInit`.
pub(super) type Header = [u8; HEADER_BYTES];

/// The `-shm` file, kept open to look at its header.
pub(super) struct WalIndex {
    file: File,
}

impl WalIndex {
    /// Opens the `-shm` file at `path`; `None` when it cannot be, and
    /// callers always read.
    pub(super) fn open(path: &Path) -> Option<WalIndex> {
        let no_atime = nix::fcntl::OFlag::O_NOATIME.bits();
        // `O_NOATIME` is refused (EPERM) on a file another user owns.
        OpenOptions::new()
            .read(true)
            .custom_flags(no_atime)
            .open(path)
            .or_else(|_| File::open(path))
            .ok()
            .map(|file| WalIndex { file })
    }

    /// The header now, when its two copies agree and it is initialized.
    pub(super) fn header(&self) -> Option<Header> {
        let mut both = [0u8; 2 * HEADER_BYTES];
        self.file.read_exact_at(&mut both, 0).ok()?;
        let (first, second) = both.split_at(HEADER_BYTES);
        // `isInit`, the byte at offset 12: zero until a connection has
        // built the index.
        (first == second && first[12] != 0).then(|| first.try_into().expect("48 bytes"))
    }
}
