//! Loading and checking the OpenAPI document.
//!
//! progenitor, typify and dropshot panic, or fail with messages that do not
//! say where, on several kinds of bad input. Everything the generators rely
//! on is checked here first ([`checks`], [`router`]), and every failure
//! names its location in the spec (`paths./store/orders.get.responses.404`),
//! so an API designer can go straight to the line to fix.
//!
//! openapiv3's reading gives the document's structure and order; schemas,
//! parameters and bodies are read from the document as JSON, as written.

mod checks;
pub(crate) mod errors;
pub mod forms;
pub mod keywords;
pub mod leave_out;
pub mod media;
mod model;
pub mod multipart;
mod names;
pub mod openapi31;
pub mod operation_schemas;
pub mod parameter_shapes;
pub mod per_operation;
mod pointers;
mod router;
mod servers;
pub mod tolerate;
pub mod webhooks;

use openapiv3::{OpenAPI, Operation, ReferenceOr};
use serde_json::Value;

pub use checks::served_body;
pub(crate) use checks::{BODY_MEDIA_TYPES, is_readable_body_type};
pub use errors::{Refusals, SpecError, SpecErrors};
pub use media::is_xml;
pub(crate) use model::IGNORED_HEADERS;
pub use model::{
    BodyShape, DOCUMENT_PATH, DOCUMENT_PATH_BESIDE_THE_SPECS, METHODS, OperationRef, Spec, body_shape, document_path,
    is_error_key, is_error_object, json_content_schema, operation_slots, required_names, schema_type, security_of,
    status_key,
};
pub use pointers::pointer_of;
pub use router::path_variables;
pub use servers::{base_path, mount_path, server_url};

/// Parses and checks a spec given as YAML (or JSON, which is YAML); a 3.1
/// document is read as its 3.0 rendering.
pub fn parse(text: &str) -> Result<Spec, SpecErrors> {
    if let Some(rendered) = openapi31::render(text)? {
        return parse(&rendered.text);
    }
    let mut raw: serde_norway::Value = serde_norway::from_str(text).map_err(|e| {
        let location = e
            .location()
            .map(|l| format!("line {}, column {}", l.line(), l.column()))
            .unwrap_or_else(|| "document".to_string());
        SpecError::new(location, format!("invalid YAML: {e}"))
    })?;
    let mut json = serde_json::to_value(&raw).map_err(|e| SpecError::new("document", format!("not JSON: {e}")))?;
    check_version(&json)?;
    let derived_names = names::name_operations(&mut json);
    // openapiv3 reads the YAML value, which keeps the document's order
    // (serde_json's maps are sorted); it gets the same names.
    for name in &derived_names {
        names::set_operation_id(&mut raw, name);
    }
    let api: OpenAPI = deserialize_at(&raw, "").map_err(|e| locate_structural_error(&raw).unwrap_or(e))?;
    let spec = Spec {
        api,
        json,
        derived_names,
        degraded: Default::default(),
        degraded_inline: Default::default(),
    };
    checks::check(&spec)?;
    Ok(spec)
}

/// Deserializes `value`, naming the failing field relative to `prefix`.
fn deserialize_at<T: serde::de::DeserializeOwned>(value: &serde_norway::Value, prefix: &str) -> Result<T, SpecError> {
    serde_path_to_error::deserialize(value.clone()).map_err(|e| {
        let inner = e.path().to_string();
        let location = match (prefix, inner.as_str()) {
            ("", ".") => "document".to_string(),
            ("", p) => p.to_string(),
            (prefix, ".") => prefix.to_string(),
            (prefix, p) => format!("{prefix}.{p}"),
        };
        SpecError::new(location, format!("not a valid OpenAPI 3.0 document: {}", e.inner()))
    })
}

/// openapiv3 reads path items, operations and schemas through untagged
/// enums, which lose the error's position; this retries the parts one by
/// one to find which operation or schema is wrong.
fn locate_structural_error(raw: &serde_norway::Value) -> Option<SpecError> {
    if let Some(paths) = raw.get("paths").and_then(|p| p.as_mapping()) {
        for (path, item) in paths {
            let path = path.as_str()?;
            for method in METHODS {
                if let Some(op) = item.get(method)
                    && let Err(e) = deserialize_at::<Operation>(op, &format!("paths.{path}.{method}"))
                {
                    return Some(e);
                }
            }
            if let Err(e) = deserialize_at::<openapiv3::PathItem>(item, &format!("paths.{path}")) {
                return Some(e);
            }
        }
    }
    let schemas = raw
        .get("components")
        .and_then(|c| c.get("schemas"))
        .and_then(|s| s.as_mapping());
    for (name, schema) in schemas.into_iter().flatten() {
        let at = format!("components.schemas.{}", name.as_str()?);
        if let Err(e) = deserialize_at::<ReferenceOr<openapiv3::Schema>>(schema, &at) {
            return Some(e);
        }
    }
    None
}

/// progenitor and openapiv3 read OpenAPI 3.0 only, and a 3.1 document
/// reaches them as its 3.0 rendering ([`openapi31`]); anything else often
/// parses into nonsense instead of failing, so this is checked on the raw
/// value first.
fn check_version(json: &Value) -> Result<(), SpecError> {
    match json.get("openapi").and_then(Value::as_str) {
        Some(v) if v.starts_with("3.0.") => Ok(()),
        Some(v) => Err(SpecError::new(
            "openapi",
            format!("version {v} is not supported: OpenAPI 3.0.x and 3.1.x documents are read"),
        )),
        None => Err(SpecError::new(
            "openapi",
            "missing: the document must declare `openapi: 3.0.x` or `3.1.x`",
        )),
    }
}
