//! A `tracing` span per request, as every generated client's `exec` hook
//! opens it: named `request`, with `otel.name` the spec's operation id
//! (what OpenTelemetry exporters name the span by), the method, the path
//! template, and, as each attempt ends, its number and the status it met.
//! A retry is an event inside the span. With no subscriber installed the
//! span is disabled at its callsite: a few loads per request, and nothing
//! is recorded.

use reqwest::Method;

/// An operation as the spec names it, for its requests' spans: the
/// generated client's table gives it by the method progenitor names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Route {
    /// The spec's `operationId` (`listOrders`).
    pub operation_id: &'static str,
    /// The path template as the spec writes it (`/store/orders/{orderId}`).
    pub path: &'static str,
}

/// The span of one request of `route` (the client's method name stands in
/// for an operation the table does not have).
pub fn request_span(method_name: &str, route: Option<Route>, method: &Method) -> tracing::Span {
    let (operation_id, path) = match route {
        Some(route) => (route.operation_id, route.path),
        None => (method_name, ""),
    };
    tracing::info_span!(
        "request",
        otel.name = operation_id,
        operation_id,
        http.request.method = %method,
        http.route = path,
        http.response.status_code = tracing::field::Empty,
        attempt = tracing::field::Empty,
        error = tracing::field::Empty,
    )
}

/// Records on `span` what attempt `number` met: a status, or the error
/// that kept it from one (`connect`, `timeout`, `failed`); a retry
/// (`next_in`) is an event of its own.
pub(crate) fn record_attempt(
    span: &tracing::Span,
    number: u32,
    met: Result<u16, &'static str>,
    next_in: Option<std::time::Duration>,
) {
    if span.is_disabled() {
        return;
    }
    span.record("attempt", number);
    match met {
        Ok(status) => span.record("http.response.status_code", status),
        Err(error) => span.record("error", error),
    };
    if let Some(wait) = next_in {
        tracing::info!(parent: span, attempt = number, wait_ms = wait.as_millis() as u64, "retrying");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No subscriber is installed in this binary: the span is disabled at
    /// its callsite, and recording on it is nothing.
    #[test]
    fn without_a_subscriber_the_span_is_disabled() {
        let route = Route {
            operation_id: "getOrder",
            path: "/store/orders/{orderId}",
        };
        let span = request_span("get_order", Some(route), &Method::GET);
        assert!(span.is_disabled());
        record_attempt(&span, 1, Err("timeout"), Some(std::time::Duration::from_millis(5)));
    }
}
