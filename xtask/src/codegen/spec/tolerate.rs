//! Mistakes that common tools accept, read as what they evidently mean.
//! Real documents carry them (many were converted from Swagger 2.0 by a
//! tool), and refusing an operation for one would serve nobody. Each rule
//! rewrites the document before anything else reads it, so the checks,
//! both generators and the served document agree on one reading, and
//! each rewrite is named, with its location, as a warning that
//! `cargo xtask lint` and `cargo xtask try` print:
//!
//! - a protocol-relative server URL (`//api.example.com/v1`) is HTTPS;
//!   one without a host (`//api/v1`) is the path it spells;
//! - a `Content-Type` response header is the response's media type,
//!   which OpenAPI says to ignore;
//! - a `content` key that is not a media type (a property name, where a
//!   converter put an example) is not content;
//! - a status written as a number (`200:` in YAML) is that status;
//! - Swagger 2.0's `in: formData` parameters are a form body's fields (a
//!   multipart one where one is a file);
//! - an informational status other than 101 (`100`, `102`, `103`) is not
//!   a response a handler can give: the HTTP machinery sends those;
//! - an HTTP authentication scheme other than bearer and basic
//!   (`scheme: OAuth`) is its `Authorization` header, read whole as an
//!   API key is;
//! - a query string written into a path (`/x?a={a}`) is the path, and
//!   its variables are query parameters; a fragment (`/x#Action=Y`),
//!   which no client sends, is not part of the path;
//! - two variables with nothing between them (`{page}{extension}`)
//!   where one allows a single value (`.json`) are that text
//!   (`{page}.json`);
//! - a path parameter whose name is not in its path is not a path
//!   parameter; a path variable an operation does not declare is a
//!   string;
//! - a `type`'s `enum` written in another type's values (`type: string,
//!   enum: [1, 2]`) means those values in the schema's type; an array's
//!   `enum` of single values is its items';
//! - a `default` of another type than the schema's is read in its type;
//! - a parameter's list items without a type are strings;
//! - OpenAPI 3.1's numeric `exclusiveMinimum`/`exclusiveMaximum` in a
//!   3.0 document is that bound;
//! - an array without `items` holds anything; object keywords beside a
//!   scalar `type` (which JSON Schema applies to objects only) go;
//! - (degrade) a request body of bytes or text whose schema is not a
//!   plain string (`application/jwt` with the claims' object,
//!   `image/jpeg` as `format: base64`) is read as bytes or text, since
//!   the schema describes what they encode, which the layer cannot check;
//! - a `$ref` into another part of the document than
//!   `components.schemas` (`#/components/responses/X/content/…/schema`)
//!   is the schema it points at.
//!
//! A document none of these rules touches is returned as written, byte
//! for byte.

use serde_norway::{Mapping, Value};

use super::media::{MediaKind, is_media_type};
use super::{METHODS, path_variables};

/// A mistake read as what it means: where, and how it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tolerated {
    pub location: String,
    pub message: String,
}

impl std::fmt::Display for Tolerated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

/// The document with every tolerated mistake rewritten, and what was; the
/// text as it is when nothing was (or when it is not YAML, which the
/// parser then reports).
pub fn tolerate(text: &str) -> (String, Vec<Tolerated>) {
    let Ok(mut doc) = serde_norway::from_str::<Value>(text) else {
        return (text.to_string(), Vec::new());
    };
    let mut found = Vec::new();
    rewrite(&mut doc, &mut found);
    if found.is_empty() {
        return (text.to_string(), found);
    }
    match serde_norway::to_string(&doc) {
        Ok(rewritten) => (rewritten, found),
        Err(_) => (text.to_string(), Vec::new()),
    }
}

