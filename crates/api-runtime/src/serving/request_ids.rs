//! A request's ids, so that a report finds its log lines whichever id it
//! quotes: the one dropshot gives every request (the answer's
//! `x-request-id`, `req_id` in the log), and the one a proxy or a client
//! sent in `X-Request-Id` (`incoming_req_id`), kept when it is 1 to
//! [`INCOMING_MAX`] printable ASCII characters without spaces, and left out
//! otherwise (it is never written to the log as sent).
//!
//! Both are in every line logged while the generated layer answers the
//! request, whatever logger logs it (`current`, which `log_lines` reads:
//! a handler's loggers know nothing of the request), in its
//! `request completed` line, and in the message of a 5xx's error body.
//! The incoming id cannot be the answer's `x-request-id`: dropshot sets
//! its own after the handler (docs/known-gaps.md).

use std::future::Future;
use std::sync::Arc;

use bytes::Bytes;
use dropshot::RequestInfo;
use http::{HeaderName, HeaderValue};
use slog::{Key, OwnedKVList, Record};

/// The longest incoming id kept, in bytes: a UUID, a W3C trace id, an AWS
/// trace header all fit; a header made to bloat every log line does not.
pub(crate) const INCOMING_MAX: usize = 128;

/// The header, by a name parsed once (a lookup by a `&str` parses it
/// for every request).
const X_REQUEST_ID: HeaderName = HeaderName::from_static(dropshot::HEADER_REQUEST_ID);

/// The ids of one request.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct RequestIds {
    /// dropshot's id: its lines' `req_id`, the answer's `x-request-id`.
    pub(crate) own: String,
    /// The `X-Request-Id` the request came with, as sent: judged only when
    /// it is used (most requests log nothing but their line, and that
    /// only at `info`), and shared with the request, not copied.
    sent: Option<HeaderValue>,
}

tokio::task_local! {
    /// The ids of the request the generated layer is answering in this
    /// task.
    static CURRENT: Arc<RequestIds>;
}

impl RequestIds {
    pub(crate) fn of(own: &str, request: &RequestInfo) -> Arc<RequestIds> {
        Arc::new(RequestIds {
            own: own.to_string(),
            sent: request.headers().get(&X_REQUEST_ID).cloned(),
        })
    }

    /// The id the request came with, when it is one to keep.
    pub(crate) fn incoming(&self) -> Option<&str> {
        kept(self.sent.as_ref()?.as_bytes())
    }

    /// `future`, with these as the current request's ids while it runs.
    pub(crate) fn around<F: Future>(self: &Arc<Self>, future: F) -> impl Future<Output = F::Output> {
        CURRENT.scope(self.clone(), future)
    }

    /// The suffix a 5xx's message gets.
    fn named(&self) -> String {
        match self.incoming() {
            Some(incoming) => format!(" (request id {}; X-Request-Id {incoming})", self.own),
            None => format!(" (request id {})", self.own),
        }
    }
}

/// An incoming id as it is kept: `None` for one empty, too long, or with
/// a byte that is not printable ASCII (a space, a control, UTF-8).
fn kept(sent: &[u8]) -> Option<&str> {
    let printable = |byte: &u8| (b'!'..=b'~').contains(byte);
    let keep = !sent.is_empty() && sent.len() <= INCOMING_MAX && sent.iter().all(printable);
    keep.then(|| std::str::from_utf8(sent).ok()).flatten()
}

/// `with` the ids of the request being answered in this task, if any.
fn current<R>(with: impl FnOnce(&RequestIds) -> R) -> Option<R> {
    CURRENT.try_with(|ids| with(ids)).ok()
}

/// Adds the ids of the request being answered in this task, if any, to
/// the pairs of a record logged while it is, unless the record carries a
/// `req_id` already (from a logger of dropshot's for the request).
pub(super) fn add_current(record: &Record<'_>, values: &OwnedKVList, pairs: &mut dyn slog::Serializer) {
    current(|ids| {
        if carries_request_id(record, values) {
            return;
        }
        let _ = pairs.emit_str("req_id".into(), &ids.own);
        if let Some(incoming) = ids.incoming() {
            let _ = pairs.emit_str("incoming_req_id".into(), incoming);
        }
    });
}

fn carries_request_id(record: &Record<'_>, values: &OwnedKVList) -> bool {
    /// Looks at the keys only: a value is never formatted.
    struct Finds(bool);
    impl slog::Serializer for Finds {
        fn emit_arguments(&mut self, key: Key, _: &std::fmt::Arguments<'_>) -> slog::Result {
            self.0 |= key == "req_id";
            Ok(())
        }
    }
    let mut finds = Finds(false);
    let _ = slog::KV::serialize(&record.kv(), record, &mut finds);
    let _ = slog::KV::serialize(values, record, &mut finds);
    finds.0
}

