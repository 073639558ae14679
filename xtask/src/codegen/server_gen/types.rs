//! The spec's schemas as Rust types: typify, fed each schema once (the
//! components by name, every inline schema of a parameter, body, response
//! or header under a name of the operation's), and the Error schema every
//! error response shares.

use heck::ToPascalCase;
use proc_macro2::TokenStream;
use quote::format_ident;
use serde_json::Value;
use typify::{TypeSpace, TypeSpaceSettings};

use crate::codegen::schema::{self, COMPONENTS_PREFIX};
use crate::codegen::spec::{Spec, SpecError, is_error_key, json_content_schema};

/// The Rust types of one spec, as typify reads them.
pub(super) struct Types {
    space: TypeSpace,
}

impl Types {
    /// A type space holding the spec's components.
    pub(super) fn new(spec: &Spec) -> Result<Self, SpecError> {
        let mut settings = TypeSpaceSettings::default();
        settings
            .with_type_mod("types")
            .with_struct_builder(false)
            // Maps serialize in key order, so the same value gives the same
            // bytes.
            .with_map_type("::std::collections::BTreeMap");
        let mut space = TypeSpace::new(&settings);
        let mut components = Vec::new();
        for (name, component) in spec.component_schemas() {
            components.push((
                name.clone(),
                to_schemars(component, &format!("components.schemas.{name}"))?,
            ));
        }
        space.add_ref_types(components).map_err(|e| SpecError {
            location: "components.schemas".into(),
            message: format!("typify cannot map these schemas: {e}"),
        })?;
        Ok(Types { space })
    }

    /// The Rust type of `schema` (as the spec writes it), named `name`
    /// when it needs a type of its own.
    pub(super) fn add(&mut self, schema: &Value, name: &str, location: &str) -> Result<TokenStream, SpecError> {
        let typify = to_schemars(schema, location)?;
        let error = |e: typify::Error| SpecError {
            location: location.to_string(),
            message: format!("typify cannot map this schema: {e}"),
        };
        let id = self
            .space
            .add_type_with_name(&typify, Some(name.to_pascal_case()))
            .map_err(error)?;
        Ok(self.space.get_type(&id).map_err(error)?.ident())
    }

    /// Every type, as the `types` module's items.
    pub(super) fn tokens(&self) -> TokenStream {
        self.space.to_stream()
    }
}

fn to_schemars(schema: &Value, location: &str) -> Result<schemars::schema::Schema, SpecError> {
    serde_json::from_value(schema::typify_form(schema)).map_err(|e| SpecError {
        location: location.to_string(),
        message: format!("not a schema typify can read: {e}"),
    })
}

/// The one schema every error response shares (checked by the spec's
/// checks); the generated layer fills its `code`, `message` and `status`.
pub(super) fn error_type(spec: &Spec) -> Result<(String, syn::Ident), SpecError> {
    let mut first_error = None;
    for op in spec.operations() {
        for (key, response, _) in spec.responses(&op)? {
            if is_error_key(&key) && first_error.is_none() {
                first_error = json_content_schema(&response).cloned();
            }
        }
    }
    let Some(schema) = first_error else {
        return Err(SpecError::new(
            "paths",
            "no operation documents an error response: the server needs the Error schema",
        ));
    };
    let Some(name) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix(COMPONENTS_PREFIX))
    else {
        return Err(SpecError::new(
            "paths",
            "the error responses' schema must be a $ref to components.schemas",
        ));
    };
    let location = format!("components.schemas.{name}");
    let object = spec
        .component_schemas()
        .get(name)
        .ok_or_else(|| SpecError::new(&location, "not found"))?;
    if object.get("type").and_then(Value::as_str) != Some("object") {
        return Err(SpecError::new(location, "the error schema must be an object"));
    }
    let required = |field: &str| {
        object["required"]
            .as_array()
            .is_some_and(|r| r.iter().any(|v| v == field))
    };
    for (field, want) in [("code", "string"), ("message", "string"), ("status", "integer")] {
        let ty = object
            .pointer(&format!("/properties/{field}/type"))
            .and_then(Value::as_str);
        let nullable = object.pointer(&format!("/properties/{field}/nullable")) == Some(&Value::Bool(true));
        if ty != Some(want) || !required(field) || nullable {
            return Err(SpecError::new(
                format!("{location}.properties.{field}"),
                format!("the error schema needs a required, non-null `{field}` of type {want}"),
            ));
        }
    }
    Ok((name.to_string(), format_ident!("{}", name.to_pascal_case())))
}
