//! Request bodies: JSON and forms typed by typify, raw bytes and text as
//! they are; their row of the operation's table, and how the generated
//! layer reads each.

use proc_macro2::TokenStream;
use quote::quote;
use serde_json::Value;

use super::model::Context;
use super::parameters::{option_str, scalar};
use crate::codegen::schema::COMPONENTS_PREFIX;
use crate::codegen::spec::media::essence;
use crate::codegen::spec::{OperationRef, SpecError, schema_type};

pub(super) struct RequestBody {
    pub(super) media_type: String,
    /// `Json`, `Form`, `Binary` or `Text`.
    pub(super) kind: &'static str,
    pub(super) required: bool,
    pub(super) description: Option<String>,
    pub(super) schema: syn::Ident,
    /// The body's Rust type (without the `Option` of an optional one).
    pub(super) ty: TokenStream,
    /// For a form: each field's name and `runtime::Scalar`.
    pub(super) form_fields: Vec<(String, TokenStream)>,
    pub(super) doc_name: String,
}

impl RequestBody {
    /// The handler's argument type.
    pub(super) fn arg_ty(&self) -> TokenStream {
        let ty = &self.ty;
        match self.required {
            true => quote!(#ty),
            false => quote!(::std::option::Option<#ty>),
        }
    }

    /// The expression that reads the body (`body`, the extractor) as the
    /// handler's argument, or the rejection.
    pub(super) fn read(&self) -> TokenStream {
        let read = match self.kind {
            "Binary" => quote!(body.bytes()),
            "Text" => quote!(body.text()),
            _ => {
                let ty = &self.ty;
                quote!(body.decode::<#ty>())
            }
        };
        match self.required {
            true => quote!(#read.and_then(runtime::required)),
            false => read,
        }
    }

    /// The table's `runtime::Body`.
    pub(super) fn row(&self) -> TokenStream {
        let (media_type, required, schema, doc_name) = (&self.media_type, self.required, &self.schema, &self.doc_name);
        let kind = quote::format_ident!("{}", self.kind);
        let description = option_str(self.description.as_deref());
        let fields = self.form_fields.iter().map(|(name, kind)| quote!((#name, #kind),));
        quote! {
            ::std::option::Option::Some(runtime::Body {
                media_type: #media_type,
                kind: runtime::BodyKind::#kind,
                required: #required,
                description: #description,
                schema: &#schema,
                form_fields: &[#(#fields)*],
                doc_name: #doc_name,
            })
        }
    }
}

pub(super) fn describe_body(cx: &mut Context<'_>, op: &OperationRef<'_>) -> Result<Option<RequestBody>, SpecError> {
    let Some((body, location)) = cx.spec.request_body(op)? else {
        return Ok(None);
    };
    // One media type, checked by the spec's checks.
    let Some((media_type, media)) = body["content"].as_object().and_then(|c| c.iter().next()) else {
        return Ok(None);
    };
    let at = format!("{location}.content.{media_type}.schema");
    let schema = &media["schema"];
    let name = format!("{}-request-body", op.operation_id());
    let (kind, ty) = match essence(media_type).as_str() {
        "application/octet-stream" => ("Binary", quote!(runtime::Bytes)),
        "text/plain" => ("Text", quote!(::std::string::String)),
        "application/x-www-form-urlencoded" => ("Form", cx.types.add(schema, &name, &at)?),
        _ => ("Json", cx.types.add(schema, &name, &at)?),
    };
    let form_fields = match kind {
        "Form" => form_fields(cx, schema),
        _ => Vec::new(),
    };
    let static_name = format!("{}_body", op.operation_id());
    Ok(Some(RequestBody {
        media_type: media_type.clone(),
        kind,
        required: body["required"].as_bool().unwrap_or(false),
        description: body["description"].as_str().map(str::to_string),
        schema: cx.schemas.add(&static_name, schema, &at)?,
        ty,
        form_fields,
        doc_name: heck::ToPascalCase::to_pascal_case(name.as_str()),
    }))
}

/// How each field of a form's object is read (checked by the spec's
/// checks: scalars).
fn form_fields(cx: &Context<'_>, schema: &Value) -> Vec<(String, TokenStream)> {
    let object = match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => reference
            .strip_prefix(COMPONENTS_PREFIX)
            .and_then(|name| cx.spec.component_schemas().get(name))
            .unwrap_or(schema),
        None => schema,
    };
    object["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, property)| (name.clone(), scalar(schema_type(cx.spec, property))))
        .collect()
}
