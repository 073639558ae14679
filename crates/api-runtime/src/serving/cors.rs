//! Cross-origin requests from browsers (CORS), configured per service
//! (`--cors-origin`, off by default). dropshot has none, so the generated
//! layer does it:
//!
//! - a preflight (`OPTIONS` with `Origin` and
//!   `Access-Control-Request-Method`) is answered from the spec's
//!   operations on that path: their methods, and the headers their
//!   parameters, security and bodies use. It is answered before any
//!   authentication, so never with a 401, whether the path documents
//!   `OPTIONS` itself or not;
//! - every answer of the generated layer to an allowed origin carries
//!   `Access-Control-Allow-Origin` (and exposes the operation's documented
//!   response headers), and every answer carries `Vary: Origin`, so that a
//!   cache never hands one origin's answer to another;
//! - credentials (`Access-Control-Allow-Credentials`) only with origins
//!   named one by one: `*` allows any origin without them, as the Fetch
//!   standard requires.
//!
//! An origin not allowed gets no `Access-Control-Allow-*` header at all:
//! the browser refuses the answer to the page, which is the point.

use dropshot::{Body, RequestInfo};
use http::header::{
    ACCESS_CONTROL_ALLOW_CREDENTIALS, ACCESS_CONTROL_ALLOW_HEADERS, ACCESS_CONTROL_ALLOW_METHODS,
    ACCESS_CONTROL_ALLOW_ORIGIN, ACCESS_CONTROL_EXPOSE_HEADERS, ACCESS_CONTROL_MAX_AGE, ACCESS_CONTROL_REQUEST_METHOD,
    HeaderMap, HeaderValue, ORIGIN, VARY,
};
use http::{Method, StatusCode};

use super::origins::Cors;
use super::state::Serving;
use crate::contract::{Location, Operation, Scheme};

/// How long a browser may keep a preflight's answer, in seconds.
const MAX_AGE: &str = "600";

/// The CORS headers of an answer to `request` (none when CORS is off),
/// added to its answer ([`Allowed::add_headers`]). It borrows the
/// configuration and the request's `Origin` and judges the origin only
/// then: it is kept in every request's future, whose size decides how
/// cheaply that is allocated, and a judged origin would be a header value
/// of its own (48 bytes where this is 16).
#[derive(Debug, Default)]
pub struct Allowed<'a> {
    /// The service's configuration, when CORS is on.
    cors: Option<&'a Cors>,
    /// The `Origin` the request came with.
    origin: Option<&'a HeaderValue>,
}

impl<'a> Allowed<'a> {
    pub fn of(serving: Option<&'a Serving>, request: &'a RequestInfo) -> Allowed<'a> {
        let Some(cors) = serving.and_then(Serving::cors) else {
            return Allowed::default();
        };
        Allowed {
            cors: Some(cors),
            origin: request.headers().get(ORIGIN),
        }
    }

    /// Adds the headers to an answer of `operation`.
    pub(crate) fn add_headers(&self, operation: &Operation, headers: &mut HeaderMap) {
        let Some(cors) = self.cors else {
            return;
        };
        headers.append(VARY, HeaderValue::from_static("Origin"));
        let Some(origin) = self.origin.and_then(|origin| cors.allow(origin)) else {
            return;
        };
        headers.insert(ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        if cors.credentials() {
            headers.insert(ACCESS_CONTROL_ALLOW_CREDENTIALS, HeaderValue::from_static("true"));
        }
        let mut exposed: Vec<&str> = operation
            .responses
            .iter()
            .flat_map(|response| response.headers.iter().map(|header| header.name))
            .collect();
        exposed.push("x-request-id");
        exposed.sort_by_key(|name| name.to_ascii_lowercase());
        exposed.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
        if let Ok(value) = HeaderValue::try_from(exposed.join(", ")) {
            headers.insert(ACCESS_CONTROL_EXPOSE_HEADERS, value);
        }
    }
}

/// The answer to `request` if it is a CORS preflight and CORS is on:
/// `operations` are every operation of the request's path.
pub fn preflight(
    serving: Option<&Serving>,
    request: &RequestInfo,
    operations: &[&'static Operation],
) -> Option<http::Response<Body>> {
    let cors = serving.and_then(Serving::cors)?;
    let headers = request.headers();
    if request.method() != Method::OPTIONS || !headers.contains_key(ACCESS_CONTROL_REQUEST_METHOD) {
        return None;
    }
    let origin = headers.get(ORIGIN)?;
    let mut response = http::Response::builder().status(StatusCode::NO_CONTENT).header(
        VARY,
        "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
    );
    if let Some(allowed) = cors.allow(origin) {
        response = response
            .header(ACCESS_CONTROL_ALLOW_ORIGIN, allowed)
            .header(ACCESS_CONTROL_ALLOW_METHODS, methods(operations))
            .header(ACCESS_CONTROL_MAX_AGE, MAX_AGE);
        let allowed_headers = request_headers(operations);
        if !allowed_headers.is_empty() {
            response = response.header(ACCESS_CONTROL_ALLOW_HEADERS, allowed_headers);
        }
        if cors.credentials() {
            response = response.header(ACCESS_CONTROL_ALLOW_CREDENTIALS, "true");
        }
    }
    response.body(Body::empty()).ok()
}

/// The methods of the path's operations.
fn methods(operations: &[&'static Operation]) -> String {
    let mut methods: Vec<&str> = operations.iter().map(|op| op.method).collect();
    methods.sort_unstable();
    methods.dedup();
    methods.join(", ")
}

/// The request headers the path's operations read: header parameters,
/// the credentials' headers, and `Content-Type` for a body.
fn request_headers(operations: &[&'static Operation]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for op in operations {
        let parameters = op.parameters.iter().filter(|p| p.location == Location::Header);
        names.extend(parameters.map(|p| p.name));
        for need in op.security.iter().flat_map(|requirement| requirement.0) {
            match need.scheme {
                Scheme::Bearer { .. } | Scheme::Basic { .. } => names.push("Authorization"),
                Scheme::ApiKeyHeader { header, .. } => names.push(header),
                Scheme::ApiKeyQuery { .. } | Scheme::ApiKeyCookie { .. } => {}
            }
        }
        if op.body.is_some() {
            names.push("Content-Type");
        }
    }
    names.sort_by_key(|name| name.to_ascii_lowercase());
    names.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
    names.join(", ")
}
