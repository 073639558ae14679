//! The readers a client with streamed responses gains (written into it,
//! so that it needs nothing else): Server-Sent Events read as the WHATWG
//! HTML standard says (lines ended by CRLF, LF or CR; `data` lines joined
//! by `\n`; comments; `event`, `id`, `retry`), JSON Lines and JSON text
//! sequences, and the stream that connects, reads, and (for SSE, where the
//! operation takes `Last-Event-ID`) reconnects after a broken connection,
//! resuming after the last event's id.

/// The items: `ServerSentEvent`, `StreamError`, `RawEvent`, `SseReader`,
/// `JsonLinesReader`, `Connecting`, `Reconnect`, `read_events` and
/// `read_lines`.
pub(super) fn readers() -> Vec<syn::Item> {
    let file: syn::File = syn::parse_quote! {
        /// One Server-Sent Event, its data read as its item type.
        #[derive(Debug, Clone, PartialEq)]
        pub struct ServerSentEvent<T> {
            pub data: T,
            /// The event's type (`message` when the server names none).
            pub event: ::std::string::String,
            /// The last event id the stream has set, if any.
            pub id: ::std::option::Option<::std::string::String>,
            /// The reconnection time the server asked for, if it did.
            pub retry: ::std::option::Option<::std::time::Duration>,
        }

        /// Why a stream of items stopped, or an item could not be read.
        #[derive(Debug)]
        pub enum StreamError<E> {
            /// The request was refused (a documented error, or none).
            Request(Error<E>),
            /// The connection broke, and the stream could not resume.
            Read(::reqwest::Error),
            /// An item's text is not its type (the stream goes on).
            Item {
                text: ::std::string::String,
                error: ::serde_json::Error,
            },
        }

        impl<E: ::std::fmt::Debug> ::std::fmt::Display for StreamError<E> {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                match self {
                    StreamError::Request(e) => write!(f, "the request failed: {e}"),
                    StreamError::Read(e) => write!(f, "the stream broke: {e}"),
                    StreamError::Item { text, error } => write!(f, "an item is not its type ({error}): {text}"),
                }
            }
        }

        /// An event as read, before its data is typed.
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct RawEvent {
            pub data: ::std::string::String,
            pub event: ::std::string::String,
            pub id: ::std::option::Option<::std::string::String>,
            pub retry: ::std::option::Option<::std::time::Duration>,
        }

        /// Reads Server-Sent Events from bytes as they come.
        #[derive(Debug, Default)]
        pub struct SseReader {
            line: ::std::vec::Vec<u8>,
            /// A CR ended the last line: an LF right after it belongs to it.
            after_cr: bool,
            data: ::std::string::String,
            has_data: bool,
            event: ::std::string::String,
            last_id: ::std::option::Option<::std::string::String>,
            retry: ::std::option::Option<::std::time::Duration>,
            started: bool,
        }

        impl SseReader {
            /// The events `bytes` complete.
            pub fn feed(&mut self, bytes: &[u8]) -> ::std::vec::Vec<RawEvent> {
                let mut events = ::std::vec::Vec::new();
                for &byte in bytes {
                    if self.after_cr {
                        self.after_cr = false;
                        if byte == b'\n' {
                            continue;
                        }
                    }
                    match byte {
                        b'\r' | b'\n' => {
                            self.after_cr = byte == b'\r';
                            let line = ::std::mem::take(&mut self.line);
                            if let Some(event) = self.line_done(&line) {
                                events.push(event);
                            }
                        }
                        _ => self.line.push(byte),
                    }
                }
                events
            }

            fn line_done(&mut self, line: &[u8]) -> ::std::option::Option<RawEvent> {
                let mut line = ::std::string::String::from_utf8_lossy(line).into_owned();
                // A byte order mark may open the stream.
                if !self.started {
                    self.started = true;
                    if let Some(rest) = line.strip_prefix('\u{feff}') {
                        line = rest.to_string();
                    }
                }
                if line.is_empty() {
                    return self.dispatch();
                }
                if line.starts_with(':') {
                    return None;
                }
                let (field, value) = match line.split_once(':') {
                    Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
                    None => (line.as_str(), ""),
                };
                match field {
                    "event" => self.event = value.to_string(),
                    "data" => {
                        if self.has_data {
                            self.data.push('\n');
                        }
                        self.data.push_str(value);
                        self.has_data = true;
                    }
                    "id" if !value.contains('\0') => self.last_id = Some(value.to_string()),
                    "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                        self.retry = value.parse().ok().map(::std::time::Duration::from_millis);
                    }
                    _ => {}
                }
                None
            }

            /// A blank line: the event read so far, when it has data.
            fn dispatch(&mut self) -> ::std::option::Option<RawEvent> {
                let event = ::std::mem::take(&mut self.event);
                if !::std::mem::take(&mut self.has_data) {
                    return None;
                }
                Some(RawEvent {
                    data: ::std::mem::take(&mut self.data),
                    event: if event.is_empty() { "message".to_string() } else { event },
                    id: self.last_id.clone().filter(|id| !id.is_empty()),
                    retry: self.retry,
                })
            }
        }

        /// Reads JSON Lines (and JSON text sequences: a record separator
        /// opens each) from bytes as they come.
        #[derive(Debug, Default)]
        pub struct JsonLinesReader {
            line: ::std::vec::Vec<u8>,
        }

        impl JsonLinesReader {
            /// The items' texts `bytes` complete.
            pub fn feed(&mut self, bytes: &[u8]) -> ::std::vec::Vec<::std::string::String> {
                let mut items = ::std::vec::Vec::new();
                for &byte in bytes {
                    if byte != b'\n' {
                        self.line.push(byte);
                        continue;
                    }
                    let line = ::std::mem::take(&mut self.line);
                    let text = ::std::string::String::from_utf8_lossy(&line);
                    let text = text.trim_start_matches('\u{1e}').trim_end_matches('\r').trim();
                    if !text.is_empty() {
                        items.push(text.to_string());
                    }
                }
                items
            }

            /// The last item, when the stream ended without a newline.
            pub fn finish(&mut self) -> ::std::vec::Vec<::std::string::String> {
                self.feed(b"\n")
            }
        }

        /// A request that answers with a stream, not yet sent.
        pub type Connecting<'a, E> = ::std::pin::Pin<
            ::std::boxed::Box<
                dyn ::std::future::Future<Output = ::std::result::Result<ResponseValue<ByteStream>, Error<E>>>
                    + Send
                    + 'a,
            >,
        >;

        /// Sends the request again, resuming after the given event id.
        pub type Reconnect<'a, E> =
            ::std::boxed::Box<dyn FnMut(::std::string::String) -> Connecting<'a, E> + Send + 'a>;

        /// A typed stream of Server-Sent Events: `first` opens it; with
        /// `reconnect` (an operation that takes `Last-Event-ID`), a broken
        /// connection is opened again after the server's `retry` (3 s by
        /// default), resuming after the last event's id, a few times at
        /// most without an event between.
        pub fn read_events<'a, T, E>(
            first: Connecting<'a, E>,
            reconnect: ::std::option::Option<Reconnect<'a, E>>,
        ) -> ::std::pin::Pin<
            ::std::boxed::Box<
                dyn ::futures::Stream<Item = ::std::result::Result<ServerSentEvent<T>, StreamError<E>>> + Send + 'a,
            >,
        >
        where
            T: ::serde::de::DeserializeOwned + Send + 'a,
            E: Send + 'a,
        {
            use ::futures::StreamExt as _;
            struct State<'a, E> {
                connecting: ::std::option::Option<Connecting<'a, E>>,
                reconnect: ::std::option::Option<Reconnect<'a, E>>,
                body: ::std::option::Option<ByteStream>,
                reader: SseReader,
                queue: ::std::collections::VecDeque<RawEvent>,
                last_id: ::std::option::Option<::std::string::String>,
                retry: ::std::time::Duration,
                attempts: u32,
                finished: bool,
            }
            let state = State {
                connecting: Some(first),
                reconnect,
                body: None,
                reader: SseReader::default(),
                queue: ::std::collections::VecDeque::new(),
                last_id: None,
                retry: ::std::time::Duration::from_secs(3),
                attempts: 0,
                finished: false,
            };
            ::futures::stream::unfold(state, |mut s| async move {
                loop {
                    if let Some(raw) = s.queue.pop_front() {
                        let item = match ::serde_json::from_str::<T>(&raw.data) {
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
                                    ::tokio::time::sleep(s.retry).await;
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
        pub fn read_lines<'a, T, E>(
            response: ResponseValue<ByteStream>,
        ) -> ::std::pin::Pin<
            ::std::boxed::Box<dyn ::futures::Stream<Item = ::std::result::Result<T, StreamError<E>>> + Send + 'a>,
        >
        where
            T: ::serde::de::DeserializeOwned + Send + 'a,
            E: Send + 'a,
        {
            use ::futures::StreamExt as _;
            let state = (
                response.into_inner(),
                JsonLinesReader::default(),
                ::std::collections::VecDeque::<::std::string::String>::new(),
                false,
            );
            ::futures::stream::unfold(state, |(mut body, mut reader, mut queue, mut finished)| async move {
                loop {
                    if let Some(text) = queue.pop_front() {
                        let item = ::serde_json::from_str::<T>(&text).map_err(|error| StreamError::Item { text, error });
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
    };
    file.items
}