/// `body` (a JSON error body) with the ids appended to its `message` (the
/// Error object's) or else its `detail` (problem details'); `None` for a
/// body with neither, which is left as it is: the spec's Error object is
/// of another shape.
pub(crate) fn named_in(body: &[u8], ids: &RequestIds) -> Option<Bytes> {
    let serde_json::Value::Object(mut fields) = serde_json::from_slice(body).ok()? else {
        return None;
    };
    let key = ["message", "detail"]
        .into_iter()
        .find(|key| fields.get(*key).is_some_and(serde_json::Value::is_string))?;
    if let Some(serde_json::Value::String(text)) = fields.get_mut(key) {
        text.push_str(&ids.named());
    }
    serde_json::to_vec(&fields).ok().map(Bytes::from)
}

#[cfg(test)]
mod tests {
    use super::{CURRENT, HeaderValue, INCOMING_MAX, RequestIds, current, kept, named_in};
    use std::sync::Arc;

    fn ids(own: &str, incoming: Option<&str>) -> RequestIds {
        RequestIds {
            own: own.into(),
            sent: incoming.map(|id| HeaderValue::from_str(id).unwrap()),
        }
    }

    #[test]
    fn the_message_or_the_detail_names_the_ids_and_other_shapes_are_left() {
        let named = named_in(
            br#"{"code":"internal_error","message":"boom","status":500}"#,
            &ids("r-1", None),
        )
        .unwrap();
        let named: serde_json::Value = serde_json::from_slice(&named).unwrap();
        assert_eq!(named["message"], "boom (request id r-1)");
        assert_eq!(named["status"], 500);
        let named = named_in(br#"{"title":"x","detail":"down"}"#, &ids("r-2", Some("abc-123"))).unwrap();
        let named: serde_json::Value = serde_json::from_slice(&named).unwrap();
        assert_eq!(named["detail"], "down (request id r-2; X-Request-Id abc-123)");
        assert_eq!(named_in(br#"{"error":{"message":"nested"}}"#, &ids("r-3", None)), None);
        assert_eq!(named_in(b"not json", &ids("r-4", None)), None);
    }

    #[test]
    fn an_incoming_id_is_kept_when_short_and_printable() {
        let longest = "a".repeat(INCOMING_MAX);
        for sent in [
            "abc-123",
            "0b9c3a52-6f1e-4d2a-9a57-2d4f0c1e8b31",
            "Root=1-5759e988;Parent=53995c3f",
            &longest,
        ] {
            assert_eq!(kept(sent.as_bytes()), Some(sent), "{sent}");
        }
        let too_long = "a".repeat(INCOMING_MAX + 1);
        for sent in ["", "with space", "tab\there", "caf\u{e9}", "line\nbreak", &too_long] {
            assert_eq!(kept(sent.as_bytes()), None, "{sent:?}");
        }
        assert_eq!(kept(b"\xff\xfe"), None);
    }

    #[test]
    fn the_current_ids_are_those_of_the_scope_and_none_outside() {
        assert_eq!(current(|ids| ids.own.clone()), None);
        let scoped = Arc::new(ids("r-5", Some("abc")));
        let inside = CURRENT.sync_scope(scoped, || {
            current(|ids| (ids.own.clone(), ids.incoming().map(String::from)))
        });
        assert_eq!(inside, Some(("r-5".to_string(), Some("abc".to_string()))));
    }

    #[test]
    fn a_line_logged_in_the_scope_carries_the_ids_once() {
        use crate::serving::log_lines::{LogFormat, server_line};
        let scoped = Arc::new(ids("r-6", Some("abc")));
        let text = CURRENT.sync_scope(scoped.clone(), || {
            server_line(LogFormat::Text, |log| {
                slog::error!(log, "storage failure"; "operation" => "cancelOrder");
                // A logger of dropshot's for the request has its own.
                slog::info!(log.new(slog::o!("req_id" => "r-6")), "from dropshot");
            })
        });
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].ends_with(
                "storage failure, operation: cancelOrder, local_addr: 127.0.0.1:8080, req_id: r-6, incoming_req_id: abc"
            ),
            "{text}"
        );
        assert!(
            lines[1].ends_with("from dropshot, req_id: r-6, local_addr: 127.0.0.1:8080"),
            "{text}"
        );
        let json = CURRENT.sync_scope(scoped, || server_line(LogFormat::Json, |log| slog::warn!(log, "slow")));
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(
            (&json["req_id"], &json["incoming_req_id"]),
            (&"r-6".into(), &"abc".into())
        );
        let outside = server_line(LogFormat::Text, |log| slog::warn!(log, "slow"));
        assert!(!outside.contains("req_id"), "{outside}");
    }
}
