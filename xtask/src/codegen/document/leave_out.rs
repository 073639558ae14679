//! Leaving out, never silently. A designer names the operations the
//! generator should leave out of a spec in a list kept beside it
//! (`openapi/petstore.yaml` → `openapi/petstore.leave-out.yaml`), each
//! with the reason:
//!
//! ```yaml
//! - operation: PUT /pet          # a method and a path, or an operationId
//!   reason: XML bodies are not mapped yet
//! ```
//!
//! The listed operations are taken out of the document before anything
//! else reads it: neither the server nor the client has them, and the
//! document the server serves does not offer them. The generated files'
//! header and `cargo xtask generate` say what was left out and why.
//! Nothing is left out unless it is listed; an entry that names no
//! operation, or gives no reason, is an error.

use serde::Deserialize;
use serde_norway::Value;

use super::errors::{SpecError, SpecErrors};

const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// The list beside a spec: its path with `.leave-out.yaml` for its
/// extension.
pub fn list_path(spec_path: &str) -> String {
    let stem = spec_path
        .strip_suffix(".yaml")
        .or_else(|| spec_path.strip_suffix(".yml"))
        .or_else(|| spec_path.strip_suffix(".json"))
        .unwrap_or(spec_path);
    format!("{stem}.leave-out.yaml")
}

/// Whether a file is a leave-out list rather than a spec.
pub fn is_list(file_name: &str) -> bool {
    file_name.ends_with(".leave-out.yaml")
}

/// One entry of a list, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub operation: String,
    pub reason: String,
}

/// An operation left out, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOut {
    /// `PUT /pet (updatePet)`.
    pub operation: String,
    pub reason: String,
}

impl LeftOut {
    /// Its method (`POST`) and path, as `operation` names them.
    pub fn method_and_path(&self) -> Option<(&str, &str)> {
        let (method, rest) = self.operation.split_once(' ')?;
        Some((method, rest.split(" (").next().unwrap_or(rest)))
    }
}

impl std::fmt::Display for LeftOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.operation, self.reason)
    }
}

/// Reads a list (`list` names it in errors).
pub fn parse_list(list: &str, text: &str) -> Result<Vec<Entry>, SpecErrors> {
    serde_norway::from_str::<Option<Vec<Entry>>>(text)
        .map(Option::unwrap_or_default)
        .map_err(|e| SpecError::new(list, format!("not a list of `operation` and `reason` entries: {e}")).into())
}

/// The spec without the listed operations (a path left without any
/// operation goes too), and what was left out. Every entry must name an
/// operation of the spec, once, and give a reason.
pub fn leave_out(spec_text: &str, list: &str, entries: &[Entry]) -> Result<(String, Vec<LeftOut>), SpecErrors> {
    if entries.is_empty() {
        return Ok((spec_text.to_string(), Vec::new()));
    }
    let mut doc: Value =
        serde_norway::from_str(spec_text).map_err(|e| SpecError::new("document", format!("invalid YAML: {e}")))?;
    let mut errors = Vec::new();
    let mut left_out = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let at = format!("{list}: entry {i} (`{}`)", entry.operation);
        if entry.reason.trim().is_empty() {
            errors.push(SpecError::new(&at, "needs a reason"));
            continue;
        }
        let Some((path, method)) = find(&doc, &entry.operation) else {
            errors.push(SpecError::new(
                &at,
                "names no operation of the spec (write `METHOD /path` or an operationId)",
            ));
            continue;
        };
        let Some(Value::Mapping(paths)) = doc.get_mut("paths") else {
            continue;
        };
        let Some(Value::Mapping(item)) = paths.get_mut(path.as_str()) else {
            continue;
        };
        let operation_id = item
            .get(method.as_str())
            .and_then(|op| op.get("operationId"))
            .and_then(Value::as_str)
            .map(str::to_string);
        item.shift_remove(method.as_str());
        if !METHODS.iter().any(|m| item.contains_key(*m)) {
            paths.shift_remove(path.as_str());
        }
        let name = format!("{} {path}", method.to_uppercase());
        left_out.push(LeftOut {
            operation: match operation_id {
                Some(id) => format!("{name} ({id})"),
                None => name,
            },
            reason: entry.reason.trim().to_string(),
        });
    }
    if !errors.is_empty() {
        return Err(SpecErrors(errors));
    }
    let text = serde_norway::to_string(&doc)
        .map_err(|e| SpecError::new("document", format!("cannot write the spec back: {e}")))?;
    Ok((text, left_out))
}

/// The path and method an entry names: `METHOD /path`, or an
/// operationId.
fn find(doc: &Value, operation: &str) -> Option<(String, String)> {
    let paths = doc.get("paths")?.as_mapping()?;
    if let Some((method, path)) = operation.trim().split_once(' ') {
        let method = method.to_ascii_lowercase();
        let path = path.trim();
        return paths
            .get(path)?
            .get(method.as_str())
            .map(|_| (path.to_string(), method));
    }
    paths.iter().find_map(|(path, item)| {
        METHODS.iter().find_map(|method| {
            let id = item.get(*method)?.get("operationId")?.as_str()?;
            (id == operation.trim()).then(|| (path.as_str().unwrap_or_default().to_string(), method.to_string()))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &str = "openapi: 3.0.3\npaths:\n  /a:\n    get:\n      operationId: getA\n      responses: {}\n    put:\n      operationId: putA\n      responses: {}\n  /b:\n    post:\n      operationId: postB\n      responses: {}\n";

    fn entries(yaml: &str) -> Vec<Entry> {
        parse_list("x.leave-out.yaml", yaml).unwrap()
    }

    #[test]
    fn listed_operations_go_with_their_reason_and_nothing_else() {
        let list = entries("- operation: PUT /a\n  reason: not yet\n- operation: postB\n  reason: later\n");
        let (text, left) = leave_out(SPEC, "x.leave-out.yaml", &list).unwrap();
        let doc: Value = serde_norway::from_str(&text).unwrap();
        assert!(doc["paths"]["/a"].get("get").is_some());
        assert!(doc["paths"]["/a"].get("put").is_none());
        assert!(doc["paths"].get("/b").is_none(), "a path without operations goes too");
        assert_eq!(
            left.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["PUT /a (putA): not yet", "POST /b (postB): later"]
        );
    }

    #[test]
    fn an_entry_must_name_an_operation_and_give_a_reason() {
        let list = entries("- operation: DELETE /a\n  reason: x\n- operation: getA\n  reason: ' '\n");
        let errors = leave_out(SPEC, "x.leave-out.yaml", &list).unwrap_err();
        assert_eq!(errors.0.len(), 2, "{errors}");
        assert!(errors.0[0].message.contains("names no operation"));
        assert!(errors.0[1].message.contains("needs a reason"));
        assert!(parse_list("x", "- operation: getA\n  why: x\n").is_err());
    }

    #[test]
    fn the_list_sits_beside_the_spec() {
        assert_eq!(list_path("openapi/petstore.yaml"), "openapi/petstore.leave-out.yaml");
        assert_eq!(list_path("c/twilio.json"), "c/twilio.leave-out.yaml");
        assert!(is_list("twilio.leave-out.yaml"));
    }
}
