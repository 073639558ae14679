//! Paths as the server routes them: each segment a literal or a whole
//! `{variable}`, each name once per path. Paths dropshot's router cannot
//! hold side by side (a literal beside a variable, two names at one
//! position) are routed by the runtime's dispatch (`runtime::routing`);
//! this checks that each gets a route the router accepts, so that the
//! designer gets the location instead of a failure at start-up.

use openapiv3::OpenAPI;

use super::{DOCUMENT_PATH, SpecError};

pub(super) fn check_router(spec: &OpenAPI) -> Vec<SpecError> {
    // The server's own route for the spec document takes part too.
    let paths: Vec<&str> = std::iter::once(DOCUMENT_PATH)
        .chain(spec.paths.paths.keys().map(String::as_str))
        .collect();
    let mut errors: Vec<SpecError> = paths.iter().filter_map(|path| check_path(path).err()).collect();
    // dropshot's router takes `/plans/` as `/plans` (it skips a trailing
    // empty segment), as many servers do; two paths that differ only so
    // would be one route with two meanings.
    for path in &paths {
        if let Some(twin) = path.strip_suffix('/').filter(|p| !p.is_empty() && paths.contains(p)) {
            errors.push(SpecError::new(
                format!("paths.{path}"),
                format!(
                    "`{path}` and `{twin}` are one path to dropshot's router, which ignores a trailing `/`: keep one"
                ),
            ));
        }
    }
    if !errors.is_empty() {
        return errors;
    }
    for (path, route) in paths.iter().zip(api_shared::routes::routes(&paths)) {
        let names = path_variables(&route);
        if let Some(twice) = names.iter().enumerate().find(|(i, n)| names[..*i].contains(n)) {
            errors.push(SpecError::new(
                format!("paths.{path}"),
                format!(
                    "routed as `{route}` beside the other paths (a variable takes the first name seen at its position), which names `{{{}}}` twice: rename a variable",
                    twice.1
                ),
            ));
        }
    }
    errors
}

/// One path's own shape, or why the router cannot take it.
fn check_path(path: &str) -> Result<(), SpecError> {
    let location = format!("paths.{path}");
    if !path.starts_with('/') {
        return Err(SpecError::new(location, "a path must start with `/`"));
    }
    let mut names = Vec::new();
    // A trailing `/` is served as the path without it (dropshot's router).
    let inner = path.strip_suffix('/').unwrap_or(path);
    for segment in inner.trim_start_matches('/').split('/') {
        if segment.is_empty() {
            if inner.is_empty() {
                break;
            }
            return Err(SpecError::new(location, "empty path segment (`//`)"));
        }
        match path_variable(segment) {
            Some(Ok(name)) => {
                if names.contains(&name) {
                    return Err(SpecError::new(location, format!("variable `{name}` is used twice")));
                }
                names.push(name);
            }
            Some(Err(())) => {
                return Err(SpecError::new(
                    location,
                    format!(
                        "segment `{segment}` mixes a variable with other text: dropshot's router needs a whole-segment `{{name}}`"
                    ),
                ));
            }
            None => {}
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
