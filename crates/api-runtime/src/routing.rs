//! Paths beyond dropshot's router. Its tree holds, at one position, either
//! literal segments or one variable, never both, and one variable name
//! only; real documents have `/pet/findByStatus` beside `/pet/{petId}` and
//! `/Services/{Sid}` beside `/Services/{ServiceSid}/Entities`.
//!
//! Every path gets a route dropshot can hold ([`routes`]): at a position
//! where any path has a variable, every path has that variable, under the
//! first name seen there. An endpoint whose route is its own path is
//! registered as it is. The others are served by a dispatch endpoint per
//! method and route ([`register_routed`]), which tries its endpoints
//! literal first (as every common router does) and hands the request to
//! the first whose path matches; dropshot's document shows the endpoint
//! whose route is its own path, if one is among them, and none of the
//! others (the agreement test's normalization says so).

use std::collections::BTreeMap;
use std::sync::Arc;

use dropshot::{
    ApiDescription, ApiEndpoint, ApiEndpointBodyContentType, ApiEndpointParameter, ApiEndpointParameterLocation,
    ApiEndpointVersions, HttpError, RawRequest, RequestContext, ServerContext, SharedExtractor,
};

use crate::not_allowed::ApiDescriptionError;

/// One segment of a path template.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Segment {
    Literal(String),
    Variable(String),
}

fn segments(path: &str) -> Vec<Segment> {
    path.split('/')
        .filter(|s| !s.is_empty())
        .map(|s| match s.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            Some(name) => Segment::Variable(name.to_string()),
            None => Segment::Literal(s.to_string()),
        })
        .collect()
}

fn template(segments: &[Segment]) -> String {
    let parts: Vec<String> = segments
        .iter()
        .map(|s| match s {
            Segment::Literal(l) => l.clone(),
            Segment::Variable(v) => format!("{{{v}}}"),
        })
        .collect();
    format!("/{}", parts.join("/"))
}

/// Whether the runtime's dispatch serves an operation rather than an
/// endpoint of the API trait: when dropshot's router cannot hold its path
/// beside the others (`route` differs from `path`), or its endpoint macro
/// has no such method (`TRACE`).
pub fn served_by_dispatch(method: &str, path: &str, route: &str) -> bool {
    route != path || method.eq_ignore_ascii_case("TRACE")
}

/// The route dropshot's router holds for each of `paths` (path templates
/// such as `/v1/pet/{petId}`), in the same order. A path that the router
/// can hold beside the others is its own route.
pub fn routes(paths: &[&str]) -> Vec<String> {
    let mut out: Vec<Vec<Segment>> = paths.iter().map(|p| segments(p)).collect();
    let longest = out.iter().map(Vec::len).max().unwrap_or(0);
    for position in 0..longest {
        // Paths that share a route up to `position` meet at one node of
        // the router's tree: they take the first variable seen there.
        let mut nodes: BTreeMap<Vec<Segment>, Option<String>> = BTreeMap::new();
        for route in out.iter().filter(|r| r.len() > position) {
            let variable = nodes.entry(route[..position].to_vec()).or_default();
            if let (None, Segment::Variable(name)) = (&variable, &route[position]) {
                *variable = Some(name.clone());
            }
        }
        for route in out.iter_mut().filter(|r| r.len() > position) {
            if let Some(Some(name)) = nodes.get(&route[..position]) {
                route[position] = Segment::Variable(name.clone());
            }
        }
    }
    out.iter().map(|s| template(s)).collect()
}

/// The order in which endpoints are tried: at the first position where
/// one path has a literal and another a variable, the literal comes
/// first. (A key, so that paths of any length sort by a total order.)
fn specificity(path: &str) -> Vec<bool> {
    segments(path)
        .iter()
        .map(|segment| matches!(segment, Segment::Variable(_)))
        .collect()
}

/// A method and a route: one endpoint of dropshot's router.
type RouteKey = (http::Method, String);

/// An endpoint a dispatch endpoint may hand a request to.
struct Member<C: ServerContext> {
    path: Vec<Segment>,
    endpoint: ApiEndpoint<C>,
}

