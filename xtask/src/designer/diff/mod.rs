//! `cargo xtask diff`: what changed in the spec since a git ref, and whether
//! clients built against the old version still work.
//!
//! Rules of our own rather than Oxide's `drift` (0.2): tried on our spec,
//! drift reports a removed response field, a changed format, a narrowed
//! parameter and a removed enum value as "unhandled", and does not see
//! deprecation or `x-sunset` at all; those are the changes this command
//! exists for.
//!
//! Direction matters: a change to what clients send (parameters, request
//! bodies) breaks them when the server accepts less; a change to what they
//! receive (responses) breaks them when it can send something they do not
//! expect.

mod command;
mod schemas;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde_json::Value;

use crate::codegen::spec::METHODS;
use crate::designer::spec_json::{items, resolve};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Compatibility {
    Breaking,
    Compatible,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Change {
    pub compatibility: Compatibility,
    /// Where, in the new document (or the old one, for a removal).
    pub location: String,
    pub message: String,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = match self.compatibility {
            Compatibility::Breaking => "BREAKING  ",
            Compatibility::Compatible => "compatible",
        };
        write!(f, "{label} {}: {}", self.location, self.message)
    }
}

/// Whether data flows to the server (parameters, bodies) or from it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Input,
    Output,
}

struct Differ<'a> {
    old: &'a Value,
    new: &'a Value,
    /// `YYYY-MM-DD`, for `x-sunset`.
    today: &'a str,
    changes: Vec<Change>,
}

/// Every change from `old` to `new` (both OpenAPI documents as JSON).
pub fn diff(old: &Value, new: &Value, today: &str) -> Vec<Change> {
    let mut differ = Differ {
        old,
        new,
        today,
        changes: Vec::new(),
    };
    differ.servers();
    differ.schema_names();
    differ.operations();
    differ.changes.sort();
    differ.changes
}

/// The major part of `info.version`.
pub fn major_version(doc: &Value) -> Option<u64> {
    doc.pointer("/info/version")?.as_str()?.split('.').next()?.parse().ok()
}

