//! Streamed responses read as typed items: Server-Sent Events as the
//! WHATWG HTML standard says (lines ended by CRLF, LF or CR; `data` lines
//! joined by `\n`; comments; `event`, `id`, `retry`), JSON Lines and JSON
//! text sequences, and the stream that connects, reads, and (for SSE,
//! where the operation takes `Last-Event-ID`) reconnects after a broken
//! connection, resuming after the last event's id.

mod readers;

use std::collections::VecDeque;
use std::pin::Pin;
use std::time::Duration;

use futures::StreamExt as _;
use progenitor_client::{ByteStream, Error, ResponseValue};
pub use readers::{JsonLinesReader, RawEvent, SseReader};

/// One Server-Sent Event, its data read as its item type.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerSentEvent<T> {
    pub data: T,
    /// The event's type (`message` when the server names none).
    pub event: String,
    /// The last event id the stream has set, if any.
    pub id: Option<String>,
    /// The reconnection time the server asked for, if it did.
    pub retry: Option<Duration>,
}

/// Why a stream of items stopped, or an item could not be read.
#[derive(Debug)]
pub enum StreamError<E> {
    /// The request was refused (a documented error, or none).
    Request(Error<E>),
    /// The connection broke, and the stream could not resume.
    Read(reqwest::Error),
    /// An item's text is not its type (the stream goes on).
    Item { text: String, error: serde_json::Error },
}

impl<E: std::fmt::Debug> std::fmt::Display for StreamError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StreamError::Request(e) => write!(f, "the request failed: {e}"),
            StreamError::Read(e) => write!(f, "the stream broke: {e}"),
            StreamError::Item { text, error } => write!(f, "an item is not its type ({error}): {text}"),
        }
    }
}

/// A stream of items, as a client's method gives it.
pub type ItemStream<'a, T> = Pin<Box<dyn futures::Stream<Item = T> + Send + 'a>>;

/// A request that answers with a stream, not yet sent.
pub type Connecting<'a, E> = Pin<Box<dyn Future<Output = Result<ResponseValue<ByteStream>, Error<E>>> + Send + 'a>>;

/// Sends the request again, resuming after the given event id.
pub type Reconnect<'a, E> = Box<dyn FnMut(String) -> Connecting<'a, E> + Send + 'a>;

/// A typed stream of Server-Sent Events: `first` opens it; with
/// `reconnect` (an operation that takes `Last-Event-ID`), a broken
/// connection is opened again after the server's `retry` (3 s by
/// default), resuming after the last event's id, a few times at
/// most without an event between.
pub fn read_events<'a, T, E>(
    first: Connecting<'a, E>,
    reconnect: Option<Reconnect<'a, E>>,
) -> ItemStream<'a, Result<ServerSentEvent<T>, StreamError<E>>>
where
    T: serde::de::DeserializeOwned + Send + 'a,
    E: Send + 'a,
{
    struct State<'a, E> {
        connecting: Option<Connecting<'a, E>>,
        reconnect: Option<Reconnect<'a, E>>,
        body: Option<ByteStream>,
        reader: SseReader,
        queue: VecDeque<RawEvent>,
        last_id: Option<String>,
        retry: Duration,
        attempts: u32,
        finished: bool,
    }
    let state = State {
        connecting: Some(first),
        reconnect,
        body: None,
        reader: SseReader::default(),
        queue: VecDeque::new(),
        last_id: None,
        retry: Duration::from_secs(3),
        attempts: 0,
        finished: false,
    };
    futures::stream::unfold(state, |mut s| async move {
        loop {
            if let Some(raw) = s.queue.pop_front() {
                let item = match serde_json::from_str::<T>(&raw.data) {
                    Ok(data) => Ok(ServerSentEvent {
                        data,
                        event: raw.event,
                        id: raw.id,
                        retry: raw.retry,
                    }),
                    Err(error) => Err(StreamError::Item { text: raw.data, error }),
                };
                return Some((item, s));
            }
            if s.finished {
                return None;
            }
            if let Some(connecting) = s.connecting.take() {
                match connecting.await {
                    Ok(response) => {
                        s.reader = SseReader::default();
                        s.body = Some(response.into_inner());
                    }
                    Err(error) => {
                        s.finished = true;
                        return Some((Err(StreamError::Request(error)), s));
                    }
                }
            }
            let Some(body) = s.body.as_mut() else { continue };
            match body.next().await {
                Some(Ok(bytes)) => {
                    for raw in s.reader.feed(&bytes) {
                        s.attempts = 0;
                        if raw.id.is_some() {
                            s.last_id = raw.id.clone();
                        }
                        if let Some(retry) = raw.retry {
                            s.retry = retry;
                        }
                        s.queue.push_back(raw);
                    }
                }
                Some(Err(error)) => {
                    s.body = None;
                    s.attempts += 1;
                    let last_id = s.last_id.clone().unwrap_or_default();
                    match s.reconnect.as_mut() {
                        Some(reconnect) if s.attempts <= 5 => {
                            tokio::time::sleep(s.retry).await;
                            s.connecting = Some(reconnect(last_id));
                        }
                        _ => {
                            s.finished = true;
                            return Some((Err(StreamError::Read(error)), s));
                        }
                    }
                }
                // The server ended the stream: done, not broken.
                None => s.finished = true,
            }
        }
    })
    .boxed()
}

/// A typed stream of JSON Lines (or a JSON text sequence).
pub fn read_lines<'a, T, E>(response: ResponseValue<ByteStream>) -> ItemStream<'a, Result<T, StreamError<E>>>
where
    T: serde::de::DeserializeOwned + Send + 'a,
    E: Send + 'a,
{
    let state = (
        response.into_inner(),
        JsonLinesReader::default(),
        VecDeque::<String>::new(),
        false,
    );
    futures::stream::unfold(state, |(mut body, mut reader, mut queue, mut finished)| async move {
        loop {
            if let Some(text) = queue.pop_front() {
                let item = serde_json::from_str::<T>(&text).map_err(|error| StreamError::Item { text, error });
                return Some((item, (body, reader, queue, finished)));
            }
            if finished {
                return None;
            }
            match body.next().await {
                Some(Ok(bytes)) => queue.extend(reader.feed(&bytes)),
                Some(Err(error)) => {
                    finished = true;
                    return Some((Err(StreamError::Read(error)), (body, reader, queue, finished)));
                }
                None => {
                    queue.extend(reader.finish());
                    finished = true;
                }
            }
        }
    })
    .boxed()
}

#[cfg(test)]
mod tests {
    use bytes::Bytes;
    use futures::StreamExt as _;
    use progenitor_client::{ByteStream, ResponseValue};

    use super::read_lines;

    #[tokio::test]
    async fn a_line_that_is_not_its_type_is_an_error_and_the_stream_goes_on() {
        let chunks: Vec<reqwest::Result<Bytes>> = vec![Ok(Bytes::from("1\n\"two\"\n")), Ok(Bytes::from("3"))];
        let body = ByteStream::new(Box::pin(futures::stream::iter(chunks)));
        let response = ResponseValue::new(body, reqwest::StatusCode::OK, Default::default());
        let items: Vec<_> = read_lines::<u32, ()>(response).collect().await;
        assert!(matches!(items[0], Ok(1)));
        assert!(matches!(&items[1], Err(super::StreamError::Item { text, .. }) if text == "\"two\""));
        assert!(matches!(items[2], Ok(3)));
        assert_eq!(items.len(), 3);
    }
}
