//! Path, query and header parameters: their model, read from the spec
//! (their Rust is written in `parameter_code.rs`).

use proc_macro2::TokenStream;
use quote::quote;

use super::context::{Context, rust_field};
use super::schemas::canonical;
use crate::codegen::document::parameter_shapes::{
    ParameterShape, list_delimiter, parameter_schema, parameter_schema_location, parameter_shape,
};
use crate::codegen::document::{OperationRef, SpecError};
use crate::codegen::namespace::Namespace;

pub(super) struct Parameter {
    pub(super) name: String,
    /// The key its value is read under (its name, unless another
    /// parameter of the operation has that name in another place).
    pub(super) key: String,
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

/// How a parameter's text is read: `runtime::Scalar::*` of a JSON type,
/// or of none.
pub(super) fn scalar(ty: Option<&str>) -> TokenStream {
    match ty {
        Some("integer") => quote!(runtime::Scalar::Integer),
        Some("number") => quote!(runtime::Scalar::Number),
        Some("boolean") => quote!(runtime::Scalar::Boolean),
        Some(_) => quote!(runtime::Scalar::String),
        None => quote!(runtime::Scalar::Any),
    }
}

/// The names of the handler's own arguments, beside the path's.
const HANDLER_ARGUMENTS: [&str; 6] = ["self", "caller", "params", "body", "upgrade", "handshake"];

pub(super) fn describe_parameters(cx: &mut Context<'_>, op: &OperationRef<'_>) -> Result<Vec<Parameter>, SpecError> {
    let mut out = Vec::new();
    // A name may be a query's and a header's at once (`nextToken`), and
    // names differ in ways fields cannot (`MaxResults`, `maxResults`):
    // each field, and the key it is read under, is unique. The path's
    // fields are the handler's arguments too.
    let mut fields = Namespace::reserving(HANDLER_ARGUMENTS);
    let mut keys = std::collections::BTreeSet::new();
    for (parameter, location) in cx.spec.parameters(op)? {
        let name = parameter["name"].as_str().unwrap_or_default().to_string();
        let place = parameter["in"].as_str().unwrap_or_default();
        // A parameter's text cannot be null: `nullable` (which dropshot
        // writes for every optional one) means no more than leaving it
        // out, so the value is typed and checked without it (and
        // documented with it, as the spec writes it).
        let written = parameter_schema(&parameter).cloned().unwrap_or_default();
        let mut schema = written.clone();
        // A JSON value may be null where the schema says so; a text never is.
        let shape = parameter_shape(cx.spec, &parameter).map_err(|why| SpecError::new(&location, why))?;
        if let Some(map) = schema.as_object_mut()
            && !matches!(shape, ParameterShape::Json { .. })
        {
            map.remove("nullable");
        }
        let schema = &schema;
        let value = match &shape {
            ParameterShape::Scalar(ty) => {
                let scalar = scalar(*ty);
                quote!(runtime::ValueKind::Scalar(#scalar))
            }
            ParameterShape::List(item) => {
                let item = scalar(*item);
                match list_delimiter(&parameter) {
                    Some(delimiter) => quote!(runtime::ValueKind::Delimited(#item, #delimiter)),
                    None => quote!(runtime::ValueKind::Array(#item)),
                }
            }
            ParameterShape::Object(properties) => {
                let properties = properties.iter().map(|(name, ty)| {
                    let scalar = scalar(Some(ty));
                    quote!((#name, #scalar),)
                });
                let deep = parameter["style"] == "deepObject";
                quote!(runtime::ValueKind::Object { properties: &[#(#properties)*], deep: #deep })
            }
            ParameterShape::FreeObject => quote!(runtime::ValueKind::Object {
                properties: &[],
                deep: true
            }),
            ParameterShape::Json { .. } => quote!(runtime::ValueKind::Json),
            ParameterShape::Deep => quote!(runtime::ValueKind::Deep),
        };
        let (location_ident, default_explode) = match place {
            "path" => ("Path", false),
            // `explode` is true by default for the `form` style only.
            "query" => ("Query", list_delimiter(&parameter).is_none()),
            "cookie" => ("Cookie", true),
            _ => ("Header", false),
        };
        let schema_at = parameter_schema_location(&parameter, &location);
        let rust_ty = cx
            .types
            .add(schema, &format!("{}-{name}", op.operation_id()), &schema_at)?;
        let static_name = format!("{}_param_{name}", op.operation_id());
        let schema_ident = cx
            .schemas
            .add_documented(&mut cx.names, &static_name, &written, schema, &schema_at)?;
        out.push(Parameter {
            required: parameter["required"].as_bool().unwrap_or(false) || place == "path",
            location: location_ident,
            value,
            explode: parameter["explode"].as_bool().unwrap_or(default_explode),
            default: schema.get("default").map(canonical),
            description: parameter["description"].as_str().map(str::to_string),
            schema: schema_ident,
            field: fields.claim(&rust_field(&name).to_string()),
            // Path parameters are read into a struct of their own.
            key: match keys.insert((place == "path", name.clone())) {
                true => name.clone(),
                false => format!("{name} ({place})"),
            },
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
