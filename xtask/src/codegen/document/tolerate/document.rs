//! The document's top: protocol-relative server URLs, a first server
//! that gives no path to mount the service at, and HTTP authentication
//! schemes other than bearer and basic.

use serde_norway::Value;

use super::values::key_text;

pub(super) fn servers(doc: &mut Value, note: &mut impl FnMut(String, &str)) {
    let Some(Value::Sequence(servers)) = doc.get_mut("servers") else {
        return;
    };
    for (i, server) in servers.iter_mut().enumerate() {
        let Some(Value::String(url)) = server.get_mut("url") else {
            continue;
        };
        let Some(rest) = url.strip_prefix("//") else { continue };
        let host = rest.split('/').next().unwrap_or_default();
        let at = format!("servers.{i}.url");
        if host.contains('.') || host.contains(':') || host == "localhost" {
            *url = format!("https:{url}");
            note(at, "a protocol-relative URL (`//host/…`) is read as HTTPS");
        } else {
            *url = format!("/{}", rest.trim_start_matches('/'));
            note(at, "`//` before a path without a host is read as one `/`");
        }
    }
}

/// The first server's URL, whose path the service is mounted at, when it
/// gives none the router can mount (a placeholder such as `/Your API
/// URL`, a variable without a declared default): the service is served at
/// the root ([`crate::codegen::document::mount_path`]); no other server is
/// mounted.
pub(super) fn unmountable_server(doc: &Value, note: &mut impl FnMut(String, &str)) {
    let Some(server) = doc.get("servers").and_then(Value::as_sequence).and_then(|s| s.first()) else {
        return;
    };
    let Some(url) = server.get("url").and_then(Value::as_str) else {
        return;
    };
    let mut resolved = String::new();
    let mut rest = url;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|i| open + i) else {
            break;
        };
        let name = &rest[open + 1..close];
        let default = server
            .get("variables")
            .and_then(|v| v.get(name))
            .and_then(|v| v.get("default"))
            .and_then(Value::as_str);
        resolved.push_str(&rest[..open]);
        match default {
            Some(default) => resolved.push_str(default),
            None => resolved.push_str(&rest[open..=close]),
        }
        rest = &rest[close + 1..];
    }
    resolved.push_str(rest);
    let path = crate::codegen::document::servers::base_path(&resolved);
    if !crate::codegen::document::servers::is_mountable(&path) {
        note(
            "servers.0.url".into(),
            &format!("`{path}` is no path the service can be mounted at: it is served at the root"),
        );
    }
}

pub(super) fn security_schemes(doc: &mut Value, note: &mut impl FnMut(String, &str)) {
    let Some(Value::Mapping(schemes)) = doc.get_mut("components").and_then(|c| c.get_mut("securitySchemes")) else {
        return;
    };
    for (name, scheme) in schemes.iter_mut() {
        let is_http = scheme.get("type").and_then(Value::as_str) == Some("http");
        let http = scheme
            .get("scheme")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_ascii_lowercase();
        if !is_http || http == "bearer" || http == "basic" {
            continue;
        }
        let Value::Mapping(map) = scheme else { continue };
        map.insert("type".into(), "apiKey".into());
        map.insert("in".into(), "header".into());
        map.insert("name".into(), "Authorization".into());
        map.shift_remove("scheme");
        map.shift_remove("bearerFormat");
        note(
            format!("components.securitySchemes.{}.scheme", key_text(name)),
            "an HTTP scheme other than bearer and basic is read as its `Authorization` header, whole (as an API key)",
        );
    }
}
