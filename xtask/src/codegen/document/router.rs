//! Paths as the server routes them: each segment a literal, a whole
//! `{variable}` or variables with text around and between them
//! (`{Sid}.json`, `{lat},{lon}`), each name once per path. Paths dropshot's router cannot hold side by side
//! (a literal beside a variable, two names at one position, text around a
//! variable) are routed by the runtime's dispatch (`runtime::routing`);
//! this checks that each gets a route the router accepts, so that the
//! designer gets the location instead of a failure at start-up.

use openapiv3::OpenAPI;

use super::errors::SpecError;
use super::model::document_path;

pub(super) fn check_router(spec: &OpenAPI) -> Vec<SpecError> {
    // The server's own route for the spec document takes part too.
    let paths: Vec<&str> = std::iter::once(document_path(spec))
        .chain(spec.paths.paths.keys().map(String::as_str))
        .collect();
    // dropshot's router takes `/plans/` as `/plans` (it skips a trailing
    // empty segment), as many servers do: two paths that differ only so
    // are one route, whose methods are served side by side, and one
    // method on both by the runtime's dispatch
    // (`api_shared::routes::dispatched`).
    paths.iter().filter_map(|path| check_path(path).err()).collect()
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
        match segment_variables(segment) {
            Some(Ok(found)) => {
                for name in found {
                    if names.contains(&name) {
                        return Err(SpecError::new(location, format!("variable `{name}` is used twice")));
                    }
                    names.push(name);
                }
            }
            Some(Err(reason)) => {
                return Err(SpecError::new(location, format!("segment `{segment}`: {reason}")));
            }
            None => {}
        }
    }
    Ok(())
}

/// `Some(Ok(names))` for a segment with variables, whole (`{name}`) or
/// with text around and between them (`{Sid}.json`, `{lat},{lon}`, which
/// the runtime's dispatch matches); `Some(Err(why))` for one with braces
/// that are not such variables; `None` for a literal.
fn segment_variables(segment: &str) -> Option<Result<Vec<&str>, String>> {
    if !segment.contains(['{', '}']) {
        return None;
    }
    let names = path_variables(segment);
    let well_formed = segment.matches('{').count() == names.len()
        && segment.matches('}').count() == names.len()
        // dropshot reads `{name:regex}` as a pattern.
        && names.iter().all(|n| !n.contains(':'));
    Some(match api_shared::routes::split_variables(segment) {
        Some(_) if well_formed => Ok(names),
        None if well_formed => Err(
            "two variables with no text between them (`{page}{extension}`) cannot be split: separate them".to_string(),
        ),
        _ => Err("its braces are not `{name}` variables".to_string()),
    })
}

/// The variables of a path template, in order: every `{name}` in its
/// text, so that a segment the router refuses (`{name}-{version}.zip`)
/// still names its variables and its parameters are not refused again.
pub fn path_variables(path: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find(['{', '}']) {
            Some(close) if after[close..].starts_with('}') => {
                if close > 0 {
                    out.push(&after[..close]);
                }
                rest = &after[close + 1..];
            }
            Some(close) => rest = &after[close..],
            None => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::path_variables;

    #[test]
    fn every_variable_a_path_names() {
        assert_eq!(path_variables("/pets/{petId}/photos"), ["petId"]);
        assert_eq!(path_variables("/Calls/{Sid}.json"), ["Sid"]);
        assert_eq!(
            path_variables("/p/{group}/{name}-{version}.zip"),
            ["group", "name", "version"]
        );
        assert_eq!(path_variables("/a/{{b}/{}"), ["b"]);
    }
}