impl<C: ServerContext> Member<C> {
    /// A member that runs `endpoint`'s handler (shared, not moved: the
    /// endpoint may still be registered, or get another handler).
    fn of(endpoint: &ApiEndpoint<C>) -> Self {
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
            endpoint: shell,
        }
    }

    /// Whether a request's (decoded, non-empty) segments are this path's:
    /// its literals are where they are.
    fn matches(&self, request: &[String]) -> bool {
        self.path.len() == request.len()
            && self.path.iter().zip(request).all(|(segment, given)| match segment {
                Segment::Literal(literal) => literal == given,
                Segment::Variable(_) => true,
            })
    }

    /// Whether a request's segments as written (empty ones kept) are this
    /// path's, a variable standing for any text, the empty one included.
    fn matches_written(&self, written: &[String]) -> bool {
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
    async fn handle(
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

/// A request path's segments as dropshot's router reads them: empty ones
/// ignored, the others percent-decoded.
fn request_segments(path: &str) -> Vec<String> {
    path.split('/')
        .filter(|s| !s.is_empty())
        .map(|s| percent_encoding::percent_decode_str(s).decode_utf8_lossy().into_owned())
        .collect()
}

/// A request path's segments as written, empty ones kept (`/user/` is
/// `user` and an empty one), percent-decoded.
fn written_segments(path: &str) -> Vec<String> {
    let path = path.strip_prefix('/').unwrap_or(path);
    path.split('/')
        .map(|s| percent_encoding::percent_decode_str(s).decode_utf8_lossy().into_owned())
        .collect()
}

/// A path variable of a route, as dropshot's register wants each declared
/// (a hidden endpoint's document does not matter; its route does).
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct RouteVariable {
    #[allow(dead_code)]
    variable: String,
}

fn route_parameters(route: &str) -> Vec<ApiEndpointParameter> {
    segments(route)
        .into_iter()
        .filter_map(|segment| match segment {
            Segment::Variable(name) => Some(name),
            Segment::Literal(_) => None,
        })
        .map(|name| {
            let metadata =
                <dropshot::Path<RouteVariable> as SharedExtractor>::metadata(ApiEndpointBodyContentType::Json);
            let schema = metadata
                .parameters
                .into_iter()
                .next()
                .expect("one field, one parameter")
                .schema;
            ApiEndpointParameter::new_named(
                &ApiEndpointParameterLocation::Path,
                name,
                None,
                true,
                schema,
                Vec::new(),
            )
        })
        .collect()
}

/// Registers `endpoints` (each with its spec path as `path`) on `api`:
/// each one the router can hold as it is, the others through a dispatch
/// endpoint per method and route.
pub fn register_routed<C: ServerContext>(
    api: &mut ApiDescription<C>,
    endpoints: Vec<ApiEndpoint<C>>,
) -> Result<(), ApiDescriptionError> {
    let endpoints = with_empty_variables(endpoints);
    let paths: Vec<String> = endpoints.iter().map(|e| e.path.clone()).collect();
    let routes = routes(&paths.iter().map(String::as_str).collect::<Vec<_>>());
    // (method, route) → the endpoints that share it, in the given order.
    let mut groups: Vec<(RouteKey, Vec<ApiEndpoint<C>>)> = Vec::new();
    for (endpoint, route) in endpoints.into_iter().zip(routes) {
        let key = (endpoint.method.clone(), route);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(endpoint),
            None => groups.push((key, vec![endpoint])),
        }
    }
    for ((_, route), mut endpoints) in groups {
        let own_route = |e: &ApiEndpoint<C>| template(&segments(&e.path)) == route;
        if let [only] = endpoints.as_slice()
            && own_route(only)
        {
            api.register(endpoints.remove(0))?;
            continue;
        }
        endpoints.sort_by_key(|e| specificity(&e.path));
        // The endpoint dropshot documents is the one on its own route, if
        // any (a variable path, last after sorting): the dispatch is
        // registered as that endpoint, with its metadata, so the document
        // is the one it would have alone; the others stay hidden.
        let base_index = endpoints.iter().rposition(own_route);
        let visible = base_index.is_some();
        let members: Vec<Member<C>> = endpoints.iter().map(Member::of).collect();
        let mut base = endpoints.swap_remove(base_index.unwrap_or(0));
        let members = Arc::new(members);
        base.handler = ApiEndpoint::new(
            base.operation_id.clone(),
            move |rqctx: RequestContext<C>, raw: RawRequest| {
                let members = Arc::clone(&members);
                async move { dispatch(&members, rqctx, raw).await }
            },
            base.method.clone(),
            "application/json",
            &route,
            ApiEndpointVersions::All,
        )
        .handler;
        // On its own route the base keeps its parameters (and its place
        // in the document); elsewhere it is hidden and declares the
        // route's variables.
        if !visible {
            base.parameters = route_parameters(&route);
            base.visible = false;
        }
        base.path = route;
        api.register(base)?;
    }
    Ok(())
}

/// A member's shell has its handler replaced before anything can call it.
fn unused() -> HttpError {
    HttpError::for_internal_error("a routing shell was called".to_string())
}

/// The hidden 405 endpoints (`crate::not_allowed`), each made to serve
/// the requests with an empty segment that reach it.
///
/// dropshot's router skips empty segments, so `PUT /user/` reaches the
/// route `/user`, although it is `/user/{username}` with an empty name
/// (RFC 6570 expands `""` to nothing). Where `/user` has no PUT, its 405
/// endpoint hands such a request to the endpoint whose path it matches
/// segment for segment, empty variables included (literal first), and
/// answers as before when none does. A method `/user` has keeps it, as
/// dropshot would.
fn with_empty_variables<C: ServerContext>(mut endpoints: Vec<ApiEndpoint<C>>) -> Vec<ApiEndpoint<C>> {
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
        let targets = Arc::clone(&targets);
        endpoint.handler = ApiEndpoint::new(
            endpoint.operation_id.clone(),
            move |rqctx: RequestContext<C>, raw: RawRequest| {
                let (own, targets, method) = (own.endpoint.handler.clone(), Arc::clone(&targets), method.clone());
                async move {
                    let written = written_segments(rqctx.request.uri().path());
                    let target = targets
                        .iter()
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

/// Hands the request to the first member whose path it matches.
async fn dispatch<C: ServerContext>(
    members: &[Member<C>],
    rqctx: RequestContext<C>,
    raw: RawRequest,
) -> Result<http::Response<dropshot::Body>, HttpError> {
    let request = request_segments(rqctx.request.uri().path());
    let Some(member) = members.iter().find(|m| m.matches(&request)) else {
        // The route matched, no path under it did: what the router says
        // for a path it does not know.
        return Err(HttpError::for_not_found(
            None,
            format!("no path of this API matches {}", rqctx.request.uri().path()),
        ));
    };
    member.handle(rqctx, raw).await
}

#[cfg(test)]
mod tests {
    use super::routes;

    #[test]
    fn a_path_the_router_can_hold_is_its_own_route() {
        let paths = [
            "/v1/orders",
            "/v1/orders/{orderId}",
            "/v1/orders/{orderId}/lines",
            "/v1/openapi.json",
        ];
        assert_eq!(routes(&paths), paths);
    }

    #[test]
    fn a_literal_beside_a_variable_takes_the_variable() {
        let paths = [
            "/pet/findByStatus",
            "/pet/{petId}",
            "/pet/{petId}/uploadImage",
            "/pet/findByTags",
            "/pet",
        ];
        assert_eq!(
            routes(&paths),
            [
                "/pet/{petId}",
                "/pet/{petId}",
                "/pet/{petId}/uploadImage",
                "/pet/{petId}",
                "/pet"
            ]
        );
    }

    #[test]
    fn variables_at_one_position_take_the_first_name_at_any_depth() {
        let paths = [
            "/Services/{ServiceSid}/Entities",
            "/Services/{Sid}",
            "/Services/{ServiceSid}/RateLimits/{RateLimitSid}/Buckets",
            "/Services/{ServiceSid}/RateLimits/{Sid}",
            "/Attempts/Summary",
            "/Attempts/{Sid}",
        ];
        assert_eq!(
            routes(&paths),
            [
                "/Services/{ServiceSid}/Entities",
                "/Services/{ServiceSid}",
                "/Services/{ServiceSid}/RateLimits/{RateLimitSid}/Buckets",
                "/Services/{ServiceSid}/RateLimits/{RateLimitSid}",
                "/Attempts/{Sid}",
                "/Attempts/{Sid}",
            ]
        );
    }

    #[test]
    fn a_merged_literal_subtree_follows_the_variable() {
        let paths = ["/a/lit/x", "/a/{v}/{w}", "/a/lit/y/z", "/a/{v}/q/z"];
        assert_eq!(
            routes(&paths),
            ["/a/{v}/{w}", "/a/{v}/{w}", "/a/{v}/{w}/z", "/a/{v}/{w}/z"]
        );
    }
}
