//! The spec's schemas as Rust types (typify, as the client gets them, plus
//! `schemars::JsonSchema` for dropshot), and the Error schema every error
//! response shares.

use heck::ToPascalCase;
use openapiv3::{OpenAPI, ReferenceOr};
use proc_macro2::TokenStream;
use progenitor_impl::{GenerationSettings, Generator};
use quote::format_ident;

use crate::codegen::spec::{self, SpecError};

/// The same typify types the client gets, plus `schemars::JsonSchema`, which
/// dropshot needs to describe them.
pub(super) fn generate_types(spec: &OpenAPI) -> Result<TokenStream, SpecError> {
    let mut settings = GenerationSettings::new();
    settings.with_derive("::schemars::JsonSchema");
    let mut generator = Generator::new(&settings);
    generator.generate_tokens(spec).map_err(|e| SpecError {
        location: "components.schemas".into(),
        message: format!("typify: {e}"),
    })?;
    Ok(generator.get_type_space().to_stream())
}

/// The one schema every error response shares (checked by spec.rs); the
/// generated layer fills its `code`, `message` and `status`.
pub(super) fn error_type(spec: &OpenAPI) -> Result<syn::Ident, SpecError> {
    let first_error = spec::operations(spec).into_iter().find_map(|op| {
        op.operation
            .responses
            .responses
            .iter()
            .find(|(status, _)| spec::is_error_status(status))
            .and_then(|(_, r)| spec::resolve_response(spec, r))
            .and_then(spec::json_schema)
            .cloned()
    });
    let Some(schema) = first_error else {
        return Err(SpecError {
            location: "paths".into(),
            message: "no operation documents an error response: the server needs the Error schema".into(),
        });
    };
    let ReferenceOr::Reference { reference } = schema else {
        return Err(SpecError {
            location: "paths".into(),
            message: "the error responses' schema must be a $ref to components.schemas".into(),
        });
    };
    let name = reference.trim_start_matches("#/components/schemas/");
    let location = format!("components.schemas.{name}");
    let object = spec
        .components
        .as_ref()
        .and_then(|c| c.schemas.get(name))
        .and_then(|s| s.as_item())
        .ok_or_else(|| SpecError {
            location: location.clone(),
            message: "not found".into(),
        })?;
    let openapiv3::SchemaKind::Type(openapiv3::Type::Object(object)) = &object.schema_kind else {
        return Err(SpecError {
            location,
            message: "the error schema must be an object".into(),
        });
    };
    for (field, want) in [("code", "string"), ("message", "string"), ("status", "integer")] {
        let ty = object
            .properties
            .get(field)
            .and_then(|p| p.as_item())
            .map(|p| serde_json::to_value(p).ok().and_then(|v| v.get("type").cloned()));
        if ty != Some(Some(serde_json::Value::from(want))) || !object.required.iter().any(|r| r == field) {
            return Err(SpecError {
                location: format!("{location}.properties.{field}"),
                message: format!("the error schema needs a required `{field}` of type {want}"),
            });
        }
    }
    Ok(format_ident!("{}", name.to_pascal_case()))
}
