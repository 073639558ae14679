//! A refusal takes out its operations, never the document. Every problem
//! the checks and generators report names a location; this finds the
//! operations each one belongs to: the operation itself
//! (`paths./a.get.…`), every operation of a path (`paths./a`,
//! `paths./a.parameters.0`), every operation that reaches a component
//! through its references (`components.schemas.Pet.…`), or every
//! operation a security scheme or the document's security applies to.
//! Those operations are left out, each with where and why, and the rest
//! of the document generates. A problem that belongs to no operation (the
//! document's structure, its servers) still refuses the document.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::leave_out::Entry;
use super::{METHODS, SpecErrors};

/// An operation by its path and method (lower case).
type OperationKey = (String, String);

/// The operations to leave out for `errors`, each with the problems that
/// refuse it, as leave-out entries; `None` when no problem belongs to an
/// operation (the document itself is refused).
pub fn blame(document: &Value, errors: &SpecErrors) -> Option<Vec<Entry>> {
    let operations = Operations::read(document);
    let mut reasons: BTreeMap<OperationKey, Vec<String>> = BTreeMap::new();
    for error in &errors.0 {
        for key in operations.at(&error.location) {
            // One line each: the reasons go into comments and YAML.
            let reason = format!("refused at {}: {}", error.location, error.message)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let list = reasons.entry(key).or_default();
            if !list.contains(&reason) {
                list.push(reason);
            }
        }
    }
    if reasons.is_empty() {
        return None;
    }
    // In document order, so the list reads as the spec does.
    let entries = operations
        .keys
        .iter()
        .filter_map(|key| {
            let reasons = reasons.get(key)?;
            Some(Entry {
                operation: format!("{} {}", key.1.to_uppercase(), key.0),
                reason: reasons.join("; "),
            })
        })
        .collect();
    Some(entries)
}

/// The components (`components.schemas.Event`) that `errors` refuse and
/// no operation reaches (a schema only a webhook uses, or none): nothing
/// served needs them, so they are left out instead of the document.
pub fn unreached(document: &Value, errors: &SpecErrors) -> Vec<String> {
    let operations = Operations::read(document);
    let mut out = Vec::new();
    for error in &errors.0 {
        let Some(rest) = error.location.strip_prefix("components.") else {
            continue;
        };
        let Some((kind, rest)) = rest.split_once('.') else {
            continue;
        };
        // Names may hold dots: the longest name the location starts with.
        let name = document
            .get("components")
            .and_then(|c| c.get(kind))
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(name, _)| name)
            .filter(|name| rest == name.as_str() || rest.starts_with(&format!("{name}.")))
            .max_by_key(|name| name.len());
        let Some(name) = name else { continue };
        let component = format!("components.{kind}.{name}");
        if operations.at(&error.location).is_empty() && !out.contains(&component) {
            out.push(component);
        }
    }
    out
}

/// `text` without the `components` named (`components.schemas.Event`).
pub fn without_components(text: &str, components: &[String]) -> Result<String, super::SpecError> {
    let mut doc: serde_norway::Value =
        serde_norway::from_str(text).map_err(|e| super::SpecError::new("document", format!("invalid YAML: {e}")))?;
    for component in components {
        let mut parts = component.splitn(3, '.').skip(1);
        let (Some(kind), Some(name)) = (parts.next(), parts.next()) else {
            continue;
        };
        if let Some(serde_norway::Value::Mapping(section)) = doc.get_mut("components").and_then(|c| c.get_mut(kind)) {
            section.shift_remove(name);
        }
    }
    serde_norway::to_string(&doc).map_err(|e| super::SpecError::new("document", format!("cannot write the spec: {e}")))
}

/// The document's operations, and what each reaches.
struct Operations {
    /// In document order.
    keys: Vec<OperationKey>,
    /// The components each operation reaches (`components.schemas.Pet`).
    reaches: BTreeMap<OperationKey, BTreeSet<String>>,
    /// The security schemes each operation may use.
    schemes: BTreeMap<OperationKey, BTreeSet<String>>,
    /// The operations the document's own `security` applies to.
    document_security: BTreeSet<OperationKey>,
}

