//! Streamed responses: Server-Sent Events (`text/event-stream`) and JSON
//! Lines (`application/jsonl`, `application/x-ndjson`; and
//! `application/json-seq`, RFC 7464), whose items the handler gives as a
//! typed stream ([`EventStream`], [`JsonLines`]).
//!
//! Each item is validated against the operation's item schema and written
//! as soon as the stream gives it, in a frame of its own, so that hyper
//! sends it at once. Nothing is buffered here: hyper polls the body only
//! when the connection can take more, so a reader that falls behind stops
//! the handler's stream from being polled (it produces nothing meanwhile)
//! and the server's memory stays flat; a reader that goes away ends the
//! connection, and with it the body, which drops the handler's stream.
//! An SSE stream that stays idle sends a comment (`: keep-alive`) every
//! [`KEEP_ALIVE`], so that proxies and readers can tell it is alive.
//!
//! An item that breaks its schema cannot be answered with an error
//! status (the status is sent): the body ends with an error, which aborts
//! the connection, so that the reader sees a broken stream rather than a
//! finished one.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use futures_util::stream::{BoxStream, Stream, StreamExt};
use http_body::Frame;
use serde::Serialize;
use sync_wrapper::SyncWrapper;

use crate::schema::Schema;

/// How long an SSE stream stays silent before a keep-alive comment.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// One Server-Sent Event: its data (the item, written as JSON), and its
/// optional event name, id and reconnection time.
#[derive(Debug, Clone, PartialEq)]
pub struct Event<T> {
    pub data: T,
    pub event: Option<String>,
    pub id: Option<String>,
    pub retry: Option<Duration>,
}

impl<T> Event<T> {
    /// An event of `data` alone (the `message` event).
    pub fn new(data: T) -> Self {
        Event {
            data,
            event: None,
            id: None,
            retry: None,
        }
    }

    /// Named `event` (the reader's `event` type).
    pub fn with_event(mut self, event: impl Into<String>) -> Self {
        self.event = Some(event.into());
        self
    }

    /// With `id`, which a reader sends back as `Last-Event-ID` when it
    /// reconnects.
    pub fn with_id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }

    /// Telling the reader to wait `retry` before reconnecting.
    pub fn with_retry(mut self, retry: Duration) -> Self {
        self.retry = Some(retry);
        self
    }
}

/// The events of a `text/event-stream` response, as the handler gives
/// them.
pub struct EventStream<T>(BoxStream<'static, Event<T>>);

impl<T> EventStream<T> {
    pub fn new(events: impl Stream<Item = Event<T>> + Send + 'static) -> Self {
        EventStream(events.boxed())
    }
}

impl<T> std::fmt::Debug for EventStream<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EventStream(..)")
    }
}

/// The items of a JSON Lines (or JSON text sequence) response, as the
/// handler gives them.
pub struct JsonLines<T>(BoxStream<'static, T>);

impl<T> JsonLines<T> {
    pub fn new(items: impl Stream<Item = T> + Send + 'static) -> Self {
        JsonLines(items.boxed())
    }
}

impl<T> std::fmt::Debug for JsonLines<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JsonLines(..)")
    }
}

/// A frame's text, made of one item.
type Framed = Result<Bytes, String>;

/// An SSE frame: the fields, then the data as one line of JSON (which
/// has no line breaks), then the blank line that dispatches the event.
fn sse_frame<T: Serialize>(event: Event<T>, schema: &'static Schema) -> Framed {
    let data = checked_json(&event.data, schema)?;
    let mut frame = String::with_capacity(data.len() + 32);
    // A field is one line: a line break inside a name or an id would
    // start another field (or dispatch the event early).
    let line = |text: &str| text.replace(['\r', '\n'], " ");
    if let Some(event) = &event.event {
        frame.push_str(&format!("event: {}\n", line(event)));
    }
    if let Some(id) = &event.id {
        frame.push_str(&format!("id: {}\n", line(id)));
    }
    if let Some(retry) = event.retry {
        frame.push_str(&format!("retry: {}\n", retry.as_millis()));
    }
    frame.push_str("data: ");
    frame.push_str(&data);
    frame.push_str("\n\n");
    Ok(Bytes::from(frame))
}

/// The item as one line of JSON, once its schema allows it.
fn checked_json<T: Serialize>(item: &T, schema: &'static Schema) -> Result<String, String> {
    let value = serde_json::to_value(item).map_err(|e| format!("an item cannot be written as JSON: {e}"))?;
    schema.validate(&value).map_err(|violation| {
        format!(
            "an item breaks its schema at `{}`: {}",
            violation.pointer, violation.message
        )
    })?;
    Ok(value.to_string())
}

/// How a JSON stream frames its items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lines {
    /// `application/jsonl`, `application/x-ndjson`: each item, then `\n`.
    NewlineDelimited,
    /// `application/json-seq` (RFC 7464): `\x1e`, each item, then `\n`.
    RecordSeparated,
}

impl Lines {
    /// The framing of `media_type`.
    pub fn of(media_type: &str) -> Self {
        match api_shared::media::essence(media_type).as_str() {
            "application/json-seq" => Lines::RecordSeparated,
            _ => Lines::NewlineDelimited,
        }
    }
}

