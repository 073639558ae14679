//! Path, query and header parameters: their model, read from the spec
//! (their Rust is written in `parameter_code.rs`).

use proc_macro2::TokenStream;
use quote::quote;

use super::context::{Context, rust_field};
use super::schemas::canonical;
use crate::codegen::spec::forms::{all_scalar_properties, is_free_form_object};
use crate::codegen::spec::{OperationRef, SpecError, schema_type};

pub(super) struct Parameter {
    pub(super) name: String,
    /// `Path`, `Query` or `Header`.
    pub(super) location: &'static str,
    pub(super) required: bool,
    /// `runtime::ValueKind::...`
    pub(super) value: TokenStream,
    pub(super) explode: bool,
    pub(super) default: Option<String>,
    pub(super) description: Option<String>,
    pub(super) schema: syn::Ident,
    pub(super) field: syn::Ident,
    /// The value's Rust type (without the `Option` of an optional one).
    pub(super) ty: TokenStream,
}

impl Parameter {
    /// Whether the handler always gets a value: required, or defaulted.
    pub(super) fn always_present(&self) -> bool {
        self.required || self.default.is_some()
    }

    pub(super) fn field_ty(&self) -> TokenStream {
        let ty = &self.ty;
        match self.always_present() {
            true => quote!(#ty),
            false => quote!(::std::option::Option<#ty>),
        }
    }

    pub(super) fn in_path(&self) -> bool {
        self.location == "Path"
    }
}

/// How a parameter's text is read: `runtime::Scalar::*` of a JSON type.
pub(super) fn scalar(ty: Option<&str>) -> TokenStream {
    match ty {
        Some("integer") => quote!(runtime::Scalar::Integer),
        Some("number") => quote!(runtime::Scalar::Number),
        Some("boolean") => quote!(runtime::Scalar::Boolean),
        _ => quote!(runtime::Scalar::String),
    }
}

pub(super) fn describe_parameters(cx: &mut Context<'_>, op: &OperationRef<'_>) -> Result<Vec<Parameter>, SpecError> {
    let mut out = Vec::new();
    for (parameter, location) in cx.spec.parameters(op)? {
        let name = parameter["name"].as_str().unwrap_or_default().to_string();
        let place = parameter["in"].as_str().unwrap_or_default();
        // A parameter's text cannot be null: `nullable` (which dropshot
        // writes for every optional one) means no more than leaving it
        // out, so the value is typed and checked without it (and
        // documented with it, as the spec writes it).
        let mut schema = parameter["schema"].clone();
        if let Some(map) = schema.as_object_mut() {
            map.remove("nullable");
        }
        let schema = &schema;
        let ty = schema_type(cx.spec, schema);
        let is_array = ty == Some("array");
        let value = match (
            is_array,
            all_scalar_properties(cx.spec, schema).filter(|_| ty == Some("object")),
        ) {
            (true, _) => {
                let item = scalar(schema_type(cx.spec, &schema["items"]));
                quote!(runtime::ValueKind::Array(#item))
            }
            (false, Some(properties)) => {
                let properties = properties.iter().map(|(name, ty)| {
                    let scalar = scalar(Some(ty));
                    quote!((#name, #scalar),)
                });
                let deep = parameter["style"] == "deepObject";
                quote!(runtime::ValueKind::Object { properties: &[#(#properties)*], deep: #deep })
            }
            (false, None) if parameter["style"] == "deepObject" && is_free_form_object(cx.spec, schema) => {
                quote!(runtime::ValueKind::Object {
                    properties: &[],
                    deep: true
                })
            }
            (false, None) => {
                let scalar = scalar(ty);
                quote!(runtime::ValueKind::Scalar(#scalar))
            }
        };
        let (location_ident, default_explode) = match place {
            "path" => ("Path", false),
            "query" => ("Query", true),
            "cookie" => ("Cookie", true),
            _ => ("Header", false),
        };
        let rust_ty = cx.types.add(
            schema,
            &format!("{}-{name}", op.operation_id()),
            &format!("{location}.schema"),
        )?;
        let static_name = format!("{}_param_{name}", op.operation_id());
        let schema_ident = cx.schemas.add_documented(
            &static_name,
            &parameter["schema"],
            schema,
            &format!("{location}.schema"),
        )?;
        out.push(Parameter {
            required: parameter["required"].as_bool().unwrap_or(false) || place == "path",
            location: location_ident,
            value,
            explode: parameter["explode"].as_bool().unwrap_or(default_explode),
            default: schema.get("default").map(canonical),
            description: parameter["description"].as_str().map(str::to_string),
            schema: schema_ident,
            field: rust_field(&name),
            ty: rust_ty,
            name,
        });
    }
    Ok(out)
}

pub(super) fn option_str(value: Option<&str>) -> TokenStream {
    match value {
        Some(v) => quote!(::std::option::Option::Some(#v)),
        None => quote!(::std::option::Option::None),
    }
}
