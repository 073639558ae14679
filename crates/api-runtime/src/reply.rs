//! What an endpoint sends: one of its documented responses, the spec's
//! Error object, or RFC 9457 problem details for an error the spec leaves
//! undocumented, with the headers each carries.
//!
//! dropshot's error path cannot add headers to our error bodies, yet some
//! headers belong on errors too: `WWW-Authenticate` on every 401 (RFC 6750
//! §3), and `Deprecation`/`Sunset` on every response of a deprecated
//! operation. So an endpoint answers [`Reply<C>`] for both, and its
//! `response_metadata()` describes the operation's success response from
//! its table, so dropshot's document is unaffected.

use std::marker::PhantomData;

use bytes::Bytes;
use dropshot::{ApiEndpointResponse, Body, HttpError, HttpResponse};
use http::StatusCode;
use http::header::{CONTENT_TYPE, HeaderMap, HeaderValue, WWW_AUTHENTICATE};
use serde::Serialize;

use crate::challenge::{Challenge, challenge, schemes};
use crate::contract::{Contract, Requirement};
use crate::json::Json;
use crate::payload::Payload;
use crate::problem::Problem;
use crate::problem_details::{PROBLEM_JSON, ProblemDetails};
use crate::schema::Schema;
use crate::streams::{EventStream, JsonLines, Lines, StreamedBody};
use crate::upgrade::Switching;

/// Whether a documented error key (`404`, `4XX`, `default`) covers
/// `status`.
pub fn covers(keys: &[&str], status: u16) -> bool {
    keys.iter().any(|key| match key.as_bytes() {
        b"default" => true,
        [digit, b'X', b'X'] => u16::from(digit.wrapping_sub(b'0')) == status / 100,
        _ => key.parse() == Ok(status),
    })
}

/// The reply of operation `C`.
pub struct Reply<C> {
    outcome: Outcome,
    headers: HeaderMap,
    contract: PhantomData<fn() -> C>,
}

enum Outcome {
    Success {
        status: StatusCode,
        content: Option<(HeaderValue, Bytes)>,
    },
    /// A response built whole: the 101 of an accepted WebSocket upgrade
    /// (or why it failed), as dropshot builds it, or a CORS preflight's.
    Switching(Result<http::Response<Body>, HttpError>),
    /// A streamed body: events or JSON lines, written as they come.
    Streaming {
        status: StatusCode,
        media_type: HeaderValue,
        body: StreamedBody,
    },
    Error {
        status: StatusCode,
        /// `None`: no body.
        media_type: Option<HeaderValue>,
        body: Bytes,
    },
}

