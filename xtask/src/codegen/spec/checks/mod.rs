//! What the generators can map, checked on the whole document before
//! either runs: each refusal names the place in the spec and the reason
//! (often a limit of progenitor or dropshot, which would otherwise panic or
//! emit code that does not compile). One file per part of an operation:
//! [`parameters`], [`bodies`], [`responses`], [`security`].

mod bodies;
mod parameters;
mod responses;
mod security;

use std::collections::HashMap;

use serde_json::Value;

use super::router::check_router;
use super::{Spec, SpecError, base_path};
use crate::codegen::schema;

pub(super) fn check(spec: &Spec) -> Result<(), SpecError> {
    check_servers(spec)?;
    for (path, item) in &spec.api.paths.paths {
        if item.as_item().is_none() {
            return Err(SpecError::new(
                format!("paths.{path}"),
                "a $ref path item is not supported",
            ));
        }
    }
    check_operation_ids(spec)?;
    check_router(&spec.api)?;
    for (name, component) in spec.component_schemas() {
        schema::check(
            component,
            &format!("components.schemas.{name}"),
            spec.component_schemas(),
        )?;
    }
    for op in spec.operations() {
        parameters::check_parameters(spec, &op)?;
        bodies::check_request_body(spec, &op)?;
        responses::check_responses(spec, &op)?;
        security::check_security(spec, &op)?;
    }
    Ok(())
}

/// The spec's servers must agree on one base path: the server mounts the
/// API there.
fn check_servers(spec: &Spec) -> Result<(), SpecError> {
    let servers = &spec.api.servers;
    if servers.is_empty() {
        return Err(SpecError::new(
            "servers",
            "at least one server is required: it gives the base path",
        ));
    }
    let first = base_path(&servers[0].url);
    for (i, server) in servers.iter().enumerate() {
        if !server.url.starts_with("https://") && !server.url.starts_with("http://") {
            return Err(SpecError::new(
                format!("servers.{i}.url"),
                "must be an absolute http(s) URL",
            ));
        }
        if base_path(&server.url) != first {
            return Err(SpecError::new(
                format!("servers.{i}.url"),
                format!(
                    "base path `{}` differs from `{first}` of servers.0",
                    base_path(&server.url)
                ),
            ));
        }
    }
    Ok(())
}

fn check_operation_ids(spec: &Spec) -> Result<(), SpecError> {
    let mut seen: HashMap<&str, String> = HashMap::new();
    for op in spec.operations() {
        let Some(id) = op.operation.operation_id.as_deref() else {
            return Err(SpecError::new(
                op.location(),
                "missing operationId: the generators name code after it",
            ));
        };
        let valid = id.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(SpecError::new(
                format!("{}.operationId", op.location()),
                format!("`{id}` must start with a letter and hold only letters, digits and `_`"),
            ));
        }
        if let Some(first) = seen.insert(id, op.location()) {
            return Err(SpecError::new(
                format!("{}.operationId", op.location()),
                format!("duplicate operationId `{id}`, first used at {first}"),
            ));
        }
    }
    Ok(())
}

/// The JSON type of a schema, following a reference to a component.
pub fn schema_type<'a>(spec: &'a Spec, schema: &'a Value) -> Option<&'a str> {
    let schema = match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => spec
            .component_schemas()
            .get(reference.strip_prefix(schema::COMPONENTS_PREFIX)?)?,
        None => schema,
    };
    if let Some(ty) = schema.get("type").and_then(Value::as_str) {
        return Some(ty);
    }
    // `allOf: [one]` (how a described reference is written) has its type.
    match schema.get("allOf").and_then(Value::as_array).map(Vec::as_slice) {
        Some([one]) => schema_type(spec, one),
        _ => None,
    }
}

pub(super) fn is_scalar(ty: Option<&str>) -> bool {
    matches!(ty, Some("string" | "integer" | "number" | "boolean"))
}

/// Header names OpenAPI says a parameter (or an API key) may not take.
pub(super) const IGNORED_HEADERS: [&str; 3] = ["accept", "content-type", "authorization"];
