//! Responses: one success body for every 2xx, one Error schema for every
//! error, one media type each, scalar headers.

use serde_json::Value;

use super::{is_scalar, schema_type};
use crate::codegen::schema;
use crate::codegen::spec::{OperationRef, Spec, SpecError, is_error_key, json_content_schema};

/// progenitor makes one error type per operation and rejects `default`;
/// every error response therefore carries one shared JSON schema. It also
/// makes one success type, so the success statuses share one body.
pub(super) fn check_responses(spec: &Spec, op: &OperationRef<'_>) -> Result<(), SpecError> {
    let at = |key: &str| format!("{}.responses.{key}", op.location());
    if op.operation.responses.default.is_some() {
        return Err(SpecError::new(
            at("default"),
            "a `default` response is not supported (progenitor rejects it): list each status, or a range such as `5XX`",
        ));
    }
    let mut error_schema: Option<(String, &Value)> = None;
    let mut success: Option<(String, Option<Value>)> = None;
    let responses = spec.responses(op)?;
    for (key, response, location) in &responses {
        match key.as_str() {
            "5XX" => {}
            range if range.ends_with("XX") => {
                return Err(SpecError::new(
                    at(key),
                    "only the `5XX` range is supported; list 2xx and 4xx statuses one by one",
                ));
            }
            code => {
                let code: u16 = code.parse().unwrap_or(0);
                if !(200..600).contains(&code) {
                    return Err(SpecError::new(at(key), "status must be between 200 and 599"));
                }
                if (300..400).contains(&code) {
                    return Err(SpecError::new(at(key), "redirects (3xx) are not supported"));
                }
            }
        }
        check_response_content(spec, response, location)?;
        if !is_error_key(key) {
            let body = response.get("content").cloned();
            match &success {
                None => success = Some((key.clone(), body)),
                Some((first, first_body)) if *first_body != body => {
                    return Err(SpecError::new(
                        at(key),
                        format!(
                            "every success status must carry the same body (progenitor gives an operation one success type), but this one differs from responses.{first}"
                        ),
                    ));
                }
                Some(_) => {}
            }
            if matches!(key.as_str(), "204" | "205") && response.get("content").is_some() {
                return Err(SpecError::new(at(key), format!("a {key} response has no body")));
            }
            continue;
        }
        let Some(schema) = json_content_schema(response) else {
            return Err(SpecError::new(
                at(key),
                "an error response must carry an application/json body (the Error object)",
            ));
        };
        match &error_schema {
            None => error_schema = Some((key.clone(), schema)),
            Some((first, first_schema)) if *first_schema != schema => {
                return Err(SpecError::new(
                    at(key),
                    format!(
                        "error responses must share one schema (progenitor makes one error type per operation), but this one differs from responses.{first}"
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    if success.is_none() {
        return Err(SpecError::new(
            format!("{}.responses", op.location()),
            "no success (2xx) response",
        ));
    }
    Ok(())
}

/// One media type per response; a body that is not JSON is text or bytes,
/// whose schema is a string; documented headers are scalars.
fn check_response_content(spec: &Spec, response: &Value, location: &str) -> Result<(), SpecError> {
    if let Some(content) = response.get("content").and_then(Value::as_object) {
        if content.len() > 1 {
            return Err(SpecError::new(
                format!("{location}.content"),
                "one media type per response is supported (the server sends one)",
            ));
        }
        for (media_type, media) in content {
            let at = format!("{location}.content.{media_type}");
            let schema = media
                .get("schema")
                .ok_or_else(|| SpecError::new(&at, "a response body needs a schema"))?;
            schema::check(schema, &format!("{at}.schema"), spec.component_schemas())?;
            let is_json = media_type == "application/json" || media_type.ends_with("+json");
            if !is_json && schema_type(spec, schema) != Some("string") {
                return Err(SpecError::new(
                    format!("{at}.schema"),
                    "a body that is not JSON is sent as text or bytes: its schema must be a string",
                ));
            }
            if media_type.contains(['*', ';']) || !media_type.contains('/') {
                return Err(SpecError::new(
                    &at,
                    "a response's media type must be one exact type (the server sends it as Content-Type)",
                ));
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
        if !is_scalar(schema_type(spec, schema)) {
            return Err(SpecError::new(
                format!("{header_at}.schema"),
                "a response header must be a string, integer, number or boolean",
            ));
        }
    }
    Ok(())
}