fn status_of(status: u16) -> StatusCode {
    StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

impl<C> Reply<C> {
    /// The status this reply is sent with.
    pub fn status(&self) -> StatusCode {
        match &self.outcome {
            Outcome::Success { status, .. } | Outcome::Error { status, .. } | Outcome::Streaming { status, .. } => {
                *status
            }
            Outcome::Switching(Ok(response)) => response.status(),
            Outcome::Switching(Err(error)) => error.status_code.as_status(),
        }
    }
}

impl<C: Contract> Reply<C> {
    /// A success response of Server-Sent Events (`text/event-stream`),
    /// each written as it comes, validated against `schema` (the item's).
    pub fn event_stream<T: Serialize + Send + 'static>(
        status: u16,
        media_type: &'static str,
        schema: &'static Schema,
        events: EventStream<T>,
    ) -> Self {
        Self::with_outcome(Outcome::Streaming {
            status: status_of(status),
            media_type: HeaderValue::from_static(media_type),
            body: StreamedBody::events(events, schema),
        })
    }

    /// A success response of JSON lines (`application/jsonl`,
    /// `application/x-ndjson`, `application/json-seq`), each written as it
    /// comes, validated against `schema` (the item's).
    pub fn json_lines<T: Serialize + Send + 'static>(
        status: u16,
        media_type: &'static str,
        schema: &'static Schema,
        items: JsonLines<T>,
    ) -> Self {
        Self::with_outcome(Outcome::Streaming {
            status: status_of(status),
            media_type: HeaderValue::from_static(media_type),
            body: StreamedBody::lines(items, Lines::of(media_type), schema),
        })
    }

    /// A success response with a JSON body.
    pub fn json<T: Serialize>(status: u16, media_type: &'static str, body: Json<T>) -> Self {
        match body.into_bytes() {
            Ok(bytes) => Self::content(status, media_type, bytes),
            Err(e) => Self::internal(format!("serializing the response body: {e}")),
        }
    }

    /// A success response with a raw body (`application/octet-stream`,
    /// `text/csv`, ...), sent with its documented media type.
    pub fn bytes(status: u16, media_type: &'static str, body: impl Into<Bytes>) -> Self {
        Self::content(status, media_type, body.into())
    }

    /// A success response whose media type the handler chose, among
    /// those `range` (`*/*`, `image/*`) allows; a 500 otherwise.
    pub fn payload(status: u16, range: &str, payload: Payload) -> Self {
        match payload.content_type(range) {
            Ok(media_type) => Self::with_outcome(Outcome::Success {
                status: status_of(status),
                content: Some((media_type, payload.bytes)),
            }),
            Err(message) => Self::internal(message),
        }
    }

    /// The answer to a WebSocket handshake: 101 when accepted.
    pub fn switching(switching: Switching) -> Self {
        Self::with_outcome(Outcome::Switching(switching.0.and_then(HttpResponse::to_result)))
    }

    /// A success response without a body.
    pub fn empty(status: u16) -> Self {
        Self::with_outcome(Outcome::Success {
            status: status_of(status),
            content: None,
        })
    }

    fn content(status: u16, media_type: &'static str, bytes: Bytes) -> Self {
        Self::with_outcome(Outcome::Success {
            status: status_of(status),
            content: Some((HeaderValue::from_static(media_type), bytes)),
        })
    }

    /// An error response: `status` with the spec's Error object made of
    /// `problem`. A 401 carries a `WWW-Authenticate` challenge for each
    /// scheme the operation accepts.
    pub fn problem(status: u16, problem: Problem) -> Self {
        let reply = Self::problem_body(status, problem);
        match status {
            401 => reply.with_challenges(C::operation().security, Challenge::Missing),
            _ => reply,
        }
    }

    /// The body of an error: the operation's Error object when one of its
    /// documented error responses (the status, its range, or `default`)
    /// carries it; RFC 9457 problem details otherwise, so that a status
    /// the spec leaves undocumented still gets a standard body.
    pub(crate) fn problem_body(status: u16, problem: Problem) -> Self {
        match covers(C::operation().errors, status) {
            true => Self::error_as(status, C::ERROR_MEDIA_TYPE, &C::error(status, problem)),
            false => Self::error_as(status, PROBLEM_JSON, &ProblemDetails::from_problem(status, problem)),
        }
    }

    /// An error response with `body` (an error schema's value) as JSON.
    pub fn error<E: Serialize>(status: u16, body: &E) -> Self {
        Self::error_as(status, dropshot::CONTENT_TYPE_JSON, body)
    }

    /// An error response without a body (the spec documents none).
    pub fn error_empty(status: u16) -> Self {
        Self::with_outcome(Outcome::Error {
            status: status_of(status),
            media_type: None,
            body: Bytes::new(),
        })
    }

    /// An error response with a body that is not JSON, sent as it is with
    /// its documented media type.
    pub fn error_bytes(status: u16, media_type: &'static str, body: impl Into<Bytes>) -> Self {
        Self::with_outcome(Outcome::Error {
            status: status_of(status),
            media_type: Some(HeaderValue::from_static(media_type)),
            body: body.into(),
        })
    }

    /// An error response whose media type the handler chose, among those
    /// `range` allows; a 500 otherwise.
    pub fn error_payload(status: u16, range: &str, payload: Payload) -> Self {
        match payload.content_type(range) {
            Ok(media_type) => Self::with_outcome(Outcome::Error {
                status: status_of(status),
                media_type: Some(media_type),
                body: payload.bytes,
            }),
            Err(message) => Self::internal(message),
        }
    }

    fn error_as<E: Serialize>(status: u16, media_type: &'static str, body: &E) -> Self {
        let body = serde_json::to_vec(body)
            .map(Bytes::from)
            // The Error object is three plain fields; should it ever fail to
            // serialize, a fixed body still says what happened.
            .unwrap_or_else(|_| {
                Bytes::from_static(b"{\"code\":\"internal_error\",\"message\":\"internal error\",\"status\":500}")
            });
        Self::with_outcome(Outcome::Error {
            status: status_of(status),
            media_type: Some(HeaderValue::from_static(media_type)),
            body,
        })
    }

    fn internal(message: String) -> Self {
        Self::problem_body(500, Problem::new("internal_error", message))
    }

    /// The reply of a range or `default` arm: `reply(status)` when the
    /// status the handler chose is one the arm stands for
    /// (`first..=last`), a 500 otherwise: the handler cannot send a status
    /// its spec does not document.
    pub fn within(status: u16, first: u16, last: u16, reply: impl FnOnce(u16) -> Self) -> Self {
        match (first..=last).contains(&status) {
            true => reply(status),
            false => Self::internal(format!(
                "the handler answered {status}, which this response arm does not cover ({first}-{last})"
            )),
        }
    }

    fn with_outcome(outcome: Outcome) -> Self {
        Reply {
            outcome,
            headers: HeaderMap::new(),
            contract: PhantomData,
        }
    }

    /// Adds each field of `headers` (a struct of the response's documented
    /// headers, named as the spec names them) to the response; `None`
    /// fields are left out. A value that cannot be a header makes the
    /// reply a 500.
    pub fn with_headers<H: Serialize>(mut self, headers: &H) -> Self {
        match crate::response_headers::header_fields(headers) {
            Ok(fields) => {
                self.headers.extend(fields);
                self
            }
            Err(message) => Self::internal(format!("response headers: {message}")),
        }
    }

    /// The headers sent with the reply, beside the documented ones.
    pub(crate) fn headers_mut(&mut self) -> &mut HeaderMap {
        &mut self.headers
    }

    /// The body of a 5xx reply, for what serving adds to it (the
    /// request's ids); `None` for any other reply.
    pub(crate) fn server_error_body_mut(&mut self) -> Option<&mut Bytes> {
        match &mut self.outcome {
            Outcome::Error { status, body, .. } if status.is_server_error() => Some(body),
            _ => None,
        }
    }

    /// A response built whole (a CORS preflight's), sent as it is.
    pub(crate) fn sent_as(response: http::Response<Body>) -> Self {
        Self::with_outcome(Outcome::Switching(Ok(response)))
    }

    /// The challenges of a 401 (or a 403 for scopes), one
    /// `WWW-Authenticate` line per scheme that has one.
    pub(crate) fn with_challenges(mut self, security: &[Requirement], kind: Challenge) -> Self {
        for scheme in schemes(security) {
            if let Some(value) = challenge(&scheme, kind).and_then(|c| HeaderValue::try_from(c).ok()) {
                self.headers.append(WWW_AUTHENTICATE, value);
            }
        }
        self
    }
}

