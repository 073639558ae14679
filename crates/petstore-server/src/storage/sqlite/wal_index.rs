//! SQLite's WAL-index header, looked at in the `-shm` file without a lock,
//! the way SQLite's own readers look at it before they take one: in a
//! shared mapping of the file, as SQLite maps it.
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
//! Why a mapping: every request looks, and a look by `pread` was one of a
//! cached list's four system calls (its share of the server's CPU time a
//! request, measured against the dropshot floor, in
//! `xtask/src/load/bench/notes.md`). This file is the workspace's one use
//! of `unsafe` (the tidy test `unsafe_code_is_confined` holds it to that):
//! mapping a file and reading memory that SQLite writes, which no safe
//! interface offers. What keeps it sound:
//! - the mapping is read only through volatile reads of whole words, never
//!   as a Rust reference, so memory that SQLite (in this process or
//!   another) changes meanwhile is never assumed unchanged;
//! - it covers the file's first 96 bytes, which exist: the file is at
//!   least that long when mapped, and SQLite shortens `-shm` only when a
//!   process opens the database with no other connection open anywhere,
//!   while this process's own connections stay open longer than the
//!   mapping (`ThreadReads::close` drops it before closing them). A file
//!   shortened anyway would be a fault (SIGBUS), not a wrong answer;
//! - it is unmapped once, on drop, after which nothing can read it.
//!
//! The file is mapped once, while the connections that read the counters
//! hold it open: every SQLite connection of this process shares one index
//! (one SQLite library, one shared-memory node per database file), so the
//! header looked at is the one their reads begin from. A `-shm` replaced
//! at its path is the file identity check's to refuse (`file_set/`), before
//! any look.
#![allow(unsafe_code)]

use std::fs::File;
use std::num::NonZeroUsize;
use std::path::Path;
use std::ptr::NonNull;

use nix::sys::mman::{MapFlags, ProtFlags, mmap, munmap};

/// One copy: twelve 32-bit words.
const HEADER_BYTES: usize = 48;
/// Both copies, as mapped.
const MAPPED_BYTES: usize = 2 * HEADER_BYTES;
const MAPPED_WORDS: usize = MAPPED_BYTES / 4;

/// One header, as its bytes: compared, never interpreted but for
/// `isInit`.
pub(super) type Header = [u8; HEADER_BYTES];

/// The start of the `-shm` file, mapped shared and read-only.
pub(super) struct WalIndex {
    /// Page-aligned, [`MAPPED_BYTES`] long, valid until dropped.
    words: NonNull<u32>,
}

// SAFETY: the mapping is read-only and read only by volatile reads, which
// any thread may make at once; it is unmapped only on drop.
unsafe impl Send for WalIndex {}
// SAFETY: as for `Send`: `&WalIndex` only reads.
unsafe impl Sync for WalIndex {}

impl WalIndex {
    /// Maps the start of the `-shm` file at `path`; `None` when it cannot
    /// be, and callers always read.
    pub(super) fn open(path: &Path) -> Option<WalIndex> {
        let file = File::open(path).ok()?;
        // Mapped past the file's end, the header would fault when read.
        if file.metadata().ok()?.len() < MAPPED_BYTES as u64 {
            return None;
        }
        let length = NonZeroUsize::new(MAPPED_BYTES)?;
        // SAFETY: a new mapping of our own choosing (no address given), of
        // bytes the file holds (checked above); the file's descriptor may
        // close once it is made. What reads it: see the module's doc.
        let mapped = unsafe { mmap(None, length, ProtFlags::PROT_READ, MapFlags::MAP_SHARED, &file, 0) }.ok()?;
        Some(WalIndex { words: mapped.cast() })
    }

    /// The header now, when its two copies agree and it is initialized.
    pub(super) fn header(&self) -> Option<Header> {
        let mut both = [0u8; MAPPED_BYTES];
        for (index, bytes) in both.chunks_exact_mut(4).enumerate().take(MAPPED_WORDS) {
            // SAFETY: `index` < MAPPED_WORDS, so the word lies in the
            // mapping, which is page-aligned (so the word is aligned) and
            // valid while `self` is; volatile, because SQLite writes it.
            let word = unsafe { self.words.as_ptr().add(index).read_volatile() };
            bytes.copy_from_slice(&word.to_ne_bytes());
        }
        let (first, second) = both.split_at(HEADER_BYTES);
        // `isInit`, the byte at offset 12: zero until a connection has
        // built the index.
        (first == second && first[12] != 0).then(|| first.try_into().expect("48 bytes"))
    }
}

impl Drop for WalIndex {
    fn drop(&mut self) {
        // SAFETY: the mapping `open` made, unmapped once: `self` goes with
        // it, and nothing else holds its address.
        let _ = unsafe { munmap(self.words.cast(), MAPPED_BYTES) };
    }
}
