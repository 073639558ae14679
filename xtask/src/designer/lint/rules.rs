//! The design rules, each a check over the spec as JSON: names and
//! summaries, 401 on secured operations, the error object on 4xx, the
//! statuses the generated layer sends, deprecation, unused components
//! and examples (examples.rs).

use std::collections::BTreeSet;

use serde_json::Value;

use super::examples::examples;
use super::finding::{Finding, Severity};
use super::layer_statuses::{layer_statuses, may_be_unauthorized, media_types};
use crate::codegen::document::{METHODS, path_variables};
use crate::designer::spec_json::{items, resolve};

/// Every finding for a spec given as JSON, errors first.
pub fn lint(doc: &Value) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut find = |severity, location: String, rule, message: String| {
        findings.push(Finding {
            severity,
            location,
            rule,
            message,
        });
    };
    let declared_tags: BTreeSet<&str> = items(doc, "tags")
        .filter_map(|t| t.get("name").and_then(Value::as_str))
        .collect();
    // Beside other majors, the major decides which versions a server's
    // endpoints answer for: generation reads a leading number from
    // anything, but our own specs say exactly what they mean.
    let version = doc.pointer("/info/version").and_then(Value::as_str).unwrap_or_default();
    if semver::Version::parse(version).is_err() {
        find(
            Severity::Error,
            "info.version".into(),
            "version",
            format!("`{version}` is not a semantic version (MAJOR.MINOR.PATCH): its major names the base path"),
        );
    }
    let mut operation_ids = BTreeSet::new();
    for (path, item) in doc.get("paths").and_then(Value::as_object).into_iter().flatten() {
        for method in METHODS {
            let Some(op) = item.get(method) else { continue };
            let at = format!("paths.{path}.{method}");
            match op.get("operationId").and_then(Value::as_str) {
                None => find(Severity::Error, at.clone(), "operation-id", "no operationId".into()),
                Some(id) => {
                    if !operation_ids.insert(id.to_string()) {
                        find(
                            Severity::Error,
                            format!("{at}.operationId"),
                            "operation-id",
                            format!("`{id}` is not unique"),
                        );
                    }
                    if !is_camel_case(id) {
                        find(
                            Severity::Error,
                            format!("{at}.operationId"),
                            "operation-id",
                            format!("`{id}` is not camelCase"),
                        );
                    }
                }
            }
            if op
                .get("summary")
                .and_then(Value::as_str)
                .is_none_or(|s| s.trim().is_empty())
            {
                find(Severity::Warning, at.clone(), "summary", "no summary".into());
            }
            for tag in items(op, "tags").filter_map(Value::as_str) {
                if !declared_tags.contains(tag) {
                    find(
                        Severity::Error,
                        format!("{at}.tags"),
                        "tags",
                        format!("tag `{tag}` is not declared in `tags`"),
                    );
                }
            }
            let responses = op
                .get("responses")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            if may_be_unauthorized(doc, op) && !responses.contains_key("401") {
                find(
                    Severity::Error,
                    format!("{at}.responses"),
                    "secured-401",
                    "secured, but 401 is not documented".into(),
                );
            }
            error_4xx(doc, (item, op), &at, &responses, &mut find);
            layer_statuses(doc, item, op, &at, &responses, &mut find);
            media_types(doc, op, &at, &mut find);
            deprecation(doc, op, &at, &mut find);
            no_content(doc, &at, &responses, &mut find);
            path_parameters(doc, path, (item, op), &at, &mut find);
        }
    }
    unused_components(doc, &mut find);
    examples(doc, "", doc, &mut find);
    findings.sort();
    findings
}