fn rewrite(doc: &mut Value, found: &mut Vec<Tolerated>) {
    let mut note = |location: String, message: &str| {
        found.push(Tolerated {
            location,
            message: message.to_string(),
        })
    };
    servers(doc, &mut note);
    security_schemes(doc, &mut note);
    query_strings_in_paths(doc, &mut note);
    one_valued_variables(doc, &mut note);
    let paths: Vec<Value> = mapping(doc, "paths")
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    for path_key in paths {
        let Some(path) = path_key.as_str().map(str::to_string) else {
            continue;
        };
        let Some(Value::Mapping(item)) = doc.get_mut("paths").and_then(|p| p.get_mut(&path_key)) else {
            continue;
        };
        path_parameters(&path, item, &mut note);
        untyped_parameter_items(item, &format!("paths.{path}"), &mut note);
        for method in METHODS {
            let Some(Value::Mapping(op)) = item.get_mut(method) else {
                continue;
            };
            let at = format!("paths.{path}.{method}");
            form_data(op, &at, &mut note);
            if let Some(Value::Mapping(responses)) = op.get_mut("responses") {
                integer_statuses(responses, &format!("{at}.responses"), &mut note);
                informational_statuses(responses, &format!("{at}.responses"), &mut note);
                for (status, response) in responses.iter_mut() {
                    let status = key_text(status);
                    response_parts(response, &format!("{at}.responses.{status}"), &mut note);
                }
            }
            if let Some(body) = op.get_mut("requestBody") {
                content_keys(body, &format!("{at}.requestBody"), &mut note);
                body_schemas(body, &format!("{at}.requestBody"), &mut note);
            }
        }
    }
    if let Some(Value::Mapping(responses)) = doc.get_mut("components").and_then(|c| c.get_mut("responses")) {
        for (name, response) in responses.iter_mut() {
            let name = key_text(name);
            response_parts(response, &format!("components.responses.{name}"), &mut note);
        }
    }
    if let Some(Value::Mapping(bodies)) = doc.get_mut("components").and_then(|c| c.get_mut("requestBodies")) {
        for (name, body) in bodies.iter_mut() {
            let name = key_text(name);
            content_keys(body, &format!("components.requestBodies.{name}"), &mut note);
            body_schemas(body, &format!("components.requestBodies.{name}"), &mut note);
        }
    }
    schemas_everywhere(doc, &mut note);
}

/// `path_variables`' names, owned: the document they borrow from is
/// rewritten beside them.
fn owned(names: Vec<&str>) -> Vec<String> {
    names.into_iter().map(str::to_string).collect()
}

fn key_text(key: &Value) -> String {
    match key {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => String::new(),
    }
}

fn mapping<'a>(doc: &'a Value, key: &str) -> Option<&'a Mapping> {
    doc.get(key).and_then(Value::as_mapping)
}

