//! The database's change counters, read once for many requests.
//!
//! Every request needs the counters (they tell whether the cached order
//! list and cached keys still hold), and reading them per request would
//! make each request a database round trip. A request may share a read
//! only if that read *began after the request arrived*: then it sees every
//! change committed before the request, as its own read would. So reads
//! run one at a time; a request that arrives while one runs waits for the
//! next, which starts as soon as the running one ends and answers everyone
//! who arrived meanwhile. Alone, a request reads at once.
//!
//! This is the path for PostgreSQL, where a read is a round trip. SQLite's
//! counters are read on the request's own thread instead
//! ([`crate::storage::Storage::versions_now`]), which is cheaper than any
//! hand-off; this path is SQLite's fallback when that read cannot start.

use std::future::Future;
use std::sync::Mutex;

use tokio::sync::watch;

use crate::storage::{Result, Versions};

pub struct SharedVersionReads {
    state: Mutex<State>,
    /// Signalled whenever a read ends (or is abandoned).
    ended: watch::Sender<()>,
}

#[derive(Default)]
struct State {
    /// How many reads have started.
    started: u64,
    running: bool,
    /// The last read to end: its number and result.
    last: Option<(u64, Result<Versions>)>,
}

impl Default for SharedVersionReads {
    fn default() -> Self {
        SharedVersionReads {
            state: Mutex::default(),
            ended: watch::Sender::new(()),
        }
    }
}

impl SharedVersionReads {
    /// The counters as of some moment after this call began; `read` reads
    /// them from the database, if this request is the one to do it.
    pub async fn current<F, Fut>(&self, read: F) -> Result<Versions>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Versions>>,
    {
        let (needed, mut ended) = {
            let state = self.state.lock().expect("not poisoned");
            // The next read to start is the first that began after now.
            (state.started + 1, self.ended.subscribe())
        };
        loop {
            match self.next_step(needed) {
                Step::Done(result) => return result,
                Step::Read(number) => {
                    let mut running = RunningRead {
                        reads: self,
                        number,
                        result: None,
                    };
                    let result = read().await;
                    running.result = Some(result.clone());
                    return result;
                }
                // The sender lives in `self`: this cannot fail while we wait.
                Step::Wait => {
                    let _ = ended.changed().await;
                }
            }
        }
    }

    fn next_step(&self, needed: u64) -> Step {
        let mut state = self.state.lock().expect("not poisoned");
        if let Some((number, result)) = &state.last
            && *number >= needed
        {
            return Step::Done(result.clone());
        }
        if state.running {
            return Step::Wait;
        }
        state.running = true;
        state.started += 1;
        Step::Read(state.started)
    }
}

enum Step {
    Done(Result<Versions>),
    /// Run read number n.
    Read(u64),
    Wait,
}

/// Marks the read as ended when dropped, with its result if it has one: a
/// reader whose request is abandoned mid-read must not leave the others
/// waiting for a read that never ends.
struct RunningRead<'a> {
    reads: &'a SharedVersionReads,
    number: u64,
    result: Option<Result<Versions>>,
}

impl Drop for RunningRead<'_> {
    fn drop(&mut self) {
        let mut state = self.reads.state.lock().expect("not poisoned");
        state.running = false;
        if let Some(result) = self.result.take() {
            state.last = Some((self.number, result));
        }
        drop(state);
        self.reads.ended.send_replace(());
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;
    use crate::storage::{KeysVersion, OrdersVersion, StorageError};

    fn versions(n: i64) -> Versions {
        Versions {
            orders: OrdersVersion(n),
            keys: KeysVersion(n),
        }
    }

    /// A "database" whose counter a test bumps, and which counts reads.
    #[derive(Default)]
    struct Database {
        counter: AtomicI64,
        reads: AtomicUsize,
    }

    impl Database {
        async fn read(&self) -> Result<Versions> {
            self.reads.fetch_add(1, Ordering::SeqCst);
            let seen = self.counter.load(Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(20)).await;
            Ok(versions(seen))
        }
    }

    #[tokio::test]
    async fn alone_a_request_reads_itself() {
        let (reads, db) = (SharedVersionReads::default(), Database::default());
        for n in 0..3 {
            db.counter.store(n, Ordering::SeqCst);
            assert_eq!(reads.current(|| db.read()).await.unwrap(), versions(n));
        }
        assert_eq!(db.reads.load(Ordering::SeqCst), 3);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_requests_share_reads_that_began_after_they_arrived() {
        let reads = Arc::new(SharedVersionReads::default());
        let db = Arc::new(Database::default());
        let mut tasks = Vec::new();
        for _ in 0..50 {
            // A change commits, then a request arrives: it must see it.
            let seen_before = db.counter.fetch_add(1, Ordering::SeqCst) + 1;
            let (reads, db) = (reads.clone(), db.clone());
            tasks.push(tokio::spawn(async move {
                let got = reads.current(|| db.read()).await.unwrap();
                assert!(got.orders.0 >= seen_before, "{got:?} misses change {seen_before}");
            }));
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        for task in tasks {
            task.await.unwrap();
        }
        let count = db.reads.load(Ordering::SeqCst);
        assert!(count < 50, "{count} reads for 50 requests");
    }

    #[tokio::test]
    async fn an_abandoned_read_does_not_block_the_others() {
        let reads = Arc::new(SharedVersionReads::default());
        let stuck = {
            let reads = reads.clone();
            tokio::spawn(async move {
                reads
                    .current(|| async {
                        std::future::pending::<()>().await;
                        Ok(versions(0))
                    })
                    .await
            })
        };
        tokio::time::sleep(Duration::from_millis(10)).await;
        let waiting = {
            let reads = reads.clone();
            tokio::spawn(async move { reads.current(|| async { Ok(versions(7)) }).await })
        };
        tokio::time::sleep(Duration::from_millis(10)).await;
        stuck.abort();
        let got = tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(got.unwrap(), versions(7));
    }

    #[tokio::test]
    async fn a_failed_read_fails_its_requests_only() {
        let reads = SharedVersionReads::default();
        let failed = reads
            .current(|| async { Err(StorageError::Unavailable("down".into())) })
            .await;
        assert!(matches!(failed, Err(StorageError::Unavailable(_))));
        assert_eq!(reads.current(|| async { Ok(versions(1)) }).await.unwrap(), versions(1));
    }
}
