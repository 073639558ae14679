//! The document's top: protocol-relative server URLs, and HTTP
//! authentication schemes other than bearer and basic.

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