/// An operation that can fail with a 4xx documents one with the error
/// object (a `components.schemas` entry requiring code, message and
/// status).
fn error_4xx(
    doc: &Value,
    (item, op): (&Value, &Value),
    at: &str,
    responses: &serde_json::Map<String, Value>,
    find: &mut impl FnMut(Severity, String, &'static str, String),
) {
    let documents_error = responses.iter().any(|(status, response)| {
        status.starts_with('4')
            && resolve(doc, response)
                .pointer("/content/application~1json/schema")
                .is_some_and(|schema| is_error_object(doc, schema))
    });
    // An operation nothing can fail with a 4xx (public, without
    // parameters or a body, documenting none) has no error to shape.
    let can_fail = may_be_unauthorized(doc, op)
        || items(op, "parameters").next().is_some()
        || items(item, "parameters").next().is_some()
        || op.get("requestBody").is_some()
        || responses.keys().any(|status| status.starts_with('4'));
    if can_fail && !documents_error {
        find(
            Severity::Error,
            format!("{at}.responses"),
            "error-4xx",
            "no 4xx response with the error object (a `components.schemas` entry requiring code, message and status)"
                .into(),
        );
    }
}

/// A 204 or 205 response documents no body (RFC 9110).
fn no_content(
    doc: &Value,
    at: &str,
    responses: &serde_json::Map<String, Value>,
    find: &mut impl FnMut(Severity, String, &'static str, String),
) {
    for status in ["204", "205"] {
        if responses
            .get(status)
            .is_some_and(|r| resolve(doc, r).get("content").is_some())
        {
            find(
                Severity::Error,
                format!("{at}.responses.{status}.content"),
                "no-content",
                format!("a {status} response has no body (RFC 9110): the server sends none"),
            );
        }
    }
}

/// Each path parameter is a variable of the path, and each variable a
/// declared parameter (of the operation or its path item).
fn path_parameters(
    doc: &Value,
    path: &str,
    (item, op): (&Value, &Value),
    at: &str,
    find: &mut impl FnMut(Severity, String, &'static str, String),
) {
    let variables = path_variables(path);
    // A path item's parameters apply to each of its operations.
    let inherited = items(item, "parameters").map(|p| resolve(doc, p));
    let mut declared: Vec<String> = inherited
        .filter(|p| p.get("in").and_then(Value::as_str) == Some("path"))
        .filter_map(|p| p.get("name").and_then(Value::as_str).map(str::to_string))
        .collect();
    for (i, param) in items(op, "parameters").enumerate() {
        let param = resolve(doc, param);
        if param.get("in").and_then(Value::as_str) != Some("path") {
            continue;
        }
        let name = param.get("name").and_then(Value::as_str).unwrap_or_default();
        declared.push(name.to_string());
        if !variables.contains(&name) {
            find(
                Severity::Error,
                format!("{at}.parameters.{i}"),
                "path-parameters",
                format!("`{name}` is not in the path"),
            );
        }
    }
    for variable in variables.iter().filter(|v| !declared.iter().any(|d| d == *v)) {
        find(
            Severity::Error,
            at.to_string(),
            "path-parameters",
            format!("path variable `{{{variable}}}` is not declared"),
        );
    }
}

/// A deprecated operation of ours says since when (`x-deprecation-date`,
/// which the `Deprecation` header carries) and documents the headers the
/// generated layer then sends on every success.
fn deprecation(doc: &Value, op: &Value, at: &str, find: &mut impl FnMut(Severity, String, &'static str, String)) {
    if op.get("deprecated") != Some(&Value::Bool(true)) {
        return;
    }
    let dated = op.get("x-deprecation-date").is_some();
    if !dated {
        find(
            Severity::Error,
            at.to_string(),
            "deprecation",
            "a deprecated operation needs `x-deprecation-date` (YYYY-MM-DD): the Deprecation header carries it".into(),
        );
    }
    let sunset = op.get("x-sunset").is_some();
    for (status, response) in op.get("responses").and_then(Value::as_object).into_iter().flatten() {
        if !status.starts_with('2') {
            continue;
        }
        let headers = resolve(doc, response).get("headers").and_then(Value::as_object);
        let documents = |name: &str| headers.is_some_and(|h| h.keys().any(|k| k.eq_ignore_ascii_case(name)));
        for (header, sent) in [("Deprecation", dated), ("Sunset", dated && sunset)] {
            if sent && !documents(header) {
                find(
                    Severity::Error,
                    format!("{at}.responses.{status}.headers"),
                    "deprecation",
                    format!("the server sends a `{header}` header on this deprecated operation: document it"),
                );
            }
        }
    }
}

fn is_camel_case(id: &str) -> bool {
    id.chars().next().is_some_and(|c| c.is_ascii_lowercase()) && id.chars().all(|c| c.is_ascii_alphanumeric())
}

/// Components no `$ref` (or, for security schemes, no requirement) names.
fn unused_components(doc: &Value, find: &mut impl FnMut(Severity, String, &'static str, String)) {
    let mut references = BTreeSet::new();
    collect_refs(doc, &mut references);
    let mut required_schemes = BTreeSet::new();
    let mut requirements: Vec<&Value> = doc.get("security").into_iter().collect();
    for item in doc
        .get("paths")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(_, i)| i)
    {
        requirements.extend(METHODS.iter().filter_map(|m| item.get(*m)?.get("security")));
    }
    for requirement in requirements.iter().filter_map(|r| r.as_array()).flatten() {
        required_schemes.extend(requirement.as_object().into_iter().flatten().map(|(k, _)| k.clone()));
    }
    for kind in [
        "schemas",
        "responses",
        "parameters",
        "requestBodies",
        "headers",
        "securitySchemes",
    ] {
        for name in doc
            .pointer(&format!("/components/{kind}"))
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(k, _)| k)
        {
            let used = if kind == "securitySchemes" {
                required_schemes.contains(name)
            } else {
                references.contains(&format!("#/components/{kind}/{name}"))
            };
            if !used {
                find(
                    Severity::Warning,
                    format!("components.{kind}.{name}"),
                    "unused-component",
                    "never referenced".into(),
                );
            }
        }
    }
}

fn collect_refs(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref") {
                out.insert(r.clone());
            }
            map.values().for_each(|v| collect_refs(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}

/// Whether `schema` is a reference to the house error object: a schema of
/// `components.schemas` that requires `code`, `message` and `status`, and
/// nothing else the layer could not fill (v1 names it Error, v2 Problem).
fn is_error_object(doc: &Value, schema: &Value) -> bool {
    // The same test as the generator's, which fills it.
    let named = schema
        .get("$ref")
        .and_then(Value::as_str)
        .is_some_and(|r| r.starts_with("#/components/schemas/"));
    named && crate::codegen::document::is_error_object(resolve(doc, schema))
}