/// A path with its variables' names erased: `/store/orders/{}`.
fn path_shape(path: &str) -> String {
    path.split('/')
        .map(|s| {
            if s.starts_with('{') && s.ends_with('}') {
                "{}"
            } else {
                s
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn operations(doc: &Value) -> BTreeMap<(String, &'static str), (String, &Value)> {
    let mut out = BTreeMap::new();
    for (path, item) in doc.get("paths").and_then(Value::as_object).into_iter().flatten() {
        for method in METHODS {
            if let Some(op) = item.get(method) {
                out.insert((path_shape(path), method), (path.clone(), op));
            }
        }
    }
    out
}

fn is_true(value: Option<&Value>) -> bool {
    value.and_then(Value::as_bool).unwrap_or(false)
}

/// The path part of the servers' URLs (`/v1`), each once.
fn base_paths(doc: &Value) -> BTreeSet<String> {
    items(doc, "servers")
        .filter_map(|server| server.get("url").and_then(Value::as_str))
        .map(|url| {
            let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
            after_scheme.find('/').map_or("/", |i| &after_scheme[i..]).to_string()
        })
        .collect()
}

/// The names of `components.schemas`.
fn schema_names(doc: &Value) -> BTreeSet<String> {
    doc.pointer("/components/schemas")
        .and_then(Value::as_object)
        .map(|schemas| schemas.keys().cloned().collect())
        .unwrap_or_default()
}

impl Differ<'_> {
    /// A new base path moves every operation: each client's base URL must
    /// change.
    fn servers(&mut self) {
        let (old, new) = (base_paths(self.old), base_paths(self.new));
        let removed: Vec<&String> = old.difference(&new).collect();
        if !old.is_empty() && !removed.is_empty() {
            self.push(
                Compatibility::Breaking,
                "servers",
                format!(
                    "base path {} is no longer served (now {}): every request's URL changes",
                    removed.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", "),
                    new.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ")
                ),
            );
        }
    }

    /// Generated clients name their types after `components.schemas`: a
    /// schema that is gone breaks code that names it, even when the wire
    /// format is unchanged (a schema renamed with the same fields).
    fn schema_names(&mut self) {
        let (old, new) = (schema_names(self.old), schema_names(self.new));
        let mut added: Vec<&String> = new.difference(&old).collect();
        for name in old.difference(&new) {
            let same_shape = added.iter().copied().find(|other| {
                self.old.pointer(&format!("/components/schemas/{name}/properties"))
                    == self.new.pointer(&format!("/components/schemas/{other}/properties"))
            });
            added.retain(|other| Some(*other) != same_shape);
            let message = match same_shape {
                Some(other) => format!(
                    "schema `{name}` is now `{other}` (same fields): code that names the generated type must use the new name"
                ),
                None => format!("schema `{name}` removed: code that names the generated type breaks"),
            };
            self.push(Compatibility::Breaking, &format!("components.schemas.{name}"), message);
        }
        for name in added {
            self.push(
                Compatibility::Compatible,
                &format!("components.schemas.{name}"),
                "new schema",
            );
        }
    }

    fn push(&mut self, compatibility: Compatibility, location: &str, message: impl Into<String>) {
        self.changes.push(Change {
            compatibility,
            location: location.to_string(),
            message: message.into(),
        });
    }

    fn operations(&mut self) {
        let (old_ops, new_ops) = (operations(self.old), operations(self.new));
        for (key, (path, old_op)) in &old_ops {
            let location = format!("paths.{path}.{}", key.1);
            match new_ops.get(key) {
                None => self.removed_operation(&location, old_op),
                Some((new_path, new_op)) => {
                    let location = format!("paths.{new_path}.{}", key.1);
                    self.operation(&location, old_op, new_op);
                }
            }
        }
        for (key, (path, op)) in &new_ops {
            if !old_ops.contains_key(key) {
                let id = op.get("operationId").and_then(Value::as_str).unwrap_or("?");
                self.push(
                    Compatibility::Compatible,
                    &format!("paths.{path}.{}", key.1),
                    format!("operation `{id}` added"),
                );
            }
        }
    }

    fn removed_operation(&mut self, location: &str, op: &Value) {
        let id = op.get("operationId").and_then(Value::as_str).unwrap_or("?");
        let sunset = op.get("x-sunset").and_then(Value::as_str);
        match (is_true(op.get("deprecated")), sunset) {
            (true, Some(sunset)) if sunset <= self.today => self.push(
                Compatibility::Compatible,
                location,
                format!("deprecated operation `{id}` removed after its sunset date {sunset}"),
            ),
            (true, Some(sunset)) => self.push(
                Compatibility::Breaking,
                location,
                format!("deprecated operation `{id}` removed before its sunset date {sunset}"),
            ),
            (true, None) => self.push(
                Compatibility::Breaking,
                location,
                format!("deprecated operation `{id}` removed, but it has no `x-sunset` date"),
            ),
            (false, _) => self.push(Compatibility::Breaking, location, format!("operation `{id}` removed")),
        }
    }

    fn operation(&mut self, location: &str, old: &Value, new: &Value) {
        let sunset = |op: &Value| op.get("x-sunset").and_then(Value::as_str).map(String::from);
        if is_true(new.get("deprecated")) && is_true(old.get("deprecated")) && sunset(old) != sunset(new) {
            let show = |s: Option<String>| s.unwrap_or_else(|| "none".into());
            let message = format!(
                "sunset date changed from {} to {}",
                show(sunset(old)),
                show(sunset(new))
            );
            self.push(Compatibility::Compatible, location, message);
        }
        match (is_true(old.get("deprecated")), is_true(new.get("deprecated"))) {
            (false, true) => {
                let sunset = new.get("x-sunset").and_then(Value::as_str);
                let note = sunset.map(|s| format!(", sunset {s}")).unwrap_or_default();
                self.push(
                    Compatibility::Compatible,
                    location,
                    format!("operation deprecated{note}"),
                );
            }
            (true, false) => self.push(Compatibility::Compatible, location, "operation no longer deprecated"),
            _ => {}
        }
        self.parameters(location, old, new);
        self.request_body(location, old, new);
        self.responses(location, old, new);
    }

    fn parameters(&mut self, location: &str, old: &Value, new: &Value) {
        let params = |doc: &Value, op: &Value| -> BTreeMap<(String, String), Value> {
            items(op, "parameters")
                .map(|p| resolve(doc, p).clone())
                .map(|p| {
                    let key = (text(&p, "in"), text(&p, "name"));
                    (key, p)
                })
                .collect()
        };
        let (old_params, new_params) = (params(self.old, old), params(self.new, new));
        for ((place, name), new_param) in &new_params {
            let at = format!("{location}.parameters.{place}.{name}");
            let required = is_true(new_param.get("required"));
            match old_params.get(&(place.clone(), name.clone())) {
                None if required => self.push(Compatibility::Breaking, &at, "new required parameter"),
                None => self.push(Compatibility::Compatible, &at, "new optional parameter"),
                Some(old_param) => {
                    if required && !is_true(old_param.get("required")) {
                        self.push(Compatibility::Breaking, &at, "parameter became required");
                    }
                    if let (Some(o), Some(n)) = (old_param.get("schema"), new_param.get("schema")) {
                        self.schema(&format!("{at}.schema"), o, n, Direction::Input, 0);
                    }
                }
            }
        }
        for (place, name) in old_params.keys() {
            if !new_params.contains_key(&(place.clone(), name.clone())) {
                let at = format!("{location}.parameters.{place}.{name}");
                self.push(
                    Compatibility::Compatible,
                    &at,
                    "parameter removed (old clients still send it; it is ignored)",
                );
            }
        }
    }

    fn request_body(&mut self, location: &str, old: &Value, new: &Value) {
        let body = |doc: &Value, op: &Value| op.get("requestBody").map(|b| resolve(doc, b).clone());
        let at = format!("{location}.requestBody");
        match (body(self.old, old), body(self.new, new)) {
            (None, Some(new)) if is_true(new.get("required")) => {
                self.push(Compatibility::Breaking, &at, "new required request body");
            }
            (Some(old), Some(new)) => {
                if is_true(new.get("required")) && !is_true(old.get("required")) {
                    self.push(Compatibility::Breaking, &at, "request body became required");
                }
                if let (Some(o), Some(n)) = (json_schema(&old), json_schema(&new)) {
                    self.schema(
                        &format!("{at}.content.application/json.schema"),
                        o,
                        n,
                        Direction::Input,
                        0,
                    );
                }
            }
            _ => {}
        }
    }

    fn responses(&mut self, location: &str, old: &Value, new: &Value) {
        let responses = |op: &Value| {
            op.get("responses")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default()
        };
        let (old_r, new_r) = (responses(old), responses(new));
        let success = |r: &serde_json::Map<String, Value>| -> BTreeSet<String> {
            r.keys().filter(|k| k.starts_with('2')).cloned().collect()
        };
        let (old_success, new_success) = (success(&old_r), success(&new_r));
        if old_success != new_success {
            let list = |s: &BTreeSet<String>| s.iter().cloned().collect::<Vec<_>>().join(", ");
            self.push(
                Compatibility::Breaking,
                &format!("{location}.responses"),
                format!(
                    "success status changed from {} to {}",
                    list(&old_success),
                    list(&new_success)
                ),
            );
        }
        for (status, new_response) in &new_r {
            let at = format!("{location}.responses.{status}");
            match old_r.get(status) {
                None if !status.starts_with('2') => {
                    self.push(Compatibility::Compatible, &at, "new error status documented");
                }
                None => {}
                Some(old_response) => {
                    let (o, n) = (
                        resolve(self.old, old_response).clone(),
                        resolve(self.new, new_response).clone(),
                    );
                    match (json_schema(&o), json_schema(&n)) {
                        (Some(o), Some(n)) => self.schema(&format!("{at}.schema"), o, n, Direction::Output, 0),
                        (Some(_), None) => self.push(Compatibility::Breaking, &at, "response body removed"),
                        (None, Some(_)) => self.push(Compatibility::Compatible, &at, "response body added"),
                        (None, None) => {}
                    }
                }
            }
        }
        for status in old_r.keys() {
            if !new_r.contains_key(status) && !status.starts_with('2') {
                self.push(
                    Compatibility::Compatible,
                    &format!("{location}.responses.{status}"),
                    "error status no longer documented",
                );
            }
        }
    }
}

fn text(value: &Value, key: &str) -> String {
    value.get(key).and_then(Value::as_str).unwrap_or_default().to_string()
}

fn json_schema(response_or_body: &Value) -> Option<&Value> {
    response_or_body.pointer("/content/application~1json/schema")
}

pub use command::run;
