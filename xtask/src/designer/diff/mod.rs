//! `cargo xtask diff`: what changed between two OpenAPI 3.0 documents, and
//! whether clients built against the old one still work.
//!
//! Rules of our own rather than Oxide's `drift` (0.2): tried on our spec,
//! drift reports a removed response field, a changed format, a narrowed
//! parameter and a removed enum value as "unhandled", and does not see
//! deprecation or `x-sunset` at all. The reference for what breaks is
//! oasdiff (`oasdiff breaking`); `xtask/tests/integration/oasdiff_agreement.rs`
//! measures ours against its own test pairs, and lists each verdict we
//! keep on purpose.
//!
//! Three levels, as oasdiff's: a **breaking** change fails the command, a
//! **warning** may break some clients (printed; fails with `--strict`), a
//! **compatible** one is printed.
//!
//! Direction matters: a change to what clients send (parameters, request
//! bodies) breaks them when the server accepts less; a change to what they
//! receive (responses) breaks them when it can send something they do not
//! expect. [`schemas`] compares schemas in either direction, at any depth.
//!
//! Webhooks and callbacks are compared as their receivers see them
//! (`codegen::spec::webhooks`): the service sends the request, so its body
//! and parameters are what a receiver receives, and the receiver's answer
//! what it sends.

mod operations;
mod payloads;
mod schemas;
mod webhooks;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde_json::Value;

use crate::designer::spec_json::items;

/// How a change affects clients built against the old document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Clients built against the old document fail.
    Breaking,
    /// Some clients may fail: the effect cannot be judged from the
    /// documents alone (two different patterns), or depends on what
    /// clients did that the old document allowed.
    Warning,
    /// No client notices, or only in a way the old document allowed.
    Compatible,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Change {
    pub level: Level,
    /// Where, in the new document (or the old one, for a removal).
    pub location: String,
    /// What a client would notice.
    pub message: String,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = match self.level {
            Level::Breaking => "BREAKING  ",
            Level::Warning => "warning   ",
            Level::Compatible => "compatible",
        };
        write!(f, "{label} {}: {}", self.location, self.message)
    }
}

/// Whether data flows to the server (parameters, request bodies) or from
/// it (responses).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Direction {
    Request,
    Response,
}

struct Differ<'a> {
    old: &'a Value,
    new: &'a Value,
    /// `YYYY-MM-DD`, for `x-sunset`.
    today: &'a str,
    /// Component schemas equal in both documents, with everything they
    /// reference: comparing them again at each use finds nothing.
    unchanged: BTreeSet<String>,
    /// Whether the schema being compared is a parameter's, whose values
    /// travel as text.
    in_parameter: bool,
    /// Whether the operations compared are webhooks: the request flows to
    /// the consumer, the response from it.
    webhooks: bool,
    changes: Vec<Change>,
}

/// Every change from `old` to `new` (both OpenAPI documents as JSON),
/// each location once per message.
pub fn diff(old: &Value, new: &Value, today: &str) -> Vec<Change> {
    let mut differ = Differ {
        old,
        new,
        today,
        unchanged: unchanged_schemas(old, new),
        in_parameter: false,
        webhooks: false,
        changes: Vec::new(),
    };
    differ.servers();
    differ.schema_names();
    differ.security_schemes();
    differ.operations();
    let mut changes = differ.changes;
    changes.extend(webhooks::diff(old, new, today));
    changes.sort();
    changes.dedup();
    changes
}

impl Differ<'_> {
    /// `towards` as it flows for the operations compared: reversed for
    /// webhooks.
    fn flowing(&self, towards: Direction) -> Direction {
        match (self.webhooks, towards) {
            (false, d) => d,
            (true, Direction::Request) => Direction::Response,
            (true, Direction::Response) => Direction::Request,
        }
    }
}

/// `N breaking, W warnings, C compatible`.
pub fn summary(changes: &[Change]) -> String {
    let count = |level: Level| changes.iter().filter(|c| c.level == level).count();
    format!(
        "{} breaking, {} warnings, {} compatible",
        count(Level::Breaking),
        count(Level::Warning),
        count(Level::Compatible)
    )
}

/// The major part of `info.version`.
pub fn major_version(doc: &Value) -> Option<u64> {
    doc.pointer("/info/version")?.as_str()?.split('.').next()?.parse().ok()
}

