//! An operation's own schemas, by location: its parameters', its body's
//! and its responses' (and their headers'), where a failure of typify's
//! or progenitor's within the operation may lie.

use super::model::{OperationRef, Spec};
use super::parameter_shapes::{parameter_schema, parameter_schema_location};

/// The locations of an operation's own schemas, in that order.
pub fn inline_schemas(spec: &Spec, op: &OperationRef<'_>) -> Vec<String> {
    let mut out = Vec::new();
    for (parameter, location) in spec.parameters(op).unwrap_or_default() {
        if parameter_schema(&parameter).is_some() {
            out.push(parameter_schema_location(&parameter, &location));
        }
    }
    let contents = |value: &serde_json::Value, location: &str, out: &mut Vec<String>| {
        for (media_type, media) in value["content"].as_object().into_iter().flatten() {
            if media.get("schema").is_some() {
                out.push(format!("{location}.content.{media_type}.schema"));
            }
        }
    };
    if let Ok(Some((body, location))) = spec.request_body(op) {
        contents(&body, &location, &mut out);
    }
    for (_, response, location) in spec.responses(op).unwrap_or_default() {
        contents(&response, &location, &mut out);
        for (name, header) in response["headers"].as_object().into_iter().flatten() {
            let Ok((header, at)) = spec.follow(header, "headers", format!("{location}.headers.{name}")) else {
                continue;
            };
            if header.get("schema").is_some() {
                out.push(format!("{at}.schema"));
            }
        }
    }
    out
}
