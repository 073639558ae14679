//! The readers under a stream: Server-Sent Events as the WHATWG HTML
//! standard says (lines ended by CRLF, LF or CR; `data` lines joined by
//! `\n`; comments; `event`, `id`, `retry`), and JSON Lines and JSON text
//! sequences, each fed bytes as they come and giving what they complete.

use std::time::Duration;

/// An event as read, before its data is typed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RawEvent {
    pub data: String,
    pub event: String,
    pub id: Option<String>,
    pub retry: Option<Duration>,
}

/// Reads Server-Sent Events from bytes as they come.
#[derive(Debug, Default)]
pub struct SseReader {
    line: Vec<u8>,
    /// A CR ended the last line: an LF right after it belongs to it.
    after_cr: bool,
    data: String,
    has_data: bool,
    event: String,
    last_id: Option<String>,
    retry: Option<Duration>,
    started: bool,
}

impl SseReader {
    /// The events `bytes` complete.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<RawEvent> {
        let mut events = Vec::new();
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
                    let line = std::mem::take(&mut self.line);
                    if let Some(event) = self.line_done(&line) {
                        events.push(event);
                    }
                }
                _ => self.line.push(byte),
            }
        }
        events
    }

    fn line_done(&mut self, line: &[u8]) -> Option<RawEvent> {
        let mut line = String::from_utf8_lossy(line).into_owned();
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
                self.retry = value.parse().ok().map(Duration::from_millis);
            }
            _ => {}
        }
        None
    }

    /// A blank line: the event read so far, when it has data.
    fn dispatch(&mut self) -> Option<RawEvent> {
        let event = std::mem::take(&mut self.event);
        if !std::mem::take(&mut self.has_data) {
            return None;
        }
        Some(RawEvent {
            data: std::mem::take(&mut self.data),
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
    line: Vec<u8>,
}

impl JsonLinesReader {
    /// The items' texts `bytes` complete.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<String> {
        let mut items = Vec::new();
        for &byte in bytes {
            if byte != b'\n' {
                self.line.push(byte);
                continue;
            }
            let line = std::mem::take(&mut self.line);
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_start_matches('\u{1e}').trim_end_matches('\r').trim();
            if !text.is_empty() {
                items.push(text.to_string());
            }
        }
        items
    }

    /// The last item, when the stream ended without a newline.
    pub fn finish(&mut self) -> Vec<String> {
        self.feed(b"\n")
    }
}

#[cfg(test)]
mod tests {
    use super::{JsonLinesReader, RawEvent, SseReader};

    fn event(data: &str, event: &str, id: Option<&str>) -> RawEvent {
        RawEvent {
            data: data.into(),
            event: event.into(),
            id: id.map(str::to_string),
            retry: None,
        }
    }

    #[test]
    fn events_end_at_a_blank_line_whatever_ends_the_lines() {
        for ending in ["\n", "\r\n", "\r"] {
            let text = [
                "data: one",
                "",
                "event: tick",
                "id: 7",
                "data: two",
                "data: lines",
                "",
                "",
            ]
            .join(ending);
            let events = SseReader::default().feed(text.as_bytes());
            assert_eq!(
                events,
                vec![event("one", "message", None), event("two\nlines", "tick", Some("7"))],
                "{ending:?}"
            );
        }
    }

    #[test]
    fn an_event_split_across_chunks_is_read_whole() {
        let mut reader = SseReader::default();
        assert!(reader.feed(b"data: he").is_empty());
        // A CR at a chunk's end and the LF at the next's are one line end.
        assert!(reader.feed(b"llo\r").is_empty());
        assert_eq!(reader.feed(b"\n\r\n"), vec![event("hello", "message", None)]);
    }

    #[test]
    fn comments_empty_events_and_bad_fields_send_nothing() {
        let text = "\u{feff}: a comment\n\nevent: nothing\n\nid: a\0b\nretry: soon\nnonsense\ndata\n\n";
        let events = SseReader::default().feed(text.as_bytes());
        // `data` alone is an empty data line: an event of empty data.
        assert_eq!(events, vec![event("", "message", None)]);
    }

    #[test]
    fn the_last_id_and_retry_carry_over_to_later_events() {
        let text = "id: 1\nretry: 1500\ndata: a\n\ndata: b\n\nid:\ndata: c\n\n";
        let events = SseReader::default().feed(text.as_bytes());
        let ids: Vec<Option<&str>> = events.iter().map(|e| e.id.as_deref()).collect();
        assert_eq!(ids, vec![Some("1"), Some("1"), None]);
        assert!(
            events
                .iter()
                .all(|e| e.retry == Some(std::time::Duration::from_millis(1500)))
        );
    }

    #[test]
    fn json_lines_and_text_sequences_give_one_text_per_item() {
        let mut reader = JsonLinesReader::default();
        assert_eq!(reader.feed(b"{\"a\":1}\r\n\n\x1e{\"b\"").as_slice(), ["{\"a\":1}"]);
        assert_eq!(reader.feed(b":2}\n[3").as_slice(), ["{\"b\":2}"]);
        assert_eq!(reader.finish().as_slice(), ["[3"]);
    }
}
