//! The series an operation's static table holds (`Operation::metrics`),
//! kept apart from what fills them, so that the tables depend on this and
//! not on the registry, which reads the tables.

use std::sync::OnceLock;

use super::sharded::{ShardedCounter, ShardedHistogram};

/// An operation's series, resolved at its first use: recording a request
/// is then a histogram observation and an atomic add, with no lookup by
/// labels. One lives in each operation's static table.
pub struct OperationSeries(pub(super) OnceLock<Series>);

pub(super) struct Series {
    pub(super) latency: ShardedHistogram,
    /// By status class, `1xx` to `5xx`: each series appears at its class's
    /// first request (`2xx` at `declare`).
    pub(super) requests: [OnceLock<ShardedCounter>; 5],
}

impl OperationSeries {
    pub const fn new() -> Self {
        OperationSeries(OnceLock::new())
    }
}

impl Default for OperationSeries {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for OperationSeries {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OperationSeries")
    }
}
