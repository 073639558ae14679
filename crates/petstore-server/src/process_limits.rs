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