impl Operations {
    fn read(document: &Value) -> Self {
        let mut operations = Operations {
            keys: Vec::new(),
            reaches: BTreeMap::new(),
            schemes: BTreeMap::new(),
            document_security: BTreeSet::new(),
        };
        let paths = document.get("paths").and_then(Value::as_object);
        for (path, item) in paths.into_iter().flatten() {
            for method in METHODS {
                let Some(op) = item.get(method) else { continue };
                let key = (path.clone(), method.to_string());
                let mut reached = BTreeSet::new();
                references(document, op, &mut reached);
                if let Some(shared) = item.get("parameters") {
                    references(document, shared, &mut reached);
                }
                let security = match op.get("security") {
                    Some(own) => own,
                    None => {
                        operations.document_security.insert(key.clone());
                        document.get("security").unwrap_or(&Value::Null)
                    }
                };
                let schemes = security
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_object)
                    .flat_map(|requirement| requirement.keys().cloned())
                    .collect();
                operations.reaches.insert(key.clone(), reached);
                operations.schemes.insert(key.clone(), schemes);
                operations.keys.push(key);
            }
        }
        operations
    }

    /// The operations a problem at `location` belongs to.
    fn at(&self, location: &str) -> Vec<OperationKey> {
        if let Some(rest) = location.strip_prefix("paths.") {
            // Paths hold dots (`/{id}.{format}`): the longest path the
            // location starts with is the one.
            let path = self
                .keys
                .iter()
                .map(|(path, _)| path)
                .filter(|path| rest == path.as_str() || rest.starts_with(&format!("{path}.")))
                .max_by_key(|path| path.len());
            let Some(path) = path else { return Vec::new() };
            let after = rest[path.len()..].trim_start_matches('.');
            let method = after.split('.').next().unwrap_or_default();
            return self
                .keys
                .iter()
                .filter(|(p, m)| p == path && (!METHODS.contains(&method) || m == method))
                .cloned()
                .collect();
        }
        if let Some(name) = location.strip_prefix("components.securitySchemes.") {
            return self
                .keys
                .iter()
                .filter(|key| {
                    self.schemes[*key]
                        .iter()
                        .any(|s| name == s || name.starts_with(&format!("{s}.")))
                })
                .cloned()
                .collect();
        }
        if location == "security" || location.starts_with("security.") {
            return self.document_security.iter().cloned().collect();
        }
        if location.starts_with("components.") {
            return self
                .keys
                .iter()
                .filter(|key| {
                    self.reaches[*key]
                        .iter()
                        .any(|component| location == component || location.starts_with(&format!("{component}.")))
                })
                .cloned()
                .collect();
        }
        Vec::new()
    }
}

/// Every component `value` reaches through local references, directly or
/// through other components, as `components.<kind>.<name>`.
fn references(document: &Value, value: &Value, reached: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            if let Some(target) = map.get("$ref").and_then(Value::as_str)
                && let Some(pointer) = target.strip_prefix('#')
                && let Some(["components", kind, name, ..]) = Some(
                    pointer
                        .trim_start_matches('/')
                        .split('/')
                        .collect::<Vec<_>>()
                        .as_slice(),
                )
            {
                let name = name.replace("~1", "/").replace("~0", "~");
                let component = format!("components.{kind}.{name}");
                if reached.insert(component)
                    && let Some(inner) = document
                        .get("components")
                        .and_then(|c| c.get(*kind))
                        .and_then(|k| k.get(&name))
                {
                    references(document, inner, reached);
                }
            }
            for inner in map.values() {
                references(document, inner, reached);
            }
        }
        Value::Array(items) => {
            for inner in items {
                references(document, inner, reached);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::codegen::document::SpecError;

    fn document() -> Value {
        json!({
            "security": [{"key": []}],
            "paths": {
                "/a/{id}.{format}": {
                    "get": {"responses": {}},
                    "put": {"security": [], "requestBody": {"$ref": "#/components/requestBodies/Pet"}, "responses": {}}
                },
                "/b": {"post": {"security": [{"oauth": []}], "responses": {}}}
            },
            "components": {
                "requestBodies": {"Pet": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}},
                "schemas": {"Pet": {"properties": {"tag": {"$ref": "#/components/schemas/Tag"}}}, "Tag": {}}
            }
        })
    }

    fn blamed(location: &str) -> Vec<String> {
        let errors = SpecErrors(vec![SpecError::new(location, "no")]);
        blame(&document(), &errors)
            .unwrap_or_default()
            .into_iter()
            .map(|entry| entry.operation)
            .collect()
    }

    #[test]
    fn a_problem_belongs_to_the_operations_that_reach_it() {
        assert_eq!(
            blamed("paths./a/{id}.{format}.put.responses.200"),
            ["PUT /a/{id}.{format}"]
        );
        assert_eq!(
            blamed("paths./a/{id}.{format}"),
            ["GET /a/{id}.{format}", "PUT /a/{id}.{format}"]
        );
        assert_eq!(
            blamed("paths./a/{id}.{format}.parameters.0"),
            ["GET /a/{id}.{format}", "PUT /a/{id}.{format}"]
        );
        // Through a request body and a schema to the schema it references.
        assert_eq!(blamed("components.schemas.Tag.type"), ["PUT /a/{id}.{format}"]);
        assert_eq!(blamed("components.securitySchemes.oauth.scheme"), ["POST /b"]);
        assert_eq!(blamed("security.0"), ["GET /a/{id}.{format}"]);
    }

    #[test]
    fn a_problem_of_no_operation_refuses_the_document() {
        assert!(blamed("servers.0.url").is_empty());
        assert!(blame(&document(), &SpecErrors(vec![SpecError::new("document", "x")])).is_none());
    }
}
