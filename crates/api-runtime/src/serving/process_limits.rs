//! The process's open-files limit, raised as far as it may go: every
//! client connection takes a descriptor, and a soft limit of 1,024 (a
//! common default) would let a thousand idle connections lock everyone
//! else out long before the hard limit would.

use nix::sys::resource::{Resource, getrlimit, setrlimit};

/// The open-files limits after the soft one was raised to the hard one:
/// `(soft, hard)`.
pub fn raise_open_files_limit() -> nix::Result<(u64, u64)> {
    let (soft, hard) = getrlimit(Resource::RLIMIT_NOFILE)?;
    if soft < hard {
        setrlimit(Resource::RLIMIT_NOFILE, hard, hard)?;
    }
    let (soft, hard) = getrlimit(Resource::RLIMIT_NOFILE)?;
    Ok((soft, hard))
}

/// The soft open-files limit (descriptors are numbered below it), capped
/// so that a huge limit cannot make a scan of descriptor numbers long.
pub fn open_files_limit() -> u64 {
    getrlimit(Resource::RLIMIT_NOFILE).map_or(1024, |(soft, _)| soft.min(1 << 20))
}
