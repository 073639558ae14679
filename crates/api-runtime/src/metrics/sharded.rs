//! The request metrics' two kinds of series, counted in shards
//! (`crate::shards`): every request adds to one of each, where
//! prometheus-client's own `Histogram` takes a lock and its `Counter` adds
//! to one word that every thread writes. Scraped, they read as those do.
//! A service counts its own per-request events with [`ShardedCounter`].

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use prometheus_client::encoding::{EncodeMetric, MetricEncoder, NoLabelSet};
use prometheus_client::metrics::{MetricType, TypedMetric};

use crate::shards::{self, Padded, SHARDS};

/// A count that requests add to, by the shard of the thread that added:
/// registered as prometheus-client's `Counter` is, and read as one.
#[derive(Clone, Debug, Default)]
pub struct ShardedCounter(Arc<[Padded<AtomicU64>; SHARDS]>);

impl ShardedCounter {
    pub fn inc(&self) {
        self.0[shards::this_thread()].0.fetch_add(1, Ordering::Relaxed);
    }

    pub fn get(&self) -> u64 {
        self.0.iter().map(|shard| shard.0.load(Ordering::Relaxed)).sum()
    }
}

impl TypedMetric for ShardedCounter {
    const TYPE: MetricType = MetricType::Counter;
}

impl EncodeMetric for ShardedCounter {
    fn encode(&self, mut encoder: MetricEncoder) -> Result<(), std::fmt::Error> {
        encoder.encode_counter::<NoLabelSet, _, u64>(&self.get(), None)
    }

    fn metric_type(&self) -> MetricType {
        Self::TYPE
    }
}

/// The upper bounds of a histogram's buckets, in seconds, smallest first
/// (the last, `+Inf`, is implicit).
pub(crate) type Bounds = &'static [f64];

/// Durations observed into buckets, by the shard of the thread that
/// observed them.
#[derive(Clone, Debug)]
pub(crate) struct ShardedHistogram(Arc<Buckets>);

#[derive(Debug)]
struct Buckets {
    bounds: Bounds,
    /// `bounds` in nanoseconds: an observation is placed without a float.
    nanos: Vec<u64>,
    shards: [Padded<Shard>; SHARDS],
}

#[derive(Debug, Default)]
struct Shard {
    /// How many fell in each bucket (not cumulated), `+Inf` last; sized to
    /// the most buckets a histogram is given.
    counts: [AtomicU64; MOST_BUCKETS + 1],
    /// Their sum, in nanoseconds.
    sum: AtomicU64,
}

/// The most finite bounds a histogram takes.
pub(crate) const MOST_BUCKETS: usize = 15;

impl ShardedHistogram {
    /// A histogram of `bounds` (at most [`MOST_BUCKETS`], finite, ascending).
    pub(crate) fn new(bounds: Bounds) -> ShardedHistogram {
        assert!(bounds.len() <= MOST_BUCKETS, "at most {MOST_BUCKETS} buckets");
        let nanos = bounds.iter().map(|bound| (bound * 1e9).round() as u64).collect();
        ShardedHistogram(Arc::new(Buckets {
            bounds,
            nanos,
            shards: Default::default(),
        }))
    }

    pub(crate) fn observe(&self, elapsed: Duration) {
        let nanos = u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX);
        let buckets = &*self.0;
        // The first bucket whose bound is at least the duration (`le`).
        let bucket = buckets.nanos.iter().take_while(|&&bound| bound < nanos).count();
        let shard = &buckets.shards[shards::this_thread()].0;
        shard.counts[bucket].fetch_add(1, Ordering::Relaxed);
        shard.sum.fetch_add(nanos, Ordering::Relaxed);
    }

    /// The sum in seconds, the count, and each bucket's upper bound with
    /// the count in it (not cumulated), as prometheus-client encodes them.
    fn snapshot(&self) -> (f64, u64, Vec<(f64, u64)>) {
        let buckets = &*self.0;
        let count_of = |bucket: usize| -> u64 {
            let shards = buckets.shards.iter();
            shards.map(|shard| shard.0.counts[bucket].load(Ordering::Relaxed)).sum()
        };
        let bounds = buckets.bounds.iter().copied().chain(std::iter::once(f64::INFINITY));
        let counted: Vec<(f64, u64)> = bounds.enumerate().map(|(i, bound)| (bound, count_of(i))).collect();
        let sum: u64 = buckets
            .shards
            .iter()
            .map(|shard| shard.0.sum.load(Ordering::Relaxed))
            .sum();
        let count = counted.iter().map(|(_, count)| count).sum();
        (sum as f64 / 1e9, count, counted)
    }
}

impl TypedMetric for ShardedHistogram {
    const TYPE: MetricType = MetricType::Histogram;
}

impl EncodeMetric for ShardedHistogram {
    fn encode(&self, mut encoder: MetricEncoder) -> Result<(), std::fmt::Error> {
        let (sum, count, buckets) = self.snapshot();
        encoder.encode_histogram::<NoLabelSet>(sum, count, &buckets, None)
    }

    fn metric_type(&self) -> MetricType {
        Self::TYPE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(name: &str, metric: impl EncodeMetric + Send + Sync + std::fmt::Debug + 'static) -> String {
        let mut registry = prometheus_client::registry::Registry::default();
        registry.register(name, "help", metric);
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &registry).unwrap();
        text
    }

    #[test]
    fn a_histogram_reads_as_prometheus_clients_own_whichever_threads_observed() {
        // Durations whose sum is exact in seconds and in nanoseconds, one
        // on a bound (`le`: in that bucket), one past the last.
        const BOUNDS: &[f64] = &[0.25, 1.0, 2.0];
        let ours = ShardedHistogram::new(BOUNDS);
        let theirs = prometheus_client::metrics::histogram::Histogram::new(BOUNDS.iter().copied());
        let durations = [0.125, 0.25, 0.5, 1.0, 2.0, 4.0];
        std::thread::scope(|scope| {
            for chunk in durations.chunks(2) {
                let ours = ours.clone();
                scope.spawn(move || {
                    for seconds in chunk {
                        ours.observe(Duration::from_secs_f64(*seconds));
                    }
                });
            }
        });
        for seconds in durations {
            theirs.observe(seconds);
        }
        assert_eq!(encoded("latency", ours), encoded("latency", theirs));
    }

    #[test]
    fn a_counter_reads_as_prometheus_clients_own_whichever_threads_counted() {
        let ours = ShardedCounter::default();
        let theirs: prometheus_client::metrics::counter::Counter = Default::default();
        std::thread::scope(|scope| {
            for _ in 0..3 {
                let ours = ours.clone();
                scope.spawn(move || (0..1000).for_each(|_| ours.inc()));
            }
        });
        theirs.inc_by(3000);
        assert_eq!(encoded("requests", ours), encoded("requests", theirs));
    }
}
