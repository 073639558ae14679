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
//!
//! A commit is entered before its COMMIT is sent, as pending. Once the
//! COMMIT is sent, readers may see its version before the committing task
//! hears back (on a loaded machine, milliseconds later); a reader whose
//! chain ends at a pending commit waits for its outcome rather than read
//! every order again. A pending commit is never used: if it fails, it is
//! dropped (its version may then be reached by another transaction with
//! other changes), and the waiting readers read the orders instead.

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard};

use tokio::sync::Notify;

use super::OrdersVersion;

/// Commits remembered; a cache older than the oldest is rebuilt.
const KEPT: usize = 64;

/// One transaction's cancels.
struct Commit {
    /// Tells a pending commit's outcome apart from another's.
    serial: u64,
    before: OrdersVersion,
    after: OrdersVersion,
    ids: Vec<i64>,
    committed: bool,
}

#[derive(Default)]
struct Log {
    commits: VecDeque<Commit>,
    next_serial: u64,
}

#[derive(Default)]
pub(super) struct Cancellations {
    log: Mutex<Log>,
    /// Woken when a pending commit is settled.
    settled: Notify,
}

/// A commit entered before its COMMIT: [`PendingCommit::committed`] once
/// it has committed; dropped otherwise, which forgets it.
pub(super) struct PendingCommit<'a> {
    log: &'a Cancellations,
    serial: u64,
}

impl Cancellations {
    fn lock(&self) -> MutexGuard<'_, Log> {
        self.log.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A transaction about to commit that took the orders from `before` to
    /// `after`, and did nothing to them but cancel `ids`.
    pub(super) fn committing(&self, before: OrdersVersion, after: OrdersVersion, ids: Vec<i64>) -> PendingCommit<'_> {
        let mut log = self.lock();
        let serial = log.next_serial;
        log.next_serial += 1;
        if log.commits.len() == KEPT {
            log.commits.pop_front();
        }
        log.commits.push_back(Commit {
            serial,
            before,
            after,
            ids,
            committed: false,
        });
        PendingCommit { log: self, serial }
    }

    /// The orders cancelled since `version`, and the version after the
    /// last of those commits, if that is `seen` or later: commits are
    /// followed while each starts where the last ended. `None` when no
    /// such chain reaches `seen`.
    pub(super) async fn since(&self, version: OrdersVersion, seen: OrdersVersion) -> Option<(OrdersVersion, Vec<i64>)> {
        loop {
            // Registered before the log is read, so that a settlement
            // between the read and the wait is not missed.
            let settled = self.settled.notified();
            tokio::pin!(settled);
            settled.as_mut().enable();
            let (at, ids, waiting) = {
                let log = self.lock();
                let mut at = version;
                let mut ids = Vec::new();
                let mut waiting = false;
                // Commits are entered in commit order, so a chain runs forward.
                for commit in log.commits.iter().skip_while(|c| c.before != version) {
                    if commit.before != at {
                        break;
                    }
                    if !commit.committed {
                        waiting = true;
                        break;
                    }
                    ids.extend_from_slice(&commit.ids);
                    at = commit.after;
                }
                (at, ids, waiting)
            };
            if at >= seen && at != version {
                return Some((at, ids));
            }
            if !waiting {
                return None;
            }
            settled.await;
        }
    }

    fn settle(&self, serial: u64, committed: bool) {
        let mut log = self.lock();
        if let Some(index) = log.commits.iter().position(|c| c.serial == serial) {
            if committed {
                log.commits[index].committed = true;
            } else {
                log.commits.remove(index);
            }
        }
        drop(log);
        self.settled.notify_waiters();
    }
}

impl PendingCommit<'_> {
    pub(super) fn committed(self) {
        self.log.settle(self.serial, true);
        std::mem::forget(self);
    }
}

impl Drop for PendingCommit<'_> {
    fn drop(&mut self) {
        self.log.settle(self.serial, false);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;

    fn v(n: i64) -> OrdersVersion {
        OrdersVersion(n)
    }

    fn record(log: &Cancellations, before: i64, after: i64, ids: Vec<i64>) {
        log.committing(v(before), v(after), ids).committed();
    }

    #[tokio::test]
    async fn commits_chain_from_the_version_asked_for() {
        let log = Cancellations::default();
        record(&log, 3, 5, vec![10, 11]);
        record(&log, 5, 6, vec![12]);
        assert_eq!(log.since(v(3), v(6)).await, Some((v(6), vec![10, 11, 12])));
        assert_eq!(log.since(v(3), v(4)).await, Some((v(6), vec![10, 11, 12])));
        assert_eq!(log.since(v(5), v(6)).await, Some((v(6), vec![12])));
        assert_eq!(log.since(v(6), v(6)).await, None, "nothing since");
        assert_eq!(log.since(v(4), v(6)).await, None, "no commit starts there");
        assert_eq!(
            log.since(v(3), v(7)).await,
            None,
            "the chain ends before the version seen"
        );
    }

    #[tokio::test]
    async fn a_change_made_elsewhere_ends_the_chain() {
        let log = Cancellations::default();
        record(&log, 1, 2, vec![1]);
        // 2 -> 3 was someone else's (an import, another instance).
        record(&log, 3, 4, vec![2]);
        assert_eq!(log.since(v(1), v(2)).await, Some((v(2), vec![1])));
        assert_eq!(log.since(v(1), v(4)).await, None);
        assert_eq!(log.since(v(3), v(4)).await, Some((v(4), vec![2])));
    }

    #[tokio::test]
    async fn only_the_last_commits_are_kept() {
        let log = Cancellations::default();
        for n in 0..(KEPT as i64 + 10) {
            record(&log, n, n + 1, vec![n]);
        }
        let end = v(KEPT as i64 + 10);
        assert_eq!(log.since(v(0), end).await, None);
        let (at, ids) = log.since(v(10), end).await.unwrap();
        assert_eq!((at, ids.len()), (end, KEPT));
    }

    #[tokio::test]
    async fn a_reader_waits_for_a_pending_commit_and_uses_it_once_committed() {
        let log = Arc::new(Cancellations::default());
        record(&log, 1, 2, vec![5]);
        let pending = log.committing(v(2), v(3), vec![6]);
        // What is committed already is enough for a reader that saw 2.
        assert_eq!(log.since(v(1), v(2)).await, Some((v(2), vec![5])));
        let reader = tokio::spawn({
            let log = log.clone();
            async move { log.since(v(1), v(3)).await }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!reader.is_finished(), "waits for the outcome");
        pending.committed();
        assert_eq!(reader.await.unwrap(), Some((v(3), vec![5, 6])));
    }

    #[tokio::test]
    async fn a_failed_commit_is_never_used() {
        let log = Arc::new(Cancellations::default());
        let pending = log.committing(v(1), v(2), vec![5]);
        let reader = tokio::spawn({
            let log = log.clone();
            async move { log.since(v(1), v(2)).await }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        drop(pending);
        assert_eq!(reader.await.unwrap(), None, "read the orders instead");
        // Another transaction may reach the same version with other changes.
        assert_eq!(log.since(v(1), v(2)).await, None);
        record(&log, 1, 2, vec![7]);
        assert_eq!(log.since(v(1), v(2)).await, Some((v(2), vec![7])));
    }
}
