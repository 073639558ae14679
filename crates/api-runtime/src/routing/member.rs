//! One endpoint among those a dispatch endpoint may hand a request to,
//! and how a request's path is read against it.

use dropshot::{ApiEndpoint, ApiEndpointVersions, HttpError, RawRequest, RequestContext, ServerContext};

use api_shared::routes::{Segment, segments};

/// An endpoint a dispatch endpoint may hand a request to.
pub(super) struct Member<C: ServerContext> {
    pub(super) path: Vec<Segment>,
    /// The spec writes its path with a trailing `/` (`/jobs/`).
    pub(super) trailing: bool,
    pub(super) endpoint: ApiEndpoint<C>,
}

impl<C: ServerContext> Member<C> {
    /// A member that runs `endpoint`'s handler (shared, not moved: the
    /// endpoint may still be registered, or get another handler).
    pub(super) fn of(endpoint: &ApiEndpoint<C>) -> Self {
        let mut shell = ApiEndpoint::new(
            endpoint.operation_id.clone(),
            |_: RequestContext<C>| async { Err::<http::Response<dropshot::Body>, HttpError>(unused()) },
            endpoint.method.clone(),
            "application/json",
            &endpoint.path,
            ApiEndpointVersions::All,
        );
        shell.handler = endpoint.handler.clone();
        shell.body_content_type = endpoint.body_content_type.clone();
        shell.request_body_max_bytes = endpoint.request_body_max_bytes;
        Member {
            path: segments(&endpoint.path),
            trailing: has_trailing_slash(&endpoint.path),
            endpoint: shell,
        }
    }

    /// Whether a request's (decoded, non-empty) segments are this path's:
    /// its literals are where they are.
    pub(super) fn matches(&self, request: &[String]) -> bool {
        self.path.len() == request.len()
            && self
                .path
                .iter()
                .zip(request)
                .all(|(segment, given)| segment.matches(given))
    }

    /// Whether a request's segments as written (empty ones kept) are this
    /// path's, a variable standing for any text, the empty one included.
    pub(super) fn matches_written(&self, written: &[String]) -> bool {
        written.iter().any(String::is_empty) && self.matches(written)
    }

    /// The request's context as this endpoint's own handler would get it:
    /// its operation and its body settings. (The variables keep the
    /// route's names: the generated layer reads parameters by the spec's
    /// path, never from dropshot's variables.)
    fn context(&self, mut rqctx: RequestContext<C>) -> RequestContext<C> {
        rqctx.endpoint.operation_id = self.endpoint.operation_id.clone();
        rqctx.endpoint.body_content_type = self.endpoint.body_content_type.clone();
        rqctx.endpoint.request_body_max_bytes = self.endpoint.request_body_max_bytes;
        rqctx
    }

    /// Runs the member's handler on the request.
    pub(super) async fn handle(
        &self,
        rqctx: RequestContext<C>,
        raw: RawRequest,
    ) -> Result<http::Response<dropshot::Body>, HttpError> {
        let rqctx = self.context(rqctx);
        // The generated endpoints answer every error themselves (their
        // extractors never fail and their handlers always give a reply),
        // so dropshot's handler error, which it does not let us read, can
        // only be a fault.
        self.endpoint
            .handler
            .handle_request(rqctx, raw.into_inner())
            .await
            .map_err(|_| HttpError::for_internal_error(format!("endpoint {} failed", self.endpoint.operation_id)))
    }
}

/// Whether a path ends with a `/` after a segment (the root `/` does not).
pub(super) fn has_trailing_slash(path: &str) -> bool {
    path.len() > 1 && path.ends_with('/')
}

/// A request path's segments as dropshot's router reads them: empty ones
/// ignored, the others percent-decoded.
pub(super) fn request_segments(path: &str) -> Vec<String> {
    path.split('/')
        .filter(|s| !s.is_empty())
        .map(|s| percent_encoding::percent_decode_str(s).decode_utf8_lossy().into_owned())
        .collect()
}

/// A request path's segments as written, empty ones kept (`/user/` is
/// `user` and an empty one), percent-decoded.
pub(super) fn written_segments(path: &str) -> Vec<String> {
    let path = path.strip_prefix('/').unwrap_or(path);
    path.split('/')
        .map(|s| percent_encoding::percent_decode_str(s).decode_utf8_lossy().into_owned())
        .collect()
}

/// A member's shell has its handler replaced before anything can call it.
fn unused() -> HttpError {
    HttpError::for_internal_error("a routing shell was called".to_string())
}

/// Whether a request's segments as written are those of a path template
/// as written (`written_segments` of each), a variable standing for any
/// text.
pub(super) fn template_matches(template: &[String], written: &[String]) -> bool {
    template.len() == written.len()
        && template
            .iter()
            .zip(written)
            .all(|(segment, given)| match Segment::parse(segment) {
                // An empty variable is what the empty-segment handling is for.
                Segment::Variable(_) => true,
                segment => segment.matches(given),
            })
}