/// A streamed body, polled by hyper frame by frame.
pub(crate) struct StreamedBody {
    frames: SyncWrapper<BoxStream<'static, Framed>>,
    /// SSE only: when the stream has been idle for [`KEEP_ALIVE`].
    keep_alive: Option<Pin<Box<tokio::time::Sleep>>>,
    done: bool,
}

impl StreamedBody {
    pub(crate) fn events<T: Serialize + Send + 'static>(events: EventStream<T>, schema: &'static Schema) -> Self {
        StreamedBody {
            frames: SyncWrapper::new(events.0.map(move |event| sse_frame(event, schema)).boxed()),
            keep_alive: Some(Box::pin(tokio::time::sleep(KEEP_ALIVE))),
            done: false,
        }
    }

    pub(crate) fn lines<T: Serialize + Send + 'static>(
        items: JsonLines<T>,
        lines: Lines,
        schema: &'static Schema,
    ) -> Self {
        let frame = move |item: T| -> Framed {
            let json = checked_json(&item, schema)?;
            Ok(Bytes::from(match lines {
                Lines::NewlineDelimited => format!("{json}\n"),
                Lines::RecordSeparated => format!("\u{1e}{json}\n"),
            }))
        };
        StreamedBody {
            frames: SyncWrapper::new(items.0.map(frame).boxed()),
            keep_alive: None,
            done: false,
        }
    }
}

/// Why a stream was cut short.
#[derive(Debug)]
pub(crate) struct BrokenStream(String);

impl std::fmt::Display for BrokenStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BrokenStream {}

impl http_body::Body for StreamedBody {
    type Data = Bytes;
    type Error = BrokenStream;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, BrokenStream>>> {
        if self.done {
            return Poll::Ready(None);
        }
        match self.frames.get_mut().poll_next_unpin(cx) {
            Poll::Ready(Some(Ok(bytes))) => {
                if let Some(keep_alive) = self.keep_alive.as_mut() {
                    keep_alive.as_mut().reset(tokio::time::Instant::now() + KEEP_ALIVE);
                }
                Poll::Ready(Some(Ok(Frame::data(bytes))))
            }
            Poll::Ready(Some(Err(why))) => {
                self.done = true;
                Poll::Ready(Some(Err(BrokenStream(why))))
            }
            Poll::Ready(None) => {
                self.done = true;
                Poll::Ready(None)
            }
            Poll::Pending => {
                let Some(keep_alive) = self.keep_alive.as_mut() else {
                    return Poll::Pending;
                };
                if keep_alive.as_mut().poll(cx).is_pending() {
                    return Poll::Pending;
                }
                keep_alive.as_mut().reset(tokio::time::Instant::now() + KEEP_ALIVE);
                Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(b": keep-alive\n\n")))))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.done
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Components;
    use http_body_util::BodyExt;

    static COMPONENTS: Components = Components::new(&[]);
    static COUNT: Schema = Schema::new(
        &COMPONENTS,
        r#"{"type":"object"}"#,
        Some(r#"{"type":"object","required":["n"],"properties":{"n":{"type":"integer","maximum":2}}}"#),
    );

    #[tokio::test]
    async fn events_are_framed_one_by_one_with_their_fields() {
        let events = EventStream::new(futures_util::stream::iter(vec![
            Event::new(serde_json::json!({"n": 1}))
                .with_event("tick\nforged: x")
                .with_id("7"),
            Event::new(serde_json::json!({"n": 2})).with_retry(Duration::from_millis(1500)),
        ]));
        let mut body = StreamedBody::events(events, &COUNT);
        let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!(first, "event: tick forged: x\nid: 7\ndata: {\"n\":1}\n\n");
        let second = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!(second, "retry: 1500\ndata: {\"n\":2}\n\n");
        assert!(body.frame().await.is_none());
    }

    #[tokio::test]
    async fn an_item_that_breaks_its_schema_breaks_the_stream() {
        let items = JsonLines::new(futures_util::stream::iter(vec![
            serde_json::json!({"n": 1}),
            serde_json::json!({"n": 3}),
            serde_json::json!({"n": 2}),
        ]));
        let mut body = StreamedBody::lines(items, Lines::RecordSeparated, &COUNT);
        let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!(first, "\u{1e}{\"n\":1}\n");
        let broken = body.frame().await.unwrap().unwrap_err();
        assert!(broken.to_string().contains("breaks its schema"), "{broken}");
        assert!(body.frame().await.is_none(), "nothing after the break");
    }

    #[tokio::test(start_paused = true)]
    async fn an_idle_event_stream_sends_keep_alive_comments() {
        let events: EventStream<serde_json::Value> = EventStream::new(futures_util::stream::pending());
        let mut body = StreamedBody::events(events, &COUNT);
        let comment = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!(comment, ": keep-alive\n\n");
        assert_eq!(
            Lines::of("application/x-ndjson; charset=utf-8"),
            Lines::NewlineDelimited
        );
        assert_eq!(Lines::of("application/json-seq"), Lines::RecordSeparated);
    }
}