impl<C: Contract> HttpResponse for Reply<C> {
    fn to_result(self) -> Result<http::Response<Body>, HttpError> {
        let mut response = match self.outcome {
            Outcome::Success { status, content } => match content {
                Some((media_type, bytes)) => http::Response::builder()
                    .status(status)
                    .header(CONTENT_TYPE, media_type)
                    .body(Body::from(bytes))?,
                None => http::Response::builder().status(status).body(Body::empty())?,
            },
            Outcome::Switching(response) => response?,
            // Not cached, and not held back by a proxy that buffers
            // (nginx reads `X-Accel-Buffering`).
            Outcome::Streaming {
                status,
                media_type,
                body,
            } => http::Response::builder()
                .status(status)
                .header(CONTENT_TYPE, media_type)
                .header(http::header::CACHE_CONTROL, "no-cache")
                .header("x-accel-buffering", "no")
                .body(Body::wrap(body))?,
            Outcome::Error {
                status,
                media_type,
                body,
            } => match media_type {
                None => http::Response::builder().status(status).body(Body::empty())?,
                Some(media_type) => http::Response::builder()
                    .status(status)
                    .header(CONTENT_TYPE, media_type)
                    .body(Body::from(body))?,
            },
        };
        let headers = response.headers_mut();
        let mut previous = None;
        for (name, value) in self.headers {
            // `HeaderMap`'s iterator names only the first of a name's values.
            let name = name.or(previous.clone());
            if let Some(name) = &name {
                headers.append(name, value);
            }
            previous = name;
        }
        if let Some(deprecation) = C::operation().deprecation {
            headers.insert("deprecation", HeaderValue::from_static(deprecation.deprecation));
            if let Some(sunset) = deprecation.sunset {
                headers.insert("sunset", HeaderValue::from_static(sunset));
            }
        }
        Ok(response)
    }

    fn response_metadata() -> ApiEndpointResponse {
        crate::documentation::response::<C>()
    }

    fn status_code(&self) -> StatusCode {
        match &self.outcome {
            Outcome::Success { status, .. } | Outcome::Error { status, .. } | Outcome::Streaming { status, .. } => {
                *status
            }
            Outcome::Switching(Ok(response)) => response.status(),
            Outcome::Switching(Err(error)) => error.status_code.as_status(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::covers;

    #[test]
    fn a_key_covers_its_status_its_range_or_everything() {
        assert!(covers(&["404"], 404));
        assert!(!covers(&["404"], 400));
        assert!(covers(&["4XX"], 413));
        assert!(!covers(&["4XX"], 500));
        assert!(covers(&["5XX"], 503));
        assert!(covers(&["default"], 415));
        assert!(!covers(&[], 400));
    }
}
