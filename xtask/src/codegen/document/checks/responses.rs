//! Responses: any body (or none) for each status, in the media types the
//! layer writes, scalar headers.

use serde_json::Value;

use crate::codegen::document::errors::SpecError;
use crate::codegen::document::media::{is_media_type, served_response};
use crate::codegen::document::model::{OperationRef, Spec};
use crate::codegen::document::model::{is_scalar, schema_type};
use crate::codegen::schema;

/// Each status may have its own body, or none; `default` and the
/// `2XX`-`5XX` ranges are arms whose status the handler chooses. An
/// operation without a 2xx answers with what it documents (`default` then
/// stands for the success too).
pub(super) fn check_responses(spec: &Spec, op: &OperationRef<'_>) -> Result<(), SpecError> {
    let at = |key: &str| format!("{}.responses.{key}", op.location());
    let responses = spec.responses(op)?;
    for (key, response, location) in &responses {
        match key.as_str() {
            "default" | "2XX" | "3XX" | "4XX" | "5XX" => {}
            range if range.ends_with("XX") => {
                return Err(SpecError::new(
                    at(key),
                    "an informational range (`1XX`) alone: the HTTP machinery sends those, a handler answers otherwise",
                ));
            }
            code => {
                let code: u16 = code.parse().unwrap_or(0);
                if code == 101 && spec.request_body(op)?.is_some() {
                    return Err(SpecError::new(
                        at(key),
                        "not mapped yet: a WebSocket upgrade (101) with a request body (dropshot reads one or the other)",
                    ));
                }
                if !(200..600).contains(&code) && code != 101 {
                    return Err(SpecError::new(
                        at(key),
                        "not mapped yet: informational statuses other than 101 (the server answers 101 and 200 to 599)",
                    ));
                }
            }
        }
        check_response_content(spec, response, location)?;
    }
    Ok(())
}

/// The media types a response is written in (a range such as `*/*` is
/// bytes of the handler's chosen type; several JSON ones of one schema are
/// one value, negotiated by `Accept`); documented headers are scalars.
fn check_response_content(spec: &Spec, response: &Value, location: &str) -> Result<(), SpecError> {
    if let Some(content) = response.get("content").and_then(Value::as_object) {
        for media_type in content.keys() {
            if !is_media_type(media_type) {
                return Err(SpecError::new(
                    format!("{location}.content.{media_type}"),
                    "not a media type (`type/subtype`, such as `application/json` or `image/*`)",
                ));
            }
        }
        // Only what is written is mapped; lint names the rest.
        let served = served_response(content);
        let written = served
            .iter()
            .flat_map(|s| std::iter::once(s.primary.0).chain(s.alternatives.iter().copied()));
        for media_type in written {
            // Without a schema, any body: JSON as a value, others as bytes.
            if let Some(schema) = content[media_type].get("schema") {
                schema::check(
                    schema,
                    &format!("{location}.content.{media_type}.schema"),
                    spec.component_schemas(),
                )?;
            }
        }
    }
    for (name, header) in response.get("headers").and_then(Value::as_object).into_iter().flatten() {
        let (header, header_at) = spec.follow(header, "headers", format!("{location}.headers.{name}"))?;
        if name.eq_ignore_ascii_case("content-type") {
            return Err(SpecError::new(
                &header_at,
                "OpenAPI ignores a `Content-Type` response header: it is the response's media type",
            ));
        }
        let schema = header
            .get("schema")
            .ok_or_else(|| SpecError::new(&header_at, "a header needs a `schema`"))?;
        schema::check(schema, &format!("{header_at}.schema"), spec.component_schemas())?;
        // A list is its items joined by commas (the `simple` style).
        let ty = schema_type(spec, schema);
        let items = || {
            let items = spec.resolve_schema(schema).get("items")?;
            Some(schema_type(spec, items))
        };
        let list_of_scalars = ty == Some("array") && items().is_some_and(is_scalar);
        if !is_scalar(ty) && !list_of_scalars {
            return Err(SpecError::new(
                format!("{header_at}.schema"),
                "a response header must be a string, integer, number or boolean, or a list of them",
            ));
        }
    }
    Ok(())
}
