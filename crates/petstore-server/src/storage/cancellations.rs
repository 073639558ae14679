//! The cancels this process committed, with the orders versions each
//! commit went from and to.
//!
//! A change to the orders makes the list cache stale, and rebuilding it
//! reads and serializes every order. When the only changes since the cached
//! list are this process's cancels, the list without the cancelled orders
//! is the new list: [`Cancellations::since`] says which orders those are,
//! and only when the versions chain without a gap (a gap is a change made
//! by someone else: another instance, the CLI), so a list patched from it
//! is exactly the list at the version it is labelled with.

use std::collections::VecDeque;
use std::sync::Mutex;

use super::OrdersVersion;

/// Commits remembered; a cache older than the oldest is rebuilt.
const KEPT: usize = 64;

/// One committed transaction's cancels.
struct Commit {
    before: OrdersVersion,
    after: OrdersVersion,
    ids: Vec<i64>,
}

#[derive(Default)]
pub(super) struct Cancellations {
    commits: Mutex<VecDeque<Commit>>,
}

impl Cancellations {
    /// A transaction that took the orders from `before` to `after`, and did
    /// nothing to them but cancel `ids`.
    pub(super) fn record(&self, before: OrdersVersion, after: OrdersVersion, ids: Vec<i64>) {
        let mut commits = self.commits.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if commits.len() == KEPT {
            commits.pop_front();
        }
        commits.push_back(Commit { before, after, ids });
    }

    /// The orders cancelled since `version`, and the version after the
    /// last of those commits: `None` unless at least one commit starts at
    /// `version`. Commits are followed while each starts where the last
    /// ended.
    pub(super) fn since(&self, version: OrdersVersion) -> Option<(OrdersVersion, Vec<i64>)> {
        let commits = self.commits.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut at = version;
        let mut ids = Vec::new();
        // Commits are recorded in commit order, so a chain runs forward.
        for commit in commits.iter().skip_while(|c| c.before != version) {
            if commit.before != at {
                break;
            }
            ids.extend_from_slice(&commit.ids);
            at = commit.after;
        }
        (at != version).then_some((at, ids))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commits_chain_from_the_version_asked_for() {
        let log = Cancellations::default();
        log.record(OrdersVersion(3), OrdersVersion(5), vec![10, 11]);
        log.record(OrdersVersion(5), OrdersVersion(6), vec![12]);
        assert_eq!(log.since(OrdersVersion(3)), Some((OrdersVersion(6), vec![10, 11, 12])));
        assert_eq!(log.since(OrdersVersion(5)), Some((OrdersVersion(6), vec![12])));
        assert_eq!(log.since(OrdersVersion(6)), None, "nothing since");
        assert_eq!(log.since(OrdersVersion(4)), None, "no commit starts there");
    }

    #[test]
    fn a_change_made_elsewhere_ends_the_chain() {
        let log = Cancellations::default();
        log.record(OrdersVersion(1), OrdersVersion(2), vec![1]);
        // 2 -> 3 was someone else's (an import, another instance).
        log.record(OrdersVersion(3), OrdersVersion(4), vec![2]);
        assert_eq!(log.since(OrdersVersion(1)), Some((OrdersVersion(2), vec![1])));
        assert_eq!(log.since(OrdersVersion(2)), None);
        assert_eq!(log.since(OrdersVersion(3)), Some((OrdersVersion(4), vec![2])));
    }

    #[test]
    fn only_the_last_commits_are_kept() {
        let log = Cancellations::default();
        for n in 0..(KEPT as i64 + 10) {
            log.record(OrdersVersion(n), OrdersVersion(n + 1), vec![n]);
        }
        assert_eq!(log.since(OrdersVersion(0)), None);
        let (at, ids) = log.since(OrdersVersion(10)).unwrap();
        assert_eq!((at, ids.len()), (OrdersVersion(KEPT as i64 + 10), KEPT));
    }
}
