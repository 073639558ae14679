//! dropshot's router panics at start-up on layouts it cannot route; this
//! checks a spec's paths by the router's rules first, so that the designer
//! gets the location instead.

use std::collections::BTreeMap;

use openapiv3::OpenAPI;

use super::{DOCUMENT_PATH, SpecError};

/// One node of the router's tree: what dropshot's router accepts at one
/// position of a path.
#[derive(Default)]
struct RouteNode {
    literals: BTreeMap<String, RouteNode>,
    variable: Option<(String, Box<RouteNode>)>,
}

/// dropshot's router panics at start-up on layouts it cannot route; these are
/// its rules: a segment is a literal or a whole `{variable}`; at one position
/// of the tree there are either literals or one variable, never both, and
/// never two variable names; a name is used once per path.
pub(super) fn check_router(spec: &OpenAPI) -> Vec<SpecError> {
    let mut root = RouteNode::default();
    // The server's own route for the spec document takes part too.
    let own = std::iter::once(DOCUMENT_PATH.to_string());
    own.chain(spec.paths.paths.keys().cloned())
        .filter_map(|path| add_route(&mut root, &path).err())
        .collect()
}

/// Adds `path` to the tree, or says why the router cannot take it.
fn add_route(root: &mut RouteNode, path: &str) -> Result<(), SpecError> {
    let location = format!("paths.{path}");
    if !path.starts_with('/') {
        return Err(SpecError::new(location, "a path must start with `/`"));
    }
    let mut node = root;
    let mut names = Vec::new();
    for segment in path.trim_start_matches('/').split('/') {
        if segment.is_empty() {
            if path == "/" {
                break;
            }
            return Err(SpecError::new(location, "empty path segment (`//` or a trailing `/`)"));
        }
        match path_variable(segment) {
            Some(Ok(name)) => {
                if names.contains(&name) {
                    return Err(SpecError::new(location, format!("variable `{name}` is used twice")));
                }
                names.push(name);
                if let Some(literal) = node.literals.keys().next() {
                    return Err(SpecError::new(
                        location,
                        format!(
                            "variable `{{{name}}}` at the same position as literal `{literal}` of another path: dropshot's router cannot route both"
                        ),
                    ));
                }
                let (existing, child) = node.variable.get_or_insert_with(|| (name.to_string(), Box::default()));
                if existing != name {
                    return Err(SpecError::new(
                        location,
                        format!(
                            "variable `{{{name}}}` at the same position as `{{{existing}}}` of another path: dropshot's router needs one name"
                        ),
                    ));
                }
                node = child;
            }
            Some(Err(())) => {
                return Err(SpecError::new(
                    location,
                    format!(
                        "segment `{segment}` mixes a variable with other text: dropshot's router needs a whole-segment `{{name}}`"
                    ),
                ));
            }
            None => {
                if let Some((name, _)) = &node.variable {
                    return Err(SpecError::new(
                        location,
                        format!(
                            "literal `{segment}` at the same position as variable `{{{name}}}` of another path: dropshot's router cannot route both"
                        ),
                    ));
                }
                node = node.literals.entry(segment.to_string()).or_default();
            }
        }
    }
    Ok(())
}

/// `Some(Ok(name))` for `{name}`, `Some(Err)` for a segment that holds a
/// brace but is not a whole variable, `None` for a literal.
fn path_variable(segment: &str) -> Option<Result<&str, ()>> {
    if !segment.contains(['{', '}']) {
        return None;
    }
    let name = segment.strip_prefix('{').and_then(|s| s.strip_suffix('}'));
    Some(match name {
        Some(n) if !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => Ok(n),
        _ => Err(()),
    })
}

/// The variables of a path template, in order.
pub fn path_variables(path: &str) -> Vec<&str> {
    path.split('/')
        .filter_map(path_variable)
        .filter_map(Result::ok)
        .collect()
}
