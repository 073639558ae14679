//! Operations: added, removed (our sunset policy), deprecated, their
//! security requirements and their parameters.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::differ::{Differ, Direction, Level, is_true, text};
use crate::codegen::document::METHODS;
use crate::designer::spec_json::{items, resolve};

/// One operation of a document: its path as written, the path item (for
/// path-level parameters) and the operation.
struct Operation<'a> {
    path: String,
    item: &'a Value,
    op: &'a Value,
}

/// A path with its variables' names erased: `/store/orders/{}`. Renaming
/// a variable changes nothing a client sends.
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

fn operations(doc: &Value) -> BTreeMap<(String, &'static str), Operation<'_>> {
    let mut out = BTreeMap::new();
    for (path, item) in doc.get("paths").and_then(Value::as_object).into_iter().flatten() {
        let item = resolve(doc, item);
        for method in METHODS {
            if let Some(op) = item.get(method) {
                out.insert(
                    (path_shape(path), method),
                    Operation {
                        path: path.clone(),
                        item,
                        op,
                    },
                );
            }
        }
    }
    out
}

/// `x-stability-level` below `beta`: oasdiff's convention for operations
/// whose changes break no promise.
fn is_unstable(op: &Value) -> bool {
    matches!(
        op.get("x-stability-level").and_then(Value::as_str),
        Some("draft" | "alpha")
    )
}

fn sunset(value: &Value) -> Option<&str> {
    value.get("x-sunset").and_then(Value::as_str)
}

impl Differ<'_> {
    pub(super) fn operations(&mut self) {
        let (old_ops, new_ops) = (operations(self.old), operations(self.new));
        for (key, old) in &old_ops {
            match new_ops.get(key) {
                None => self.removed_operation(&format!("paths.{}.{}", old.path, key.1), old.op),
                Some(new) => {
                    let location = format!("paths.{}.{}", new.path, key.1);
                    let before = self.changes.len();
                    self.operation(&location, old, new);
                    // Nothing about a draft or alpha operation is promised.
                    if is_unstable(old.op) {
                        for change in &mut self.changes[before..] {
                            change.level = Level::Compatible;
                        }
                    }
                }
            }
        }
        for (key, new) in &new_ops {
            if !old_ops.contains_key(key) {
                let id = new.op.get("operationId").and_then(Value::as_str).unwrap_or("?");
                self.push(
                    Level::Compatible,
                    &format!("paths.{}.{}", new.path, key.1),
                    format!("operation `{id}` added"),
                );
            }
        }
    }

    /// Our removal policy, stricter than oasdiff's: a deprecated operation
    /// may go only after its `x-sunset` date, so one without a date cannot
    /// go at all (oasdiff takes it as removable at once).
    fn removed_operation(&mut self, location: &str, op: &Value) {
        let id = op.get("operationId").and_then(Value::as_str).unwrap_or("?");
        let (level, message) = match (is_true(op.get("deprecated")), sunset(op)) {
            _ if is_unstable(op) => (
                Level::Compatible,
                format!("{} operation `{id}` removed", text(op, "x-stability-level")),
            ),
            (true, Some(sunset)) if sunset <= self.today => (
                Level::Compatible,
                format!("deprecated operation `{id}` removed after its sunset date {sunset}"),
            ),
            (true, Some(sunset)) => (
                Level::Breaking,
                format!("deprecated operation `{id}` removed before its sunset date {sunset}"),
            ),
            (true, None) => (
                Level::Breaking,
                format!("deprecated operation `{id}` removed, but it has no `x-sunset` date"),
            ),
            (false, _) => (Level::Breaking, format!("operation `{id}` removed")),
        };
        self.push(level, location, message);
    }

    fn operation(&mut self, location: &str, old: &Operation<'_>, new: &Operation<'_>) {
        let (old_id, new_id) = (text(old.op, "operationId"), text(new.op, "operationId"));
        if old_id != new_id && !old_id.is_empty() {
            self.push(
                Level::Warning,
                location,
                format!("operationId changed from `{old_id}` to `{new_id}`: the wire is the same, but generated clients name the method after it"),
            );
        }
        self.deprecation(location, "operation", old.op, new.op);
        self.security(location, old.op, new.op);
        self.parameters(location, old, new);
        self.request_body(location, old.op, new.op);
        self.responses(location, old.op, new.op);
    }

    /// Deprecation and `x-sunset` of an operation or a parameter: a sunset
    /// removed or moved earlier takes time clients were promised.
    pub(super) fn deprecation(&mut self, location: &str, what: &str, old: &Value, new: &Value) {
        let (was, is) = (is_true(old.get("deprecated")), is_true(new.get("deprecated")));
        match (was, is) {
            (false, true) => {
                let note = sunset(new).map(|s| format!(", sunset {s}")).unwrap_or_default();
                self.push(Level::Compatible, location, format!("{what} deprecated{note}"));
            }
            (true, false) => self.push(Level::Compatible, location, format!("{what} no longer deprecated")),
            _ => {}
        }
        if !(was && is) {
            return;
        }
        match (sunset(old), sunset(new)) {
            (Some(before), None) => self.push(
                Level::Breaking,
                location,
                format!("the {what}'s sunset date {before} was removed: clients counted on it until then"),
            ),
            (Some(before), Some(after)) if after < before => self.push(
                Level::Breaking,
                location,
                format!("the {what}'s sunset date moved earlier, from {before} to {after}"),
            ),
            (before, after) if before != after => self.push(
                Level::Compatible,
                location,
                format!(
                    "the {what}'s sunset date changed from {} to {}",
                    before.unwrap_or("none"),
                    after.unwrap_or("none")
                ),
            ),
            _ => {}
        }
    }

    /// The security requirements in force: the operation's, or the
    /// document's. A client that sent no credentials, or fewer scopes,
    /// now gets 401 or 403.
    fn security(&mut self, location: &str, old: &Value, new: &Value) {
        let requirements = |doc: &Value, op: &Value| -> BTreeSet<BTreeMap<String, BTreeSet<String>>> {
            let list = op.get("security").or_else(|| doc.get("security"));
            list.and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_object)
                .map(|requirement| {
                    requirement
                        .iter()
                        .map(|(scheme, scopes)| {
                            let scopes = scopes.as_array().into_iter().flatten().filter_map(Value::as_str);
                            (scheme.clone(), scopes.map(String::from).collect())
                        })
                        .collect()
                })
                .collect()
        };
        let (old_req, new_req) = (requirements(self.old, old), requirements(self.new, new));
        if old_req == new_req {
            return;
        }
        let open = |r: &BTreeSet<BTreeMap<String, BTreeSet<String>>>| r.is_empty() || r.iter().any(BTreeMap::is_empty);
        let at = format!("{location}.security");
        let describe = |r: &BTreeSet<BTreeMap<String, BTreeSet<String>>>| {
            if r.is_empty() {
                return "none".to_string();
            }
            r.iter()
                .map(|req| {
                    let parts: Vec<String> = req
                        .iter()
                        .map(|(scheme, scopes)| match scopes.is_empty() {
                            true => scheme.clone(),
                            false => format!("{scheme} [{}]", scopes.iter().cloned().collect::<Vec<_>>().join(", ")),
                        })
                        .collect();
                    match parts.is_empty() {
                        true => "none".to_string(),
                        false => parts.join(" + "),
                    }
                })
                .collect::<Vec<_>>()
                .join(" or ")
        };
        let message = format!("security changed from {} to {}", describe(&old_req), describe(&new_req));
        // A client meets a requirement when it sends every scheme it names
        // with at least its scopes: each old alternative must still meet a
        // new one, or the clients that chose it now get 401 or 403.
        let meets = |old: &BTreeMap<String, BTreeSet<String>>, new: &BTreeMap<String, BTreeSet<String>>| {
            new.iter()
                .all(|(scheme, scopes)| old.get(scheme).is_some_and(|old_scopes| scopes.is_subset(old_scopes)))
        };
        let every_client_still_passes = old_req.iter().all(|old| new_req.iter().any(|new| meets(old, new)));
        let level = match (open(&old_req), open(&new_req)) {
            (_, true) => Level::Compatible,
            // oasdiff reports adding security as information; clients
            // that sent no credentials now get 401, so we warn.
            (true, false) => Level::Warning,
            (false, false) if every_client_still_passes => Level::Compatible,
            (false, false) => Level::Warning,
        };
        self.push(level, &at, message);
    }

    /// Parameters, path-level ones included (an operation's own override
    /// them), matched by location and name (a header's name in any case).
    fn parameters(&mut self, location: &str, old: &Operation<'_>, new: &Operation<'_>) {
        let params = |doc: &Value, op: &Operation<'_>| -> BTreeMap<(String, String), Value> {
            let mut out = BTreeMap::new();
            for p in items(op.item, "parameters").chain(items(op.op, "parameters")) {
                let p = resolve(doc, p).clone();
                let place = text(&p, "in");
                let name = match place.as_str() {
                    "header" => text(&p, "name").to_ascii_lowercase(),
                    _ => text(&p, "name"),
                };
                out.insert((place, name), p);
            }
            out
        };
        let (old_params, new_params) = (params(self.old, old), params(self.new, new));
        for (key, new_param) in &new_params {
            let at = format!("{location}.parameters.{}.{}", key.0, text(new_param, "name"));
            let required = is_true(new_param.get("required"));
            match old_params.get(key) {
                None if required => self.push(
                    Level::Breaking,
                    &at,
                    "new required parameter: requests without it now fail",
                ),
                None => self.push(Level::Compatible, &at, "new optional parameter"),
                Some(old_param) => self.parameter(&at, old_param, new_param),
            }
        }
        for (key, old_param) in &old_params {
            if new_params.contains_key(key) {
                continue;
            }
            let at = format!("{location}.parameters.{}.{}", key.0, text(old_param, "name"));
            let deprecated = is_true(old_param.get("deprecated"));
            let (level, message) = match sunset(old_param) {
                Some(date) if deprecated && date > self.today => (
                    Level::Breaking,
                    format!("deprecated parameter removed before its sunset date {date}"),
                ),
                _ if deprecated => (Level::Compatible, "deprecated parameter removed".to_string()),
                _ => (
                    Level::Warning,
                    "parameter removed: clients still send it, and the server no longer reads it".to_string(),
                ),
            };
            self.push(level, &at, message);
        }
    }

    fn parameter(&mut self, at: &str, old: &Value, new: &Value) {
        if is_true(new.get("required")) && !is_true(old.get("required")) {
            self.push(
                Level::Breaking,
                at,
                "parameter became required: requests without it now fail",
            );
        }
        self.deprecation(at, "parameter", old, new);
        for key in ["style", "explode"] {
            if old.get(key) != new.get(key) {
                self.push(
                    Level::Breaking,
                    at,
                    format!("`{key}` changed: the parameter is written differently on the wire"),
                );
            }
        }
        // A parameter's schema, or the schema of its one media type.
        fn schema(p: &Value) -> Option<&Value> {
            p.get("schema").or_else(|| {
                p.get("content")
                    .and_then(Value::as_object)
                    .and_then(|c| c.values().next())
                    .and_then(|m| m.get("schema"))
            })
        }
        if let (Some(o), Some(n)) = (schema(old), schema(new)) {
            self.in_parameter = true;
            self.schema(&format!("{at}.schema"), o, n, self.flowing(Direction::Request));
            self.in_parameter = false;
        }
    }
}
