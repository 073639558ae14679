//! The 3.1 kitchen sink's streamed responses: the shapes as Server-Sent
//! Events (then, when followed, a tick per interval, endlessly) and as
//! JSON Lines. [`Gauges`] counts what the streams produce and how many
//! are open, so that the tests can see a slow reader hold production
//! back and a reader that leaves drop its stream.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use futures::stream::{self, Stream, StreamExt};

use crate::api::types;
use crate::runtime::Event;

/// What the streams have done, shared with the tests.
#[derive(Default)]
pub struct Gauges {
    /// Streams a handler gave that are not dropped yet.
    pub open: AtomicUsize,
    /// Items the streams have produced (polled out of them), in all.
    pub produced: AtomicU64,
}

/// Counts a stream as open until it is dropped (with the stream that
/// owns it).
struct Open(Arc<Gauges>);

impl Open {
    fn new(gauges: &Arc<Gauges>) -> Self {
        gauges.open.fetch_add(1, Ordering::SeqCst);
        Open(gauges.clone())
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        self.0.open.fetch_sub(1, Ordering::SeqCst);
    }
}

/// What a reader asked of the event stream.
pub struct Asked {
    /// How many shape events, cycling through the shapes.
    pub count: u64,
    /// Ticks after the shapes, every `interval` (none: the stream ends).
    pub follow: Option<Duration>,
    /// Resume after this event id.
    pub after: Option<u64>,
}

/// `count` shape events (`shape`, cycling through the shapes, numbered
/// from 0, the number their id; none without shapes),
/// then ticks (`tick`) every interval for as long as the reader stays.
pub fn shape_events(
    shapes: Vec<types::Shape>,
    asked: Asked,
    gauges: &Arc<Gauges>,
) -> impl Stream<Item = Event<types::ShapeEvent>> + Send + 'static {
    let total = if shapes.is_empty() { 0 } else { asked.count };
    let first = asked.after.map_or(0, |after| after + 1);
    let shape_events = stream::iter(first..total).map(move |seq| {
        let shape = shapes[(seq % shapes.len() as u64) as usize].clone();
        Event::new(types::ShapeEvent {
            seq,
            shape: Some(shape),
            tick: None,
        })
        .with_event("shape")
        .with_id(seq.to_string())
    });
    let ticks = match asked.follow {
        None => stream::empty().boxed(),
        Some(interval) => stream::unfold(total.max(first), move |seq| async move {
            if !interval.is_zero() {
                tokio::time::sleep(interval).await;
            }
            let event = Event::new(types::ShapeEvent {
                seq,
                shape: None,
                tick: Some(true),
            })
            .with_event("tick")
            .with_id(seq.to_string());
            Some((event, seq + 1))
        })
        .boxed(),
    };
    counted(shape_events.chain(ticks), gauges)
}

/// The shapes, one per line.
pub fn shape_lines(
    shapes: Vec<types::Shape>,
    gauges: &Arc<Gauges>,
) -> impl Stream<Item = types::Shape> + Send + 'static {
    counted(stream::iter(shapes), gauges)
}

/// `items`, counted as produced, and as open until dropped.
fn counted<T>(
    items: impl Stream<Item = T> + Send + 'static,
    gauges: &Arc<Gauges>,
) -> impl Stream<Item = T> + Send + 'static {
    let open = Open::new(gauges);
    items.map(move |item| {
        open.0.produced.fetch_add(1, Ordering::SeqCst);
        item
    })
}
