//! Requests with an empty path segment: dropshot's router skips it, so
//! they reach a shorter route, whose hidden 405 endpoint hands them on.

use std::sync::Arc;

use dropshot::{ApiEndpoint, ApiEndpointVersions, HttpError, RawRequest, RequestContext, ServerContext};

use super::member::{Member, template_matches, written_segments};
use api_shared::routes::{segments, specificity};

/// The hidden 405 endpoints (`crate::not_allowed`), each made to serve
/// the requests with an empty segment that reach it.
///
/// dropshot's router skips empty segments, so `PUT /user/` reaches the
/// route `/user`, although it is `/user/{username}` with an empty name
/// (RFC 6570 expands `""` to nothing). Where `/user` has no PUT, its 405
/// endpoint hands such a request to the endpoint whose path it matches
/// segment for segment, empty variables included (literal first), and
/// answers as before when none does. A method `/user` has keeps it, as
/// dropshot would, and so does a request for the 405 endpoint's own path
/// where the spec writes it with a trailing `/` (`PUT /labels/` is
/// `/labels/`, not `/labels/{name}` with an empty name).
pub(super) fn with_empty_variables<C: ServerContext>(mut endpoints: Vec<ApiEndpoint<C>>) -> Vec<ApiEndpoint<C>> {
    let targets: Vec<Member<C>> = {
        let mut served: Vec<&ApiEndpoint<C>> = endpoints
            .iter()
            .filter(|e| !crate::not_allowed::is_not_allowed(&e.operation_id))
            .collect();
        served.sort_by_key(|e| specificity(&e.path));
        served.into_iter().map(Member::of).collect()
    };
    let targets = Arc::new(targets);
    for endpoint in endpoints
        .iter_mut()
        .filter(|e| crate::not_allowed::is_not_allowed(&e.operation_id))
    {
        let depth = segments(&endpoint.path).len();
        let method = endpoint.method.clone();
        if !targets
            .iter()
            .any(|t| t.endpoint.method == method && t.path.len() > depth)
        {
            continue;
        }
        let own = Member::of(endpoint);
        let own_written = written_segments(&endpoint.path);
        let targets = Arc::clone(&targets);
        endpoint.handler = ApiEndpoint::new(
            endpoint.operation_id.clone(),
            move |rqctx: RequestContext<C>, raw: RawRequest| {
                let (own, targets, method) = (own.endpoint.handler.clone(), Arc::clone(&targets), method.clone());
                let own_written = own_written.clone();
                async move {
                    let written = written_segments(rqctx.request.uri().path());
                    let target = targets
                        .iter()
                        .filter(|_| !template_matches(&own_written, &written))
                        .filter(|t| t.endpoint.method == method && t.path.len() == written.len())
                        .find(|t| t.matches_written(&written));
                    match target {
                        Some(target) => target.handle(rqctx, raw).await,
                        None => own
                            .handle_request(rqctx, raw.into_inner())
                            .await
                            .map_err(|_| HttpError::for_internal_error("the 405 endpoint failed".to_string())),
                    }
                }
            },
            endpoint.method.clone(),
            "application/json",
            &endpoint.path,
            ApiEndpointVersions::All,
        )
        .handler;
    }
    endpoints
}
