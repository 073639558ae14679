//! What the generated layer does around every request, whatever its
//! operation: counts it in flight, times it, answers its CORS, keeps its
//! ids (`request_ids`) for its log lines and a 5xx, and writes its
//! `request completed` line (`request_lines`).

use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

use dropshot::{RequestContext, RequestInfo};

use super::cors::Allowed;
use super::in_flight::InFlightGuard;
use super::request_ids::RequestIds;
use super::request_lines::RequestLines;
use super::state::{Served, Serving};
use crate::contract::{Contract, Operation};
use crate::reply::Reply;

/// One request the generated layer is answering: counted in flight until
/// it is finished, timed for the request metrics, and answered with the
/// CORS headers its origin gets.
///
/// It borrows the request's context, as the endpoint's other steps do, so
/// that its log line reads the method, target and address where dropshot
/// keeps them rather than from copies.
pub struct Answering<'a> {
    _in_flight: Option<InFlightGuard<'a>>,
    started: Instant,
    cors: Allowed<'a>,
    /// dropshot's id for the request and the one it came with.
    ids: Arc<RequestIds>,
    request: &'a RequestInfo,
    /// Where its line is written, when the level writes it.
    lines: Option<&'a RequestLines>,
}

impl<'a> Answering<'a> {
    /// Called first by every generated endpoint.
    pub fn start<A: Served>(rqctx: &'a RequestContext<A>) -> Answering<'a> {
        let serving = rqctx.context().serving();
        Answering {
            _in_flight: serving.map(|serving| serving.in_flight().enter()),
            started: Instant::now(),
            cors: Allowed::of(serving, &rqctx.request),
            ids: RequestIds::of(&rqctx.request_id, &rqctx.request),
            request: &rqctx.request,
            lines: serving.and_then(Serving::request_lines),
        }
    }

    /// The answer to a CORS preflight, for an operation whose path
    /// documents `OPTIONS` itself (called before authentication: a
    /// preflight carries no credentials); `operations` are the path's.
    pub fn preflight<A: Served, C: Contract>(
        &self,
        handlers: &A,
        request: &RequestInfo,
        operations: &[&'static Operation],
    ) -> Option<Reply<C>> {
        super::cors::preflight(handlers.serving(), request, operations).map(Reply::sent_as)
    }

    /// `answer` (the generated layer's steps and the handler), run with
    /// this request's ids as the current ones: every line logged in it
    /// carries them.
    pub fn within<F: Future>(&self, answer: F) -> impl Future<Output = F::Output> {
        self.ids.around(answer)
    }

    /// Called with the endpoint's reply: records it in the metrics, adds
    /// the CORS headers, names the request's ids in a 5xx's body, and
    /// writes the request's log line.
    pub fn finish<C: Contract>(self, operation: &'static Operation, mut reply: Reply<C>) -> Reply<C> {
        // One clock read for the metrics, the line's latency and its time.
        if crate::metrics::enabled() || self.lines.is_some() {
            let now = Instant::now();
            let elapsed = now.saturating_duration_since(self.started);
            crate::metrics::observe(operation, reply.status(), elapsed);
            if let Some(lines) = self.lines {
                lines.write(self.request, now, elapsed, &self.ids, reply.status().as_u16());
            }
        }
        if let Some(body) = reply.server_error_body_mut()
            && let Some(named) = super::request_ids::named_in(body, &self.ids)
        {
            *body = named;
        }
        self.cors.add_headers(operation, reply.headers_mut());
        reply
    }
}