fn servers(doc: &mut Value, note: &mut impl FnMut(String, &str)) {
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

fn security_schemes(doc: &mut Value, note: &mut impl FnMut(String, &str)) {
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

/// `/x?a={a}&b={b}`: the path is `/x`, and `a` and `b` are in the query.
fn query_strings_in_paths(doc: &mut Value, note: &mut impl FnMut(String, &str)) {
    let Some(Value::Mapping(paths)) = doc.get_mut("paths") else {
        return;
    };
    let with_query: Vec<String> = paths
        .keys()
        .filter_map(Value::as_str)
        .filter(|p| p.contains(['?', '#']))
        .map(str::to_string)
        .collect();
    for original in with_query {
        // `/x?a={a}`, and `/x#Action=Y` (a fragment, which no client
        // sends: converters write one to tell apart operations of one path).
        let cut = original.find(['?', '#']).unwrap_or(original.len());
        let path = &original[..cut];
        let query = original[cut..]
            .strip_prefix('?')
            .map(|query| query.split('#').next().unwrap_or_default())
            .unwrap_or_default();
        let in_query: Vec<String> = owned(path_variables(query));
        let Some(Value::Mapping(mut item)) = paths.get(original.as_str()).cloned() else {
            continue;
        };
        // Taken only where the path is free for every method.
        let clash = paths.get(path).and_then(Value::as_mapping).is_some_and(|existing| {
            METHODS
                .iter()
                .any(|m| existing.contains_key(*m) && item.contains_key(*m))
        });
        if clash {
            continue;
        }
        move_to_query(item.get_mut("parameters"), &in_query);
        for method in METHODS {
            if let Some(op) = item.get_mut(method) {
                move_to_query(op.get_mut("parameters"), &in_query);
            }
        }
        paths.shift_remove(original.as_str());
        match paths.get_mut(path) {
            Some(Value::Mapping(existing)) => existing.extend(item),
            _ => {
                paths.insert(path.into(), Value::Mapping(item));
            }
        }
        note(
            format!("paths.{original}"),
            &format!(
                "a query string or fragment in a path is read as the path `{path}`, with the query's variables in the query"
            ),
        );
    }
}

/// `/blog/{page}{extension}`, where `extension` allows one value
/// (`.json`): nothing separates the two variables, but the one value is
/// the text that does. The path is read with it written in
/// (`/blog/{page}.json`), and the parameter, which could hold nothing
/// else, is not read.
fn one_valued_variables(doc: &mut Value, note: &mut impl FnMut(String, &str)) {
    let Some(Value::Mapping(paths)) = doc.get_mut("paths") else {
        return;
    };
    let adjacent: Vec<String> = paths
        .keys()
        .filter_map(Value::as_str)
        .filter(|p| p.contains("}{"))
        .map(str::to_string)
        .collect();
    for original in adjacent {
        let Some(Value::Mapping(item)) = paths.get(original.as_str()).cloned() else {
            continue;
        };
        // Every declaration of a variable, on the path item and its
        // operations (a `$ref`'d one cannot be read here: left as it is).
        let lists = || {
            std::iter::once(item.get("parameters"))
                .chain(METHODS.iter().map(|m| item.get(*m).and_then(|op| op.get("parameters"))))
                .flatten()
                .filter_map(Value::as_sequence)
                .flatten()
        };
        if lists().any(|p| p.get("$ref").is_some()) {
            continue;
        }
        let mut path = original.clone();
        let mut fixed = Vec::new();
        for name in owned(path_variables(&original)) {
            let values: Vec<Option<String>> = lists()
                .filter(|p| {
                    p.get("in").and_then(Value::as_str) == Some("path")
                        && p.get("name").and_then(Value::as_str) == Some(name.as_str())
                })
                .map(
                    |p| match p.get("schema").and_then(|s| s.get("enum")).and_then(Value::as_sequence) {
                        Some(values) if values.len() == 1 => values[0].as_str().map(str::to_string),
                        _ => None,
                    },
                )
                .collect();
            if let Some(Some(value)) = values.first()
                && values.iter().all(|v| v.as_ref() == Some(value))
                && !value.contains(['/', '{', '}'])
            {
                path = path.replace(&format!("{{{name}}}"), value);
                fixed.push(name);
            }
        }
        if fixed.is_empty() || path.contains("}{") || paths.contains_key(path.as_str()) {
            continue;
        }
        let mut item = item;
        let drop = |list: Option<&mut Value>| {
            if let Some(Value::Sequence(parameters)) = list {
                parameters.retain(|p| {
                    !(p.get("in").and_then(Value::as_str) == Some("path")
                        && p.get("name")
                            .and_then(Value::as_str)
                            .is_some_and(|n| fixed.iter().any(|f| f == n)))
                });
            }
        };
        drop(item.get_mut("parameters"));
        for method in METHODS {
            if let Some(op) = item.get_mut(method) {
                drop(op.get_mut("parameters"));
            }
        }
        let at = paths.iter().position(|(k, _)| k.as_str() == Some(original.as_str()));
        paths.shift_remove(original.as_str());
        paths.insert(path.clone().into(), Value::Mapping(item));
        // Back in the document's place, so the operations keep their order.
        if let Some(at) = at {
            let last = paths.len() - 1;
            let entries: Vec<(Value, Value)> = std::mem::take(paths).into_iter().collect();
            let mut entries = entries;
            let moved = entries.remove(last);
            entries.insert(at, moved);
            paths.extend(entries);
        }
        note(
            format!("paths.{original}"),
            &format!("a variable beside another that allows one value is that text: read as `{path}`"),
        );
    }
}

fn move_to_query(parameters: Option<&mut Value>, names: &[String]) {
    let Some(Value::Sequence(parameters)) = parameters else {
        return;
    };
    for parameter in parameters {
        let name = parameter
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        if parameter.get("in").and_then(Value::as_str) == Some("path")
            && names.contains(&name)
            && let Value::Mapping(map) = parameter
        {
            map.insert("in".into(), "query".into());
            map.shift_remove("required");
        }
    }
}

/// A declared path parameter the path does not have goes; a path
/// variable an operation does not declare (on itself or its path item)
/// is a required string.
fn path_parameters(path: &str, item: &mut Mapping, note: &mut impl FnMut(String, &str)) {
    let in_path = owned(path_variables(path));
    let is_stray = |parameter: &Value| {
        parameter.get("in").and_then(Value::as_str) == Some("path")
            && parameter
                .get("name")
                .and_then(Value::as_str)
                .is_some_and(|name| !in_path.iter().any(|v| v == name))
    };
    let mut strays = |list: Option<&mut Value>, at: String| {
        if let Some(Value::Sequence(parameters)) = list {
            let before = parameters.len();
            parameters.retain(|p| !is_stray(p));
            if parameters.len() != before {
                note(at, "a path parameter whose name is not in the path is not read");
            }
        }
    };
    strays(item.get_mut("parameters"), format!("paths.{path}.parameters"));
    for method in METHODS {
        if let Some(op) = item.get_mut(method) {
            strays(op.get_mut("parameters"), format!("paths.{path}.{method}.parameters"));
        }
    }
    let declared = |list: Option<&Value>, name: &str| {
        list.and_then(Value::as_sequence).into_iter().flatten().any(|p| {
            p.get("in").and_then(Value::as_str) == Some("path") && p.get("name").and_then(Value::as_str) == Some(name)
        })
    };
    let shared: Option<Value> = item.get("parameters").cloned();
    for method in METHODS {
        let Some(Value::Mapping(op)) = item.get_mut(method) else {
            continue;
        };
        for name in &in_path {
            // A `$ref`'d parameter may declare it: read as declared.
            let any_ref = |list: Option<&Value>| {
                list.and_then(Value::as_sequence)
                    .into_iter()
                    .flatten()
                    .any(|p| p.get("$ref").is_some())
            };
            if declared(shared.as_ref(), name)
                || declared(op.get("parameters"), name)
                || any_ref(shared.as_ref())
                || any_ref(op.get("parameters"))
            {
                continue;
            }
            let parameter: Value = serde_norway::from_str(&format!(
                "{{name: {}, in: path, required: true, schema: {{type: string}}}}",
                serde_json::to_string(name).unwrap_or_default()
            ))
            .unwrap_or(Value::Null);
            let list = op.entry("parameters".into()).or_insert(Value::Sequence(Vec::new()));
            if let Value::Sequence(list) = list {
                list.push(parameter);
                note(
                    format!("paths.{path}.{method}.parameters"),
                    &format!("path variable `{{{name}}}` is not declared here: read as a string"),
                );
            }
        }
    }
}

/// `200:` in YAML is an integer key; OpenAPI's keys are strings.
fn integer_statuses(responses: &mut Mapping, at: &str, note: &mut impl FnMut(String, &str)) {
    if !responses.keys().any(|k| matches!(k, Value::Number(_))) {
        return;
    }
    let entries: Vec<(Value, Value)> = std::mem::take(responses).into_iter().collect();
    for (key, value) in entries {
        let key = match key {
            Value::Number(n) => {
                note(
                    format!("{at}.{n}"),
                    "a status written as a number is read as the string OpenAPI keys responses by",
                );
                Value::String(n.to_string())
            }
            other => other,
        };
        responses.insert(key, value);
    }
}

/// Swagger 2.0's `in: formData` parameters, left in a 3.0 document: the
/// fields of a form body (multipart where one is a file), when the
/// operation has no body of its own.
fn form_data(op: &mut Mapping, at: &str, note: &mut impl FnMut(String, &str)) {
    let Some(Value::Sequence(parameters)) = op.get("parameters") else {
        return;
    };
    let is_form = |p: &Value| p.get("in").and_then(Value::as_str) == Some("formData");
    if !parameters.iter().any(is_form) || op.contains_key("requestBody") {
        return;
    }
    let mut properties = Mapping::new();
    let mut required = Vec::new();
    let mut multipart = false;
    for parameter in parameters.iter().filter(|p| is_form(p)) {
        let Some(name) = parameter.get("name").and_then(Value::as_str) else {
            continue;
        };
        // Swagger 2.0 writes the type on the parameter; 3.0 in `schema`.
        let mut schema = match parameter.get("schema") {
            Some(Value::Mapping(schema)) => schema.clone(),
            _ => {
                let mut schema = Mapping::new();
                for key in [
                    "type", "format", "items", "enum", "default", "minimum", "maximum", "pattern",
                ] {
                    if let Some(value) = parameter.get(key) {
                        schema.insert(key.into(), value.clone());
                    }
                }
                schema
            }
        };
        if schema.get("type").and_then(Value::as_str) == Some("file") {
            schema.insert("type".into(), "string".into());
            schema.insert("format".into(), "binary".into());
        }
        multipart |= schema.get("format").and_then(Value::as_str) == Some("binary");
        if let Some(description) = parameter.get("description") {
            schema.insert("description".into(), description.clone());
        }
        properties.insert(name.into(), Value::Mapping(schema));
        if parameter.get("required").and_then(Value::as_bool) == Some(true) {
            required.push(Value::String(name.to_string()));
        }
    }
    let mut schema = Mapping::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Mapping(properties));
    if !required.is_empty() {
        schema.insert("required".into(), Value::Sequence(required.clone()));
    }
    let media_type = if multipart {
        "multipart/form-data"
    } else {
        "application/x-www-form-urlencoded"
    };
    let mut media = Mapping::new();
    media.insert("schema".into(), Value::Mapping(schema));
    let mut content = Mapping::new();
    content.insert(media_type.into(), Value::Mapping(media));
    let mut body = Mapping::new();
    body.insert("content".into(), Value::Mapping(content));
    if !required.is_empty() {
        body.insert("required".into(), Value::Bool(true));
    }
    if let Some(Value::Sequence(parameters)) = op.get_mut("parameters") {
        parameters.retain(|p| !is_form(p));
    }
    op.insert("requestBody".into(), Value::Mapping(body));
    note(
        format!("{at}.parameters"),
        &format!("Swagger 2.0's `in: formData` parameters are read as the fields of a `{media_type}` body"),
    );
}

/// A parameter's list whose items say nothing (`items: {}`): each item of
/// a parameter is text, so a string.
fn untyped_parameter_items(item: &mut Mapping, at: &str, note: &mut impl FnMut(String, &str)) {
    let mut fix = |list: Option<&mut Value>, at: String| {
        let Some(Value::Sequence(parameters)) = list else {
            return;
        };
        for (i, parameter) in parameters.iter_mut().enumerate() {
            if let Some(Value::Mapping(schema)) = parameter.get_mut("schema")
                && schema.get("type").and_then(Value::as_str) == Some("array")
                && let Some(Value::Mapping(items)) = schema.get_mut("items")
                && items
                    .keys()
                    .all(|k| ["description", "title", "example"].contains(&key_text(k).as_str()))
            {
                items.insert("type".into(), "string".into());
                note(
                    format!("{at}.{i}.schema.items"),
                    "a parameter's list items without a type are text: read as strings",
                );
            }
        }
    };
    fix(item.get_mut("parameters"), format!("{at}.parameters"));
    for method in METHODS {
        if let Some(op) = item.get_mut(method) {
            fix(op.get_mut("parameters"), format!("{at}.{method}.parameters"));
        }
    }
}

fn informational_statuses(responses: &mut Mapping, at: &str, note: &mut impl FnMut(String, &str)) {
    let informational: Vec<Value> = responses
        .keys()
        .filter(|k| {
            let text = key_text(k);
            text.len() == 3 && text.starts_with('1') && text != "101"
        })
        .cloned()
        .collect();
    // An operation keeps at least one response.
    if informational.len() == responses.len() {
        return;
    }
    for key in informational {
        responses.shift_remove(&key);
        note(
            format!("{at}.{}", key_text(&key)),
            "an informational status other than 101 is the HTTP machinery's to send, not a handler's answer: not mapped",
        );
    }
}

fn response_parts(response: &mut Value, at: &str, note: &mut impl FnMut(String, &str)) {
    if let Some(Value::Mapping(headers)) = response.get_mut("headers") {
        let content_type: Vec<Value> = headers
            .keys()
            .filter(|k| key_text(k).eq_ignore_ascii_case("content-type"))
            .cloned()
            .collect();
        for key in content_type {
            headers.shift_remove(&key);
            note(
                format!("{at}.headers.{}", key_text(&key)),
                "a `Content-Type` response header is the response's media type, which OpenAPI says to ignore",
            );
        }
    }
    content_keys(response, at, note);
}

/// A request body of bytes (`application/jwt`, `image/jpeg`) whose schema
/// is not `{type: string, format: binary}`: its schema describes what the
/// bytes encode (a JWT's claims, base64), which the layer cannot check on
/// the bytes; the body is read as bytes, the schema's description kept. A
/// `text/*` body with a schema other than a string is read as text.
fn body_schemas(body: &mut Value, at: &str, note: &mut impl FnMut(String, &str)) {
    let Some(Value::Mapping(content)) = body.get_mut("content") else {
        return;
    };
    // Beside JSON, a form or XML, the body is read as that one value and
    // other media types get 415: nothing to read as bytes.
    let structured = content.keys().map(key_text).any(|media_type| {
        super::media::kind(&media_type) == MediaKind::Json
            || super::is_xml(&media_type)
            || ["application/x-www-form-urlencoded", "multipart/form-data"]
                .contains(&super::media::essence(&media_type).as_str())
    });
    if structured {
        return;
    }
    for (media_type, media) in content.iter_mut() {
        let media_type = key_text(media_type);
        let essence = super::media::essence(&media_type);
        let kind = super::media::kind(&media_type);
        let special = ["application/x-www-form-urlencoded", "multipart/form-data"].contains(&essence.as_str())
            || super::is_xml(&media_type);
        let (ty, format) = match kind {
            MediaKind::Binary if !special => ("string", Some("binary")),
            MediaKind::Text if !special => ("string", None),
            _ => continue,
        };
        let Value::Mapping(media) = media else { continue };
        let schema = media.get("schema");
        let is_plain = schema.and_then(Value::as_mapping).is_some_and(|schema| {
            schema.get("type").and_then(Value::as_str) == Some(ty)
                && schema.get("format").and_then(Value::as_str) == format
                && schema
                    .keys()
                    .all(|k| ["type", "format", "description", "title", "example"].contains(&key_text(k).as_str()))
        });
        // A string schema with constraints on a text body means them: it
        // stays refused (progenitor's client sends text as it is) rather
        // than checked no more.
        let string_text =
            format.is_none() && schema.and_then(|s| s.get("type")).and_then(Value::as_str) == Some("string");
        if is_plain || string_text {
            continue;
        }
        let mut plain = Mapping::new();
        plain.insert("type".into(), ty.into());
        if let Some(format) = format {
            plain.insert("format".into(), format.into());
        }
        if let Some(description) = schema.and_then(|s| s.get("description")) {
            plain.insert("description".into(), description.clone());
        }
        media.insert("schema".into(), Value::Mapping(plain));
        let what = match format {
            Some(_) => "bytes",
            None => "text",
        };
        note(
            format!("{at}.content.{media_type}.schema"),
            &format!(
                "degraded: a `{media_type}` body is read as {what}; its schema (what the {what} encode) is not checked"
            ),
        );
    }
}

fn content_keys(holder: &mut Value, at: &str, note: &mut impl FnMut(String, &str)) {
    let Some(Value::Mapping(content)) = holder.get_mut("content") else {
        return;
    };
    let not_media: Vec<Value> = content
        .keys()
        .filter(|k| !is_media_type(&key_text(k)))
        .cloned()
        .collect();
    for key in not_media {
        content.shift_remove(&key);
        note(
            format!("{at}.content.{}", key_text(&key)),
            "not a media type (a property's name or example, where media types belong): not read as content",
        );
    }
}

/// Every schema of the document, wherever it is, through the schema rules.
fn schemas_everywhere(doc: &mut Value, note: &mut impl FnMut(String, &str)) {
    let snapshot = doc.clone();
    walk(doc, String::new(), &snapshot, note, 0);
}

/// Visits every mapping; one under a `schema`, `schemas.<name>`,
/// `properties.<name>`, `items`, `additionalProperties`, `not` or a
/// combinator is a schema.
fn walk(value: &mut Value, at: String, doc: &Value, note: &mut impl FnMut(String, &str), depth: usize) {
    // Deep enough for any real document; a cycle cannot occur in a tree,
    // but an inlined reference could nest: stop there.
    if depth > 64 {
        return;
    }
    let is_schema = {
        let parts: Vec<&str> = at.rsplitn(3, '.').collect();
        let last = parts.first().copied().unwrap_or_default();
        let parent = parts.get(1).copied().unwrap_or_default();
        matches!(last, "schema" | "items" | "additionalProperties" | "not")
            || matches!(parent, "properties" | "allOf" | "anyOf" | "oneOf")
            || (parent == "schemas" && at.starts_with("components.schemas."))
    };
    if is_schema && let Value::Mapping(map) = value {
        schema_rules(map, &at, doc, note);
    }
    match value {
        Value::Mapping(map) => {
            for (key, inner) in map.iter_mut() {
                let key = key_text(key);
                // Examples are data, not schemas.
                if ["example", "examples", "enum", "default", "const"].contains(&key.as_str()) || key.starts_with("x-")
                {
                    continue;
                }
                let next = if at.is_empty() { key } else { format!("{at}.{key}") };
                walk(inner, next, doc, note, depth + 1);
            }
        }
        Value::Sequence(items) => {
            for (i, inner) in items.iter_mut().enumerate() {
                walk(inner, format!("{at}.{i}"), doc, note, depth + 1);
            }
        }
        _ => {}
    }
}

fn schema_rules(map: &mut Mapping, at: &str, doc: &Value, note: &mut impl FnMut(String, &str)) {
    // A reference into another part of the document: the schema there.
    if let Some(target) = map.get("$ref").and_then(Value::as_str).map(str::to_string)
        && !target.starts_with("#/components/schemas/")
        && let Some(pointer) = target.strip_prefix('#')
        && let Some(found) = pointed(doc, pointer)
        && found
            .get("$ref")
            .is_none_or(|r| r.as_str().is_some_and(|r| r.starts_with("#/components/schemas/")))
        && let Value::Mapping(found) = found
    {
        *map = found.clone();
        note(
            format!("{at}.$ref"),
            &format!("a reference to `{target}`, not into components.schemas: read as the schema it points at"),
        );
    }
    let ty = map.get("type").and_then(Value::as_str).map(str::to_string);
    // JSON Schema applies object keywords to objects only: beside a
    // scalar type they say nothing (httpbin's `freeform`, a string with
    // `additionalProperties`), and dropshot refuses such a parameter.
    if let Some(scalar) = ty
        .as_deref()
        .filter(|t| matches!(*t, "string" | "integer" | "number" | "boolean"))
    {
        const OBJECT_ONLY: [&str; 5] = [
            "properties",
            "additionalProperties",
            "required",
            "minProperties",
            "maxProperties",
        ];
        let found: Vec<&str> = OBJECT_ONLY.iter().copied().filter(|k| map.contains_key(*k)).collect();
        if !found.is_empty() {
            for key in &found {
                map.shift_remove(*key);
            }
            note(
                at.to_string(),
                &format!(
                    "`{}` beside `type: {scalar}` apply to objects only: not read",
                    found.join("`, `")
                ),
            );
        }
    }
    if ty.as_deref() == Some("array") && !map.contains_key("items") {
        let items = match map.shift_remove("enum") {
            Some(values) => {
                let mut items = Mapping::new();
                items.insert("enum".into(), values);
                Value::Mapping(items)
            }
            None => Value::Mapping(Mapping::new()),
        };
        map.insert("items".into(), items);
        note(at.to_string(), "an array without `items` holds anything");
    }
    if ty.as_deref() == Some("array")
        && let Some(Value::Sequence(values)) = map.get("enum")
        && values.iter().all(|v| !matches!(v, Value::Sequence(_)))
    {
        let values = map.shift_remove("enum").unwrap_or(Value::Null);
        if let Some(Value::Mapping(items)) = map.get_mut("items")
            && !items.contains_key("enum")
        {
            items.insert("enum".into(), values);
        }
        note(
            format!("{at}.enum"),
            "an array's `enum` of single values is read as its items' `enum`",
        );
    }
    if let Some(ty) = ty.as_deref()
        && matches!(ty, "string" | "integer" | "number" | "boolean")
        && let Some(Value::Sequence(values)) = map.get_mut("enum")
    {
        let mut changed = false;
        for value in values.iter_mut() {
            if value.is_null() {
                continue;
            }
            if let Some(fixed) = in_type(value, ty)
                && fixed != *value
            {
                *value = fixed;
                changed = true;
            }
        }
        let before = values.len();
        values.retain(|v| v.is_null() || in_type(v, ty).as_ref() == Some(v));
        if changed || values.len() != before {
            note(
                format!("{at}.enum"),
                &format!(
                    "`enum` values of another type than `{ty}` are read as `{ty}` values (those that cannot be are dropped)"
                ),
            );
        }
        if values.is_empty() {
            map.shift_remove("enum");
        }
    }
    // A `default` written in another type (`type: string, default: 1`).
    if let Some(ty) = ty.as_deref()
        && matches!(ty, "string" | "integer" | "number" | "boolean")
        && let Some(default) = map.get("default").cloned()
        && !default.is_null()
        && in_type(&default, ty).as_ref() != Some(&default)
    {
        match in_type(&default, ty) {
            Some(fixed) => {
                map.insert("default".into(), fixed);
            }
            None => {
                map.shift_remove("default");
            }
        }
        note(
            format!("{at}.default"),
            &format!("a `default` of another type than `{ty}` is read as a `{ty}` (dropped where it cannot be)"),
        );
    }
    for (exclusive, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
        if let Some(number @ Value::Number(_)) = map.get(exclusive).cloned() {
            map.insert(bound.into(), number);
            map.insert(exclusive.into(), Value::Bool(true));
            note(
                format!("{at}.{exclusive}"),
                &format!(
                    "OpenAPI 3.1's numeric `{exclusive}` in a 3.0 document is read as `{bound}` with `{exclusive}: true`"
                ),
            );
        }
    }
}

/// `value` as a value of JSON type `ty`, where it reads as one.
fn in_type(value: &Value, ty: &str) -> Option<Value> {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => return None,
    };
    match ty {
        "string" => Some(Value::String(text)),
        "integer" => text.parse::<i64>().ok().map(Value::from),
        "number" => match value {
            Value::Number(_) => Some(value.clone()),
            _ => text.parse::<f64>().ok().map(Value::from),
        },
        "boolean" => text.parse::<bool>().ok().map(Value::Bool),
        _ => None,
    }
}

/// The value at a JSON pointer of the document.
fn pointed<'a>(doc: &'a Value, pointer: &str) -> Option<&'a Value> {
    let mut value = doc;
    for part in pointer.split('/').skip(1) {
        let part = part.replace("~1", "/").replace("~0", "~");
        value = match value {
            Value::Mapping(map) => map.get(part.as_str())?,
            Value::Sequence(items) => items.get(part.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(value)
}
