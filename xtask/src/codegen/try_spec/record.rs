//! What one document gave, as one line a parent process reads back
//! (`cargo xtask try --record FILE`): the summary runs each document in a
//! process of its own, so that a crash, a runaway allocation or an
//! endless loop costs that document only, and reports it as such.

use serde::{Deserialize, Serialize};

/// The prefix of the record's line on standard output.
pub(super) const PREFIX: &str = "try-record: ";

/// One document's outcome.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Record {
    /// The document, as it was named.
    pub(super) file: String,
    /// `3.0`, `3.1`, or what else its `openapi` (or `swagger`) says.
    pub(super) version: String,
    /// Its operations, as its `paths` has them (before anything is left
    /// out), so that a document refused whole counts every operation.
    pub(super) operations: usize,
    pub(super) outcome: Outcome,
}

/// Generated, with what was left out; or refused whole, with why.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) enum Outcome {
    Generated {
        mapped: usize,
        /// Listed by a leave-out list beside the document.
        listed: usize,
        /// Refused by the generator: the operation and the reason.
        refused: Vec<(String, String)>,
        tolerated: usize,
        degraded: usize,
    },
    /// Refused whole, with the generator's message.
    Refused(String),
    /// The process did not give a record: how it ended.
    Failed(String),
}

impl Record {
    /// The line the child prints.
    pub(super) fn line(&self) -> String {
        format!(
            "{PREFIX}{}",
            serde_json::to_string(self).expect("a record is plain data")
        )
    }

    /// The record in a child's standard output, if it printed one.
    pub(super) fn from_output(stdout: &str) -> Option<Record> {
        stdout
            .lines()
            .rev()
            .find_map(|line| line.strip_prefix(PREFIX))
            .and_then(|json| serde_json::from_str(json).ok())
    }
}

/// The document's OpenAPI version in two parts (`3.0`), and its
/// operations as its `paths` has them.
pub(super) fn version_and_operations(text: &str) -> (String, usize) {
    let Ok(document) =
        serde_norway::from_str::<serde_json::Value>(text).or_else(|_| serde_json::from_str::<serde_json::Value>(text))
    else {
        return ("unreadable".into(), 0);
    };
    let version = document
        .get("openapi")
        .or_else(|| document.get("swagger"))
        .map(|v| match v {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .unwrap_or_else(|| "none".into());
    let short = version.split('.').take(2).collect::<Vec<_>>().join(".");
    let operations = document
        .get("paths")
        .and_then(serde_json::Value::as_object)
        .map(|paths| {
            paths
                .values()
                .filter_map(serde_json::Value::as_object)
                .map(|item| {
                    item.keys()
                        .filter(|key| crate::codegen::document::METHODS.contains(&key.to_ascii_lowercase().as_str()))
                        .count()
                })
                .sum()
        })
        .unwrap_or(0);
    (short, operations)
}
