//! The one hook the backend-neutral queries (`sql/`) call around their
//! statements, so that what only one backend needs stays in that
//! backend's folder: SQLite's ([`crate::storage::sqlite`]) checks its three
//! files before and after every write and reads on the request's thread;
//! PostgreSQL's ([`NoHook`]) does nothing.

use super::stored::Argument;
use super::{OrderRecord, Result, Versions};

/// What a caller is about to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// Read through connections already open.
    Read,
    /// Commit, or acknowledge a commit.
    Write,
    /// Open a new connection (which would create a `-wal` or `-shm` that
    /// is missing, beside whatever file has the name).
    Connect,
}

pub(crate) trait Hook: Send + Sync {
    /// Fails unless the database allows `access` now.
    fn check(&self, access: Access) -> Result<()>;

    /// The change counters, read on the caller's thread; `None` when they
    /// are to be read through the pool.
    fn versions_now(&self) -> Option<Result<Versions>>;

    /// A page of orders (`sql` with `arguments`, then `limit`), read on
    /// the caller's thread; `None` when it is to be read through the pool.
    fn order_page(&self, sql: &str, arguments: &[Argument], limit: i64) -> Option<Result<Vec<OrderRecord>>>;

    /// Before the pool closes.
    fn closing(&self);

    /// After the pool has closed; may block.
    fn closed(&self);
}

/// PostgreSQL's hook: nothing around the statements.
pub(crate) struct NoHook;

impl Hook for NoHook {
    fn check(&self, _: Access) -> Result<()> {
        Ok(())
    }

    fn versions_now(&self) -> Option<Result<Versions>> {
        None
    }

    fn order_page(&self, _: &str, _: &[Argument], _: i64) -> Option<Result<Vec<OrderRecord>>> {
        None
    }

    fn closing(&self) {}

    fn closed(&self) {}
}
