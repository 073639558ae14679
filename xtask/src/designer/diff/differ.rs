//! What every comparison shares: the levels and changes it reports, the
//! direction data flows in, and the [`Differ`] that walks two documents
//! (its comparisons are in the files beside this one). A leaf of `diff/`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde_json::Value;

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
pub(super) enum Direction {
    Request,
    Response,
}

/// The state of one comparison: the two documents, and the changes found.
pub(super) struct Differ<'a> {
    pub(super) old: &'a Value,
    pub(super) new: &'a Value,
    /// `YYYY-MM-DD`, for `x-sunset`.
    pub(super) today: &'a str,
    /// Component schemas equal in both documents, with everything they
    /// reference: comparing them again at each use finds nothing.
    pub(super) unchanged: BTreeSet<String>,
    /// Whether the schema being compared is a parameter's, whose values
    /// travel as text.
    pub(super) in_parameter: bool,
    /// Whether the operations compared are webhooks: the request flows to
    /// the consumer, the response from it.
    pub(super) webhooks: bool,
    pub(super) changes: Vec<Change>,
}

impl Differ<'_> {
    /// `towards` as it flows for the operations compared: reversed for
    /// webhooks.
    pub(super) fn flowing(&self, towards: Direction) -> Direction {
        match (self.webhooks, towards) {
            (false, d) => d,
            (true, Direction::Request) => Direction::Response,
            (true, Direction::Response) => Direction::Request,
        }
    }

    /// Notes a change at `location`.
    pub(super) fn push(&mut self, level: Level, location: &str, message: impl Into<String>) {
        self.changes.push(Change {
            level,
            location: location.to_string(),
            message: message.into(),
        });
    }
}

/// The component schemas whose text is the same in both documents and
/// that reference only such schemas (a fixed point over the references).
pub(super) fn unchanged_schemas(old: &Value, new: &Value) -> BTreeSet<String> {
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

pub(super) fn is_true(value: Option<&Value>) -> bool {
    value.and_then(Value::as_bool).unwrap_or(false)
}

pub(super) fn text(value: &Value, key: &str) -> String {
    value.get(key).and_then(Value::as_str).unwrap_or_default().to_string()
}
