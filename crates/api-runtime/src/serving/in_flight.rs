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
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::Notify;

#[derive(Clone, Default)]
pub struct InFlight(Arc<Counter>);

#[derive(Default)]
struct Counter {
    requests: AtomicUsize,
    drained: Notify,
}

/// One request being answered; counted until dropped.
#[derive(Debug)]
pub struct InFlightGuard(Arc<Counter>);

impl std::fmt::Debug for Counter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} in flight", self.requests.load(Ordering::Relaxed))
    }
}

impl InFlight {
    /// Counts one more request until the guard is dropped. Out of line so
    /// that `cargo xtask bench` can count it (a call's few instructions).
    #[inline(never)]
    pub fn enter(&self) -> InFlightGuard {
        self.0.requests.fetch_add(1, Ordering::AcqRel);
        InFlightGuard(self.0.clone())
    }

    /// How many requests are being answered now.
    pub fn count(&self) -> usize {
        self.0.requests.load(Ordering::Acquire)
    }

    /// Resolves once no request is being answered.
    pub async fn drained(&self) {
        loop {
            // Registered before the check, so a wake-up in between is kept.
            let notified = self.0.drained.notified();
            if self.count() == 0 {
                return;
            }
            notified.await;
        }
    }
}

impl Drop for InFlightGuard {
    #[inline(never)]
    fn drop(&mut self) {
        if self.0.requests.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.drained.notify_waiters();
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
}
