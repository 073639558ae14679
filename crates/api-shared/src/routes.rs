//! The routes dropshot's router can hold for a spec's paths, and the
//! order in which a dispatch tries the paths that share one. (The
//! dispatch itself is `api_runtime::routing`.)

use std::collections::BTreeMap;

/// One segment of a path template.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Segment {
    Literal(String),
    /// A whole segment: `{petId}`.
    Variable(String),
    /// Variables with literal text around and between them: `{Sid}.json`,
    /// `v{version}`, `{lat},{lon}`, `{id}.{format}`. dropshot's router has
    /// none; the dispatch matches it.
    Pattern(Vec<Part>),
}

/// A piece of a [`Segment::Pattern`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Part {
    Text(String),
    Variable(String),
}

impl Segment {
    /// Reads one segment of a template: a segment whose braces are not
    /// variables with text between them (`{a}{b}`, which nothing splits)
    /// reads as a literal; the generator refuses it first.
    pub fn parse(segment: &str) -> Segment {
        match split_variables(segment) {
            None => Segment::Literal(segment.to_string()),
            Some(parts) => match parts.as_slice() {
                [Part::Variable(name)] => Segment::Variable(name.clone()),
                _ => Segment::Pattern(parts),
            },
        }
    }

    /// The first variable's name, if the segment has one: the name a route
    /// gives its position.
    pub fn variable(&self) -> Option<&str> {
        match self {
            Segment::Literal(_) => None,
            Segment::Variable(name) => Some(name),
            Segment::Pattern(parts) => parts.iter().find_map(|part| match part {
                Part::Variable(name) => Some(name.as_str()),
                Part::Text(_) => None,
            }),
        }
    }

    /// Whether a request's segment (as given: decoded or not) matches.
    pub fn matches(&self, given: &str) -> bool {
        self.values(given).is_some()
    }

    /// Each variable's value in a request's segment (as given), when the
    /// segment matches: none for a literal. Between two variables the text
    /// that separates them is taken at its last place that lets the rest
    /// match (`{id}.{format}` reads `a.b.json` as `a.b` and `json`), and
    /// every variable stands for one character at least.
    pub fn values<'a>(&'a self, given: &'a str) -> Option<Vec<(&'a str, &'a str)>> {
        match self {
            Segment::Literal(literal) => (literal == given).then(Vec::new),
            Segment::Variable(name) => Some(vec![(name.as_str(), given)]),
            Segment::Pattern(parts) => {
                let mut out = Vec::new();
                match_parts(parts, given, &mut out).then_some(out)
            }
        }
    }
}

fn match_parts<'a>(parts: &'a [Part], given: &'a str, out: &mut Vec<(&'a str, &'a str)>) -> bool {
    match parts {
        [] => given.is_empty(),
        [Part::Text(text), rest @ ..] => given
            .strip_prefix(text.as_str())
            .is_some_and(|after| match_parts(rest, after, out)),
        [Part::Variable(name)] => {
            out.push((name, given));
            !given.is_empty()
        }
        [Part::Variable(name), Part::Text(text), ..] => {
            for (at, _) in given.rmatch_indices(text.as_str()) {
                if at == 0 {
                    continue;
                }
                let mark = out.len();
                out.push((name, &given[..at]));
                if match_parts(&parts[1..], &given[at..], out) {
                    return true;
                }
                out.truncate(mark);
            }
            false
        }
        // Two variables with nothing between them: `parse` never makes it.
        [Part::Variable(_), Part::Variable(_), ..] => false,
    }
}

/// A segment's variables and the text around and between them, when it
/// has one variable at least and text between every two
/// (`{lat},{lon}` → `[lat, ",", lon]`); `None` for a literal, or for
/// braces that are not such variables.
pub fn split_variables(segment: &str) -> Option<Vec<Part>> {
    if !segment.contains(['{', '}']) {
        return None;
    }
    let mut parts = Vec::new();
    let mut rest = segment;
    while !rest.is_empty() {
        match rest.find(['{', '}']) {
            None => {
                parts.push(Part::Text(rest.to_string()));
                break;
            }
            Some(open) if rest[open..].starts_with('{') => {
                if open > 0 {
                    parts.push(Part::Text(rest[..open].to_string()));
                }
                let after = &rest[open + 1..];
                let close = after.find(['{', '}']).filter(|c| after[*c..].starts_with('}'))?;
                let name = &after[..close];
                if name.is_empty() || matches!(parts.last(), Some(Part::Variable(_))) {
                    return None;
                }
                parts.push(Part::Variable(name.to_string()));
                rest = &after[close + 1..];
            }
            Some(_) => return None,
        }
    }
    Some(parts)
}

pub fn segments(path: &str) -> Vec<Segment> {
    path.split('/').filter(|s| !s.is_empty()).map(Segment::parse).collect()
}