/// The base paths the servers' URLs give (`/v1`), variables at their
/// defaults; the root when there are no servers, as OpenAPI says.
pub(crate) fn base_paths(doc: &Value) -> BTreeSet<String> {
    let paths: BTreeSet<String> = items(doc, "servers")
        .filter_map(|server| {
            let mut url = server.get("url")?.as_str()?.to_string();
            for (name, variable) in server.get("variables").and_then(Value::as_object).into_iter().flatten() {
                let default = variable.get("default").and_then(Value::as_str).unwrap_or_default();
                url = url.replace(&format!("{{{name}}}"), default);
            }
            Some(crate::codegen::spec::base_path(&url))
        })
        .map(|path| if path.is_empty() { "/".to_string() } else { path })
        .collect();
    match paths.is_empty() {
        true => BTreeSet::from(["/".to_string()]),
        false => paths,
    }
}

/// The names of `components.schemas`.
fn schema_names(doc: &Value) -> BTreeSet<String> {
    doc.pointer("/components/schemas")
        .and_then(Value::as_object)
        .map(|schemas| schemas.keys().cloned().collect())
        .unwrap_or_default()
}

/// The component schemas whose text is the same in both documents and
/// that reference only such schemas (a fixed point over the references).
fn unchanged_schemas(old: &Value, new: &Value) -> BTreeSet<String> {
    let schemas = |doc: &Value| doc.pointer("/components/schemas").and_then(Value::as_object).cloned();
    let (Some(old_schemas), Some(new_schemas)) = (schemas(old), schemas(new)) else {
        return BTreeSet::new();
    };
    let references: BTreeMap<&String, BTreeSet<String>> = old_schemas
        .iter()
        .filter(|(name, schema)| new_schemas.get(*name) == Some(schema))
        .map(|(name, schema)| {
            let mut refs = BTreeSet::new();
            collect_schema_refs(schema, &mut refs);
            (name, refs)
        })
        .collect();
    let mut unchanged: BTreeSet<String> = references.keys().map(|n| n.to_string()).collect();
    loop {
        let kept: BTreeSet<String> = unchanged
            .iter()
            .filter(|name| references[*name].iter().all(|r| unchanged.contains(r)))
            .cloned()
            .collect();
        if kept.len() == unchanged.len() {
            return kept;
        }
        unchanged = kept;
    }
}

fn collect_schema_refs(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            if let Some(name) = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/components/schemas/"))
            {
                out.insert(name.to_string());
            }
            map.values().for_each(|v| collect_schema_refs(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_schema_refs(v, out)),
        _ => {}
    }
}

fn is_true(value: Option<&Value>) -> bool {
    value.and_then(Value::as_bool).unwrap_or(false)
}

fn text(value: &Value, key: &str) -> String {
    value.get(key).and_then(Value::as_str).unwrap_or_default().to_string()
}

impl Differ<'_> {
    fn push(&mut self, level: Level, location: &str, message: impl Into<String>) {
        self.changes.push(Change {
            level,
            location: location.to_string(),
            message: message.into(),
        });
    }

    /// A new base path moves every operation: each client's base URL must
    /// change. Another host with the same path is the same API elsewhere.
    fn servers(&mut self) {
        let (old, new) = (base_paths(self.old), base_paths(self.new));
        let removed: Vec<&String> = old.difference(&new).collect();
        if !removed.is_empty() {
            let list = |paths: &mut dyn Iterator<Item = &String>| {
                paths.map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ")
            };
            self.push(
                Level::Breaking,
                "servers",
                format!(
                    "base path {} is no longer served (now {}): every request's URL changes",
                    list(&mut removed.into_iter()),
                    list(&mut new.iter())
                ),
            );
        }
    }

    /// Generated clients name their types after `components.schemas`: a
    /// schema that is gone breaks code that names it, even when the wire
    /// format is unchanged (a schema renamed with the same fields). oasdiff
    /// judges the wire only; this is stricter, on purpose.
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
            self.push(Level::Breaking, &format!("components.schemas.{name}"), message);
        }
        for name in added {
            self.push(Level::Compatible, &format!("components.schemas.{name}"), "new schema");
        }
    }

    /// A new scheme is something clients may use; one removed is one a
    /// requirement can no longer name (its removal from a requirement is
    /// where clients notice).
    fn security_schemes(&mut self) {
        let schemes = |doc: &Value| -> BTreeSet<String> {
            doc.pointer("/components/securitySchemes")
                .and_then(Value::as_object)
                .map(|s| s.keys().cloned().collect())
                .unwrap_or_default()
        };
        let (old, new) = (schemes(self.old), schemes(self.new));
        for name in new.difference(&old) {
            self.push(
                Level::Compatible,
                &format!("components.securitySchemes.{name}"),
                "new security scheme",
            );
        }
        for name in old.difference(&new) {
            self.push(
                Level::Compatible,
                &format!("components.securitySchemes.{name}"),
                "security scheme removed",
            );
        }
    }
}
