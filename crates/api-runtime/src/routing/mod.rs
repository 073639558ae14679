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
//! the first whose path matches (of `/jobs` and `/jobs/`, one method on
//! both, the one written as the request is); dropshot's document shows
//! the endpoint whose route is its own path, if one is among them, and
//! none of the others (the agreement test's normalization says so).

use std::sync::Arc;

use dropshot::{
    ApiDescription, ApiEndpoint, ApiEndpointBodyContentType, ApiEndpointParameter, ApiEndpointParameterLocation,
    ApiEndpointVersions, HttpError, RawRequest, RequestContext, ServerContext, SharedExtractor,
};

use crate::not_allowed::ApiDescriptionError;

mod empty_segments;
mod member;

pub use api_shared::routes::{dispatched, routes};
use api_shared::routes::{segments, specificity, template};
use empty_segments::with_empty_variables;
use member::{Member, has_trailing_slash, request_segments};

/// A method and a route: one endpoint of dropshot's router.
type RouteKey = (http::Method, String);

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
        .filter_map(|segment| segment.variable().map(String::from))
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
        // (Of two on one route by a trailing `/`, the one without it.)
        let base_index = endpoints
            .iter()
            .rposition(|e| own_route(e) && !has_trailing_slash(&e.path))
            .or_else(|| endpoints.iter().rposition(own_route));
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

/// Hands the request to the first member whose path it matches.
async fn dispatch<C: ServerContext>(
    members: &[Member<C>],
    rqctx: RequestContext<C>,
    raw: RawRequest,
) -> Result<http::Response<dropshot::Body>, HttpError> {
    let path = rqctx.request.uri().path();
    let request = request_segments(path);
    let Some(first) = members.iter().find(|m| m.matches(&request)) else {
        // The route matched, no path under it did: what the router says
        // for a path it does not know.
        return Err(HttpError::for_not_found(
            None,
            format!("no path of this API matches {path}"),
        ));
    };
    // Of two paths that differ by a trailing `/` alone (`/jobs`,
    // `/jobs/`), each serves the requests written as it is; one alone
    // serves both, as dropshot's router does.
    let trailing = has_trailing_slash(path);
    let member = members
        .iter()
        .find(|m| m.path == first.path && m.trailing == trailing)
        .unwrap_or(first);
    member.handle(rqctx, raw).await
}
