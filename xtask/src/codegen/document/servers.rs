//! The spec's `servers`: where the API is mounted and the URLs a client
//! starts from. A document without `servers` is served at the root, as
//! OpenAPI says; a relative URL (`/api/v1`) is a path on the client's own
//! host; server variables take their defaults.

use openapiv3::Server;

use super::errors::SpecError;
use super::model::Spec;

/// A server's URL with each `{variable}` replaced by its default.
pub fn server_url(server: &Server, location: &str) -> Result<String, SpecError> {
    let mut url = String::new();
    let mut rest = server.url.as_str();
    while let Some(open) = rest.find('{') {
        let close = rest[open..]
            .find('}')
            .map(|i| open + i)
            .ok_or_else(|| SpecError::new(format!("{location}.url"), "a `{` without its `}`"))?;
        let name = &rest[open + 1..close];
        let variable = server.variables.as_ref().and_then(|v| v.get(name)).ok_or_else(|| {
            SpecError::new(
                format!("{location}.url"),
                format!("variable `{{{name}}}` is not declared in the server's `variables`"),
            )
        })?;
        url.push_str(&rest[..open]);
        url.push_str(&variable.default);
        rest = &rest[close + 1..];
    }
    url.push_str(rest);
    Ok(url)
}

/// The path the server mounts the API at: the first server's, without a
/// trailing slash; the root when there is no server, or when its path
/// cannot be one (a placeholder such as `/Your API URL`, a variable
/// without a default: tolerated, with a warning). (Other servers whose
/// path differs are a design question, which `cargo xtask lint` raises.)
pub fn mount_path(spec: &Spec) -> String {
    spec.api
        .servers
        .first()
        .and_then(|server| server_url(server, "servers.0").ok())
        .map(|url| base_path(&url))
        .filter(|path| is_mountable(path))
        .unwrap_or_default()
}

/// Whether the router can mount every operation under `path`.
pub fn is_mountable(path: &str) -> bool {
    !path.contains(['{', '}', ' ']) && !path.contains("//")
}

/// The path part of a server URL (absolute or relative), without a
/// trailing slash (`/v1`).
pub fn base_path(url: &str) -> String {
    let path = match url.split_once("://") {
        Some((_, after_scheme)) => after_scheme.find('/').map(|i| &after_scheme[i..]).unwrap_or(""),
        None => url,
    };
    let path = path.split(['?', '#']).next().unwrap_or_default().trim_end_matches('/');
    // A variable whose default starts with `/` after a `/` of the URL
    // (`https://host/{basePath}`, `/api`) spells one separator twice.
    let mut path = path.to_string();
    while path.contains("//") {
        path = path.replace("//", "/");
    }
    match path.as_str() {
        "" => String::new(),
        p if p.starts_with('/') => p.to_string(),
        p => format!("/{p}"),
    }
}
