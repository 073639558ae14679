//! Request bodies: one media type, of those progenitor's client can send
//! (by essence: parameters such as `charset` are allowed).

use serde_json::Value;

use super::{is_scalar, schema_type};
use crate::codegen::schema;
use crate::codegen::spec::media::essence;
use crate::codegen::spec::{OperationRef, Spec, SpecError};

/// The media types a request body may have: what progenitor's client can
/// send, each read by the generated layer.
pub(crate) const BODY_MEDIA_TYPES: [&str; 4] = [
    "application/json",
    "application/x-www-form-urlencoded",
    "application/octet-stream",
    "text/plain",
];

pub(super) fn check_request_body(spec: &Spec, op: &OperationRef<'_>) -> Result<(), SpecError> {
    let Some((body, location)) = spec.request_body(op)? else {
        return Ok(());
    };
    let content = body.get("content").and_then(Value::as_object);
    let (media_type, media) = match content.map(|c| c.iter().collect::<Vec<_>>()).as_deref() {
        Some([one]) => *one,
        Some([]) | None => {
            return Err(SpecError::new(
                format!("{location}.content"),
                "a request body needs a content",
            ));
        }
        Some(_) => {
            return Err(SpecError::new(
                format!("{location}.content"),
                "one media type per request body is supported (progenitor's client sends one)",
            ));
        }
    };
    let at = format!("{location}.content.{media_type}");
    // Parameters (`; charset=utf-8`) say how the same body is encoded.
    let essence = essence(media_type);
    if !BODY_MEDIA_TYPES.contains(&essence.as_str()) {
        return Err(SpecError::new(
            &at,
            format!(
                "`{media_type}` is not supported for a request body; supported: {}",
                BODY_MEDIA_TYPES.join(", ")
            ),
        ));
    }
    if media.get("encoding").is_some() {
        return Err(SpecError::new(format!("{at}.encoding"), "`encoding` is not supported"));
    }
    let schema = media
        .get("schema")
        .ok_or_else(|| SpecError::new(&at, "a request body needs a schema"))?;
    schema::check(schema, &format!("{at}.schema"), spec.component_schemas())?;
    let plain_string = |format: Option<&str>| {
        let map = schema.as_object();
        map.is_some_and(|m| {
            m.get("type").and_then(Value::as_str) == Some("string")
                && m.get("format").and_then(Value::as_str) == format
                && m.keys()
                    .all(|k| ["type", "format", "description", "title", "example"].contains(&k.as_str()))
        })
    };
    match essence.as_str() {
        "application/octet-stream" if !plain_string(Some("binary")) => Err(SpecError::new(
            format!("{at}.schema"),
            "an application/octet-stream body's schema must be `{type: string, format: binary}` (progenitor's client sends bytes)",
        )),
        "text/plain" if !plain_string(None) => Err(SpecError::new(
            format!("{at}.schema"),
            "a text/plain body's schema must be `{type: string}` without constraints (progenitor's client sends text as it is)",
        )),
        "application/x-www-form-urlencoded" => check_form(spec, schema, &format!("{at}.schema")),
        _ => Ok(()),
    }
}

/// A form body is an object whose properties are scalars: what
/// `name=value` pairs carry, and what progenitor's client can write
/// (serde_urlencoded has no lists).
fn check_form(spec: &Spec, schema: &Value, location: &str) -> Result<(), SpecError> {
    let object = match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => reference
            .strip_prefix(schema::COMPONENTS_PREFIX)
            .and_then(|name| spec.component_schemas().get(name))
            .unwrap_or(schema),
        None => schema,
    };
    if object.get("type").and_then(Value::as_str) != Some("object") || object.get("properties").is_none() {
        return Err(SpecError::new(
            location,
            "a form body's schema must be an object with properties",
        ));
    }
    for (name, property) in object["properties"].as_object().into_iter().flatten() {
        if !is_scalar(schema_type(spec, property)) {
            return Err(SpecError::new(
                format!("{location}.properties.{name}"),
                "a form field must be a string, integer, number or boolean (progenitor's client writes forms \
                 with serde_urlencoded, which has no lists or objects)",
            ));
        }
    }
    Ok(())
}