pub fn template(segments: &[Segment]) -> String {
    let parts: Vec<String> = segments
        .iter()
        .map(|s| match s {
            Segment::Literal(l) => l.clone(),
            Segment::Variable(v) => format!("{{{v}}}"),
            Segment::Pattern(parts) => parts
                .iter()
                .map(|part| match part {
                    Part::Text(text) => text.clone(),
                    Part::Variable(name) => format!("{{{name}}}"),
                })
                .collect(),
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

/// Which of `operations` (`(method, path)`, in order) the runtime's
/// dispatch serves, given the route each gets ([`routes`]): those
/// [`served_by_dispatch`] names, and, of one method on two paths that
/// differ by a trailing `/` alone (one route to dropshot's router, which
/// ignores it), the one with the `/`. The API trait holds the other; the
/// dispatch tells the two apart by the request's trailing `/`.
pub fn dispatched(operations: &[(&str, &str)], routes: &[String]) -> Vec<bool> {
    let written: std::collections::HashSet<(String, &str)> = operations
        .iter()
        .map(|(method, path)| (method.to_ascii_uppercase(), *path))
        .collect();
    operations
        .iter()
        .zip(routes)
        .map(|(&(method, path), route)| {
            let twin = path
                .strip_suffix('/')
                .filter(|twin| !twin.is_empty())
                .is_some_and(|twin| written.contains(&(method.to_ascii_uppercase(), twin)));
            twin || served_by_dispatch(method, path, route)
        })
        .collect()
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
            let prefix = &route[..position];
            let variable = nodes.entry(prefix.to_vec()).or_default();
            // A pattern is a variable to dropshot's router. A name the
            // route already has above (`/store/{orderId}/{orderId}`, when a
            // sibling's variable took a literal's place) gets a suffix:
            // the router needs each once, and the generated layer reads
            // the spec's names from the spec's path anyway.
            if let (None, Some(name)) = (&variable, route[position].variable()) {
                let taken: Vec<&str> = prefix.iter().filter_map(Segment::variable).collect();
                let mut unique = name.to_string();
                let mut n = 2;
                while taken.contains(&unique.as_str()) {
                    unique = format!("{name}_{n}");
                    n += 1;
                }
                *variable = Some(unique);
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
/// paths differ in kind, a literal comes first, then a pattern
/// (`{Sid}.json`), then a whole variable. (A key, so that paths of any
/// length sort by a total order.)
pub fn specificity(path: &str) -> Vec<u8> {
    segments(path)
        .iter()
        .map(|segment| match segment {
            Segment::Literal(_) => 0,
            Segment::Pattern(_) => 1,
            Segment::Variable(_) => 2,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{Segment, dispatched, routes, specificity};

    #[test]
    fn a_segment_is_a_literal_a_variable_or_a_variable_with_text_around_it() {
        assert_eq!(Segment::parse("pets"), Segment::Literal("pets".into()));
        assert_eq!(Segment::parse("{petId}"), Segment::Variable("petId".into()));
        let json = Segment::parse("{Sid}.json");
        assert_eq!(json.variable(), Some("Sid"));
        assert_eq!(json.values("CA1.json"), Some(vec![("Sid", "CA1")]));
        assert_eq!(json.values(".json"), None);
        assert_eq!(json.values("CA1.xml"), None);
        assert_eq!(Segment::parse("v{major}").values("v2"), Some(vec![("major", "2")]));
        // Several variables are split at the text between them, the
        // earlier taking the most it can.
        let at = Segment::parse("@{lat},{lon}");
        assert_eq!(at.values("@1.5,-2"), Some(vec![("lat", "1.5"), ("lon", "-2")]));
        assert!(!at.matches("@1.5"));
        let file = Segment::parse("{id}.{format}");
        assert_eq!(file.values("a.b.json"), Some(vec![("id", "a.b"), ("format", "json")]));
        assert!(!file.matches("a."));
        assert_eq!(
            Segment::parse("{name}-{version}.zip").values("x-y-1.2.zip"),
            Some(vec![("name", "x-y"), ("version", "1.2")])
        );
        // Two variables with nothing between them cannot be split: a
        // literal (the generator refuses it).
        assert!(matches!(Segment::parse("{page}{ext}"), Segment::Literal(_)));
        // Literal first, then a pattern, then a whole variable.
        let mut paths = ["/calls/{sid}", "/calls/{sid}.json", "/calls/summary"];
        paths.sort_by_key(|p| specificity(p));
        assert_eq!(paths, ["/calls/summary", "/calls/{sid}.json", "/calls/{sid}"]);
    }

    #[test]
    fn a_route_names_each_variable_once() {
        let paths = ["/store/receipt-{orderId}", "/store/orders/{orderId}"];
        assert_eq!(routes(&paths), ["/store/{orderId}", "/store/{orderId}/{orderId_2}"]);
    }

    #[test]
    fn a_variable_with_text_around_it_routes_as_a_variable() {
        let paths = ["/Calls/{Sid}.json", "/Calls/{CallSid}/Events.json", "/Calls.json"];
        assert_eq!(
            routes(&paths),
            ["/Calls/{Sid}", "/Calls/{Sid}/Events.json", "/Calls.json"]
        );
    }

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

    #[test]
    fn of_one_method_on_a_path_with_and_without_a_trailing_slash_the_dispatch_serves_the_one_with_it() {
        let operations = [
            ("GET", "/jobs"),
            ("get", "/jobs/"),
            ("POST", "/jobs/"),
            ("GET", "/"),
            ("TRACE", "/t"),
        ];
        let paths: Vec<&str> = operations.iter().map(|(_, path)| *path).collect();
        assert_eq!(
            dispatched(&operations, &routes(&paths)),
            [false, true, false, false, true]
        );
    }
}
