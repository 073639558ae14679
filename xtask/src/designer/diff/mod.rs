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
//! (`codegen::document::webhooks`): the service sends the request, so its body
//! and parameters are what a receiver receives, and the receiver's answer
//! what it sends.

mod differ;
mod operations;
mod payloads;
mod schemas;
mod webhooks;

use std::collections::BTreeSet;

use serde_json::Value;

use crate::designer::spec_json::items;
pub use differ::{Change, Level};
use differ::{Differ, unchanged_schemas};

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
            Some(crate::codegen::document::base_path(&url))
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

impl Differ<'_> {
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
