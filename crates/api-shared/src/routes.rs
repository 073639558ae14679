//! The routes dropshot's router can hold for a spec's paths, and the
//! order in which a dispatch tries the paths that share one. (The
//! dispatch itself is `api_runtime::routing`.)

use std::collections::BTreeMap;

/// One segment of a path template.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Segment {
    Literal(String),
    Variable(String),
}

pub fn segments(path: &str) -> Vec<Segment> {
    path.split('/')
        .filter(|s| !s.is_empty())
        .map(|s| match s.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            Some(name) => Segment::Variable(name.to_string()),
            None => Segment::Literal(s.to_string()),
        })
        .collect()
}

pub fn template(segments: &[Segment]) -> String {
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
/// beside the others (`route` differs from `path`, a trailing `/` aside,
/// which the router ignores), or its endpoint macro has no such method
/// (`TRACE`).
pub fn served_by_dispatch(method: &str, path: &str, route: &str) -> bool {
    let path = match path.strip_suffix('/') {
        Some(stripped) if !stripped.is_empty() => stripped,
        _ => path,
    };
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
pub fn specificity(path: &str) -> Vec<bool> {
    segments(path)
        .iter()
        .map(|segment| matches!(segment, Segment::Variable(_)))
        .collect()
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
