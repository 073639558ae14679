//! Counts that every request adds to, kept in shards: each thread adds to
//! a shard of its own, alone on its cache lines, and a reader sums them.
//!
//! One count shared by two threads answering requests passes its cache
//! line back and forth for every request: measured, that cost a cached
//! request several times the instructions of the add (the in-flight count,
//! the latency histogram).

use std::sync::atomic::{AtomicUsize, Ordering};

/// How many shards a count has: more than the threads that answer requests
/// on most machines, and two threads that share one still count right.
pub(crate) const SHARDS: usize = 16;

/// A value alone on its cache lines (128 bytes: the pair of lines an x86
/// core fetches together).
#[derive(Default, Debug)]
#[repr(align(128))]
pub(crate) struct Padded<T>(pub(crate) T);

thread_local! {
    /// This thread's shard, given in turn as threads first count.
    static SHARD: usize = {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        NEXT.fetch_add(1, Ordering::Relaxed) % SHARDS
    };
}

/// The shard this thread adds to.
pub(crate) fn this_thread() -> usize {
    SHARD.with(|shard| *shard)
}
