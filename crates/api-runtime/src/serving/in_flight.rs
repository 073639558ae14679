//! Which requests are still being answered, so that a shutdown waits for
//! them and for nothing else.
//!
//! dropshot's own graceful close waits for every connection to end: an
//! idle HTTP/2 connection whose client never answers, or a request whose
//! head never finishes arriving, would hold it for as long as the client
//! likes. The generated layer counts the requests it is answering
//! instead: a guard is taken as its endpoint starts
//! (`super::answering::Answering`) and dropped when the reply is done, or
//! with the handler when its client hangs up.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use tokio::sync::Notify;

use crate::shards::{self, Padded, SHARDS};

#[derive(Clone, Default)]
pub struct InFlight(Arc<Counter>);

/// Counted in shards (`crate::shards`): measured, one shared counter cost
/// a cached request more than its instructions say, with two workers
/// against one.
#[derive(Default)]
struct Counter {
    shards: [Padded<AtomicUsize>; SHARDS],
    /// Set by [`InFlight::drained`] before it counts: from then on, every
    /// request that ends wakes it to count again.
    draining: AtomicBool,
    drained: Notify,
}

/// One request being answered; counted until dropped, in the shard it
/// entered (so that no shard ever reads below the requests it holds, and
/// a count of 0 means none was in flight while it was taken).
#[derive(Debug)]
pub struct InFlightGuard<'a> {
    counter: &'a Counter,
    shard: usize,
}

impl std::fmt::Debug for Counter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} in flight", self.count())
    }
}

impl Counter {
    fn count(&self) -> usize {
        self.shards.iter().map(|shard| shard.0.load(Ordering::SeqCst)).sum()
    }
}

impl InFlight {
    /// Counts one more request until the guard is dropped. Out of line so
    /// that `cargo xtask bench` can count it (a call's few instructions).
    #[inline(never)]
    pub fn enter(&self) -> InFlightGuard<'_> {
        let shard = shards::this_thread();
        self.0.shards[shard].0.fetch_add(1, Ordering::SeqCst);
        InFlightGuard {
            counter: &self.0,
            shard,
        }
    }

    /// How many requests are being answered now.
    pub fn count(&self) -> usize {
        self.0.count()
    }

    /// Resolves once no request is being answered.
    pub async fn drained(&self) {
        self.0.draining.store(true, Ordering::SeqCst);
        loop {
            // Registered before the count, so a wake-up in between is kept.
            let notified = self.0.drained.notified();
            if self.count() == 0 {
                return;
            }
            notified.await;
        }
    }
}

impl Drop for InFlightGuard<'_> {
    #[inline(never)]
    fn drop(&mut self) {
        self.counter.shards[self.shard].0.fetch_sub(1, Ordering::SeqCst);
        // After the decrement: a `drained` that counted before it has
        // set the flag by then, and is woken.
        if self.counter.draining.load(Ordering::SeqCst) {
            self.counter.drained.notify_waiters();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn drained_waits_for_the_last_guard() {
        let in_flight = InFlight::default();
        in_flight.drained().await;
        let (first, second) = (in_flight.enter(), in_flight.enter());
        assert_eq!(in_flight.count(), 2);
        let waiter = tokio::spawn({
            let in_flight = in_flight.clone();
            async move { in_flight.drained().await }
        });
        drop(first);
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished(), "one request is still in flight");
        drop(second);
        tokio::time::timeout(std::time::Duration::from_secs(5), waiter)
            .await
            .expect("drained once the last guard is dropped")
            .unwrap();
    }

    #[test]
    fn a_request_ended_on_another_thread_is_counted_out() {
        let in_flight = InFlight::default();
        let guard = in_flight.enter();
        std::thread::scope(|scope| {
            scope.spawn(move || drop(guard));
        });
        assert_eq!(in_flight.count(), 0);
        let kept = (0..3 * SHARDS).map(|_| in_flight.enter()).collect::<Vec<_>>();
        assert_eq!(in_flight.count(), kept.len());
    }
}
