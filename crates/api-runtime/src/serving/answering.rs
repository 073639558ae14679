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
use super::request_lines::{RequestLines, Started};
use super::state::{Served, Serving};
use crate::contract::{Contract, Operation};
use crate::reply::Reply;

/// One request the generated layer is answering: counted in flight until
/// it is finished, timed for the request metrics, and answered with the
/// CORS headers its origin gets.
pub struct Answering {
    _in_flight: Option<InFlightGuard>,
    started: Instant,
    cors: Allowed,
    /// dropshot's id for the request and the one it came with.
    ids: Arc<RequestIds>,
    /// Where its line is written, and what it needs from the start.
    line: Option<(RequestLines, Started)>,
}

impl Answering {
    /// Called first by every generated endpoint.
    pub fn start<A: Served>(rqctx: &RequestContext<A>) -> Answering {
        let serving = rqctx.context().serving();
        Answering {
            _in_flight: serving.map(|serving| serving.in_flight().enter()),
            started: Instant::now(),
            cors: Allowed::of(serving, &rqctx.request),
            ids: RequestIds::of(&rqctx.request_id, &rqctx.request),
            line: serving
                .and_then(Serving::request_lines)
                .map(|lines| (lines.clone(), Started::of(&rqctx.request))),
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
        crate::metrics::observe(operation, reply.status(), self.started);
        if let Some((lines, started)) = &self.line {
            lines.write(started, self.started, &self.ids, reply.status().as_u16());
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
