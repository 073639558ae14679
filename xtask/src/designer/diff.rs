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

impl Differ<'_> {
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

    /// Compares two schemas reached the same way; `depth` guards against
    /// recursive schemas.
    fn schema(&mut self, at: &str, old: &Value, new: &Value, direction: Direction, depth: usize) {
        if depth > 16 {
            return;
        }
        let (old, new) = (resolve(self.old, old), resolve(self.new, new));
        let breaking = Compatibility::Breaking;
        let (old_type, new_type) = (text(old, "type"), text(new, "type"));
        if old_type != new_type {
            self.push(breaking, at, format!("type changed from `{old_type}` to `{new_type}`"));
            return;
        }
        let (old_format, new_format) = (text(old, "format"), text(new, "format"));
        if old_format != new_format {
            self.push(
                breaking,
                at,
                format!("format changed from `{old_format}` to `{new_format}`"),
            );
        }
        match (direction, is_true(old.get("nullable")), is_true(new.get("nullable"))) {
            (Direction::Output, false, true) => self.push(breaking, at, "may now be null"),
            (Direction::Input, true, false) => self.push(breaking, at, "no longer accepts null"),
            _ => {}
        }
        self.enumeration(at, old, new, direction);
        if direction == Direction::Input {
            self.bounds(at, old, new);
        }
        if let (Some(o), Some(n)) = (old.get("items"), new.get("items")) {
            self.schema(&format!("{at}.items"), o, n, direction, depth + 1);
        }
        self.properties(at, old, new, direction, depth);
    }

    fn enumeration(&mut self, at: &str, old: &Value, new: &Value, direction: Direction) {
        let values = |s: &Value| -> Option<BTreeSet<String>> {
            Some(s.get("enum")?.as_array()?.iter().map(Value::to_string).collect())
        };
        match (values(old), values(new), direction) {
            (None, Some(_), Direction::Input) => self.push(Compatibility::Breaking, at, "now restricted to an enum"),
            (Some(o), Some(n), Direction::Input) => {
                for removed in o.difference(&n) {
                    self.push(Compatibility::Breaking, at, format!("enum value {removed} removed"));
                }
                for added in n.difference(&o) {
                    self.push(Compatibility::Compatible, at, format!("enum value {added} added"));
                }
            }
            (Some(o), Some(n), Direction::Output) => {
                for added in n.difference(&o) {
                    self.push(
                        Compatibility::Breaking,
                        at,
                        format!("enum value {added} added (old clients cannot read it)"),
                    );
                }
                for removed in o.difference(&n) {
                    self.push(
                        Compatibility::Compatible,
                        at,
                        format!("enum value {removed} no longer sent"),
                    );
                }
            }
            (Some(_), None, Direction::Output) => {
                self.push(Compatibility::Breaking, at, "no longer restricted to an enum")
            }
            _ => {}
        }
    }

    /// Input only: does the server now accept less than before?
    fn bounds(&mut self, at: &str, old: &Value, new: &Value) {
        let number = |s: &Value, key: &str| s.get(key).and_then(Value::as_f64);
        for (key, tighter) in [
            ("maximum", (|o: f64, n: f64| n < o) as fn(f64, f64) -> bool),
            ("minimum", |o, n| n > o),
            ("maxLength", |o, n| n < o),
            ("minLength", |o, n| n > o),
            ("maxItems", |o, n| n < o),
            ("minItems", |o, n| n > o),
        ] {
            match (number(old, key), number(new, key)) {
                (None, Some(n)) => self.push(Compatibility::Breaking, at, format!("narrowed: new {key} {n}")),
                (Some(o), Some(n)) if tighter(o, n) => {
                    self.push(Compatibility::Breaking, at, format!("narrowed: {key} {o} -> {n}"));
                }
                _ => {}
            }
        }
        if new.get("pattern").is_some() && old.get("pattern") != new.get("pattern") {
            self.push(Compatibility::Breaking, at, "narrowed: new or changed pattern");
        }
    }

    fn properties(&mut self, at: &str, old: &Value, new: &Value, direction: Direction, depth: usize) {
        let props = |s: &Value| {
            s.get("properties")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default()
        };
        let required = |s: &Value| -> BTreeSet<String> {
            items(s, "required")
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        };
        let (old_props, new_props) = (props(old), props(new));
        let (old_required, new_required) = (required(old), required(new));
        for (name, old_prop) in &old_props {
            let here = format!("{at}.properties.{name}");
            match (new_props.get(name), direction) {
                (None, Direction::Output) => self.push(Compatibility::Breaking, &here, "response field removed"),
                (None, Direction::Input) => self.push(Compatibility::Compatible, &here, "request field removed"),
                (Some(new_prop), _) => self.schema(&here, old_prop, new_prop, direction, depth + 1),
            }
        }
        for name in new_props.keys().filter(|n| !old_props.contains_key(*n)) {
            let here = format!("{at}.properties.{name}");
            match (direction, new_required.contains(name)) {
                (Direction::Input, true) => self.push(Compatibility::Breaking, &here, "new required request field"),
                (Direction::Input, false) => self.push(Compatibility::Compatible, &here, "new optional request field"),
                (Direction::Output, _) => self.push(Compatibility::Compatible, &here, "response field added"),
            }
        }
        for name in old_props.keys().filter(|n| new_props.contains_key(*n)) {
            let here = format!("{at}.properties.{name}");
            match (direction, old_required.contains(name), new_required.contains(name)) {
                (Direction::Output, true, false) => {
                    self.push(Compatibility::Breaking, &here, "response field no longer required")
                }
                (Direction::Input, false, true) => {
                    self.push(Compatibility::Breaking, &here, "request field became required")
                }
                _ => {}
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

/// `cargo xtask diff [--base REF]`: prints every change and fails on a
/// breaking one unless `info.version`'s major was bumped.
pub fn run(root: &std::path::Path, args: &[String]) -> Result<(), String> {
    let base = match args {
        [] => default_base(root)?,
        [flag, reference] if flag == "--base" => reference.clone(),
        _ => return Err("usage: cargo xtask diff [--base GIT_REF]".into()),
    };
    let spec_path = crate::codegen::SPEC_PATH;
    let new = crate::designer::spec_json::read_checked(root)?;
    let old: Value = match git(root, &["show", &format!("{base}:{spec_path}")]) {
        Ok(text) => serde_norway::from_str(&text).map_err(|e| format!("{spec_path} at {base}: {e}"))?,
        // Not there yet: everything is new.
        Err(_) => serde_json::json!({"openapi": "3.0.3", "info": {"version": "0.0.0"}, "paths": {}}),
    };
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let changes = diff(&old, &new, &today);
    let version = |doc: &Value| {
        doc.pointer("/info/version")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string()
    };
    println!(
        "{spec_path}: {base} ({}) -> working tree ({})",
        version(&old),
        version(&new)
    );
    for change in &changes {
        println!("  {change}");
    }
    let breaking = changes
        .iter()
        .filter(|c| c.compatibility == Compatibility::Breaking)
        .count();
    println!("{breaking} breaking, {} compatible", changes.len() - breaking);
    if breaking == 0 {
        return Ok(());
    }
    let (old_major, new_major) = (major_version(&old), major_version(&new));
    if let (Some(o), Some(n)) = (old_major, new_major)
        && n > o
    {
        println!("allowed: info.version's major went from {o} to {n} (serve it under a new base path)");
        return Ok(());
    }
    Err(format!(
        "{breaking} breaking change(s): clients built against {} would break; bump info.version's major (and the base path) or make the change compatible",
        version(&old)
    ))
}

/// The merge base with main, or HEAD when the tree is main itself (or
/// when there is no `main` to compare with, as in a detached checkout).
fn default_base(root: &std::path::Path) -> Result<String, String> {
    let branch = git(root, &["rev-parse", "--abbrev-ref", "HEAD"])?;
    if branch.trim() == "main" {
        return Ok("HEAD".into());
    }
    match git(root, &["merge-base", "HEAD", "main"]) {
        Ok(base) => Ok(base.trim().to_string()),
        Err(_) => Ok("HEAD".into()),
    }
}

fn git(root: &std::path::Path, args: &[&str]) -> Result<String, String> {
    let output = std::process::Command::new("git")
        .current_dir(root)
        .args(args)
        .output()
        .map_err(|e| format!("git: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}
