//! Request bodies: JSON and forms typed by typify, raw bytes and text as
//! they are; their row of the operation's table, and how the generated
//! layer reads each.

use proc_macro2::TokenStream;
use quote::quote;
use serde_json::Value;

use super::context::Context;
use super::parameters::{option_str, scalar};
use crate::codegen::document::forms::{self, FormKind};
use crate::codegen::document::media::{self, MediaKind, essence};
use crate::codegen::document::multipart::{self, Multipart};
use crate::codegen::document::{OperationRef, SpecError, is_xml, served_body};

pub(super) struct RequestBody {
    pub(super) media_type: String,
    /// `Json`, `Form`, `Xml`, `Binary` or `Text`.
    pub(super) kind: &'static str,
    /// The other media types read into the same value, with their kind.
    pub(super) alternatives: Vec<(String, &'static str)>,
    /// The media types that carry values of their own (another schema),
    /// with their kind and schema: the handler then gets the body as a
    /// `runtime::Payload`, each checked against its own schema.
    pub(super) others: Vec<(String, &'static str, syn::Ident)>,
    pub(super) required: bool,
    pub(super) description: Option<String>,
    pub(super) schema: syn::Ident,
    /// The body's Rust type (without the `Option` of an optional one).
    pub(super) ty: TokenStream,
    /// For a form (and a multipart body's text parts): each field's name
    /// and `runtime::FormField`.
    pub(super) form_fields: Vec<(String, TokenStream)>,
    /// For a multipart body: its `runtime::FileParts`, and the type of its
    /// text fields.
    pub(super) multipart: Option<(TokenStream, TokenStream)>,
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
        let range = media::kind(&self.media_type) == MediaKind::Range;
        let read = match (self.kind, &self.multipart) {
            _ if !self.others.is_empty() || range => quote!(body.payload()),
            ("Binary", _) => quote!(body.bytes()),
            ("Text", _) => quote!(body.text()),
            (_, Some((_, fields))) => quote!(body.multipart::<#fields>().await),
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
        let file_parts = match &self.multipart {
            Some((file_parts, _)) => file_parts.clone(),
            None => quote!(runtime::FileParts::Named(&[])),
        };
        let alternatives = self.alternatives.iter().map(|(media_type, kind)| {
            let kind = quote::format_ident!("{}", kind);
            quote!((#media_type, runtime::BodyKind::#kind),)
        });
        let others = self.others.iter().map(|(media_type, kind, schema)| {
            let kind = quote::format_ident!("{}", kind);
            quote!((#media_type, runtime::BodyKind::#kind, &#schema),)
        });
        quote! {
            ::std::option::Option::Some(runtime::Body {
                media_type: #media_type,
                kind: runtime::BodyKind::#kind,
                alternatives: &[#(#alternatives)*],
                others: &[#(#others)*],
                required: #required,
                description: #description,
                schema: &#schema,
                form_fields: &[#(#fields)*],
                file_parts: #file_parts,
                doc_name: #doc_name,
            })
        }
    }
}

pub(super) fn describe_body(cx: &mut Context<'_>, op: &OperationRef<'_>) -> Result<Option<RequestBody>, SpecError> {
    let Some((body, location)) = cx.spec.request_body(op)? else {
        return Ok(None);
    };
    // The media types the layer reads (checked by the spec's checks).
    let Some(served) = body["content"].as_object().and_then(|c| served_body(cx.spec, c)) else {
        return Ok(None);
    };
    let (media_type, media) = served.primary;
    let at = format!("{location}.content.{media_type}.schema");
    let schema = &media["schema"];
    let name = format!("{}-request-body", op.operation_id());
    let kind = body_kind(media_type);
    let static_name = format!("{}_body", op.operation_id());
    let shape = match kind {
        "Multipart" => Some(multipart::multipart(cx.spec, schema, &at)?),
        _ => None,
    };
    // A multipart body's text fields: their schema (validated, typed and
    // read as a form's), its files aside.
    let fields_schema = match &shape {
        Some(Multipart::Fields { fields, .. }) => Some(fields.clone()),
        _ => None,
    };
    let multipart = match &shape {
        Some(Multipart::Whole) => Some((quote!(runtime::FileParts::All), quote!(runtime::NoFields))),
        Some(Multipart::Fields { files, fields }) => {
            let files = files.iter().map(
                |(name, list, required)| quote!((#name, runtime::FileField { list: #list, required: #required }),),
            );
            let fields_ty = cx.types.add(fields, &format!("{name}-fields"), &at)?;
            Some((quote!(runtime::FileParts::Named(&[#(#files)*])), fields_ty))
        }
        None => None,
    };
    // Media types of values of their own (not multipart, which is
    // answered 415 beside another type, as XML of another schema is).
    let mut others = Vec::new();
    for (i, media_type) in served.unserved.iter().enumerate() {
        let other_kind = body_kind(media_type);
        if other_kind == "Multipart" || is_xml(media_type) || !is_served_apart(cx, &body, media_type) {
            continue;
        }
        let any = Value::Object(Default::default());
        let other_schema = body["content"][*media_type].get("schema").unwrap_or(&any);
        let other_at = format!("{location}.content.{media_type}.schema");
        let ident = cx.schemas.add(
            &mut cx.names,
            &format!("{}_body_{}", op.operation_id(), i + 2),
            other_schema,
            &other_at,
        )?;
        others.push((media_type.to_string(), other_kind, ident));
    }
    // A range's handler gets the type sent with the bytes.
    let range = media::kind(media_type) == MediaKind::Range;
    let ty = match (kind, &multipart) {
        _ if !others.is_empty() || range => quote!(runtime::Payload),
        ("Binary", _) => quote!(runtime::Bytes),
        ("Text", _) => quote!(::std::string::String),
        (_, Some((_, fields_ty))) => quote!(runtime::Multipart<#fields_ty>),
        _ => cx.types.add(schema, &name, &at)?,
    };
    let alternatives: Vec<(String, &'static str)> = served
        .alternatives
        .iter()
        .map(|media_type| (media_type.to_string(), body_kind(media_type)))
        .collect();
    // A form's fields are read by their types, whichever media type is
    // the handler's.
    let form_fields = match (
        &fields_schema,
        std::iter::once(kind)
            .chain(alternatives.iter().map(|(_, k)| *k))
            .any(|k| k == "Form"),
    ) {
        (Some(fields), _) => form_fields(cx, fields, &at)?,
        (None, true) => form_fields(cx, schema, &at)?,
        (None, false) => Vec::new(),
    };
    let schema_ident = match &fields_schema {
        // Documented as the spec writes it; validated without its files.
        Some(fields) => cx
            .schemas
            .add_documented(&mut cx.names, &static_name, schema, fields, &at)?,
        None => cx.schemas.add(&mut cx.names, &static_name, schema, &at)?,
    };
    Ok(Some(RequestBody {
        media_type: media_type.to_string(),
        kind,
        alternatives,
        others,
        required: body["required"].as_bool().unwrap_or(false),
        description: body["description"].as_str().map(str::to_string),
        schema: schema_ident,
        ty,
        form_fields,
        multipart,
        doc_name: heck::ToPascalCase::to_pascal_case(name.as_str()),
    }))
}

/// Whether the layer reads a body of `media_type` (one of `body`'s) on
/// its own: a type it reads, with a schema it can check.
fn is_served_apart(cx: &Context<'_>, body: &Value, media_type: &str) -> bool {
    crate::codegen::document::is_readable_body_type(media_type)
        && body["content"][media_type]
            .get("schema")
            .is_none_or(|schema| crate::codegen::schema::check(schema, "", cx.spec.component_schemas()).is_ok())
}

/// How a body of `media_type` is read (`runtime::BodyKind`).
fn body_kind(media_type: &str) -> &'static str {
    if is_xml(media_type) {
        return "Xml";
    }
    match essence(media_type).as_str() {
        "application/x-www-form-urlencoded" => "Form",
        "multipart/form-data" => "Multipart",
        _ => match media::kind(media_type) {
            MediaKind::Json => "Json",
            MediaKind::Text => "Text",
            // Bytes of the type sent (only `*/*` and `application/*`
            // pass the checks).
            MediaKind::Binary | MediaKind::Range => "Binary",
        },
    }
}

/// How each field of a form's object is read (`runtime::FormField`).
fn form_fields(cx: &Context<'_>, schema: &Value, at: &str) -> Result<Vec<(String, TokenStream)>, SpecError> {
    let fields = forms::form_fields(cx.spec, schema, at)?;
    Ok(fields
        .into_iter()
        .map(|(name, kind)| {
            let read = match kind {
                FormKind::One(ty) => {
                    let scalar = scalar(Some(ty));
                    quote!(runtime::FormField::One(#scalar))
                }
                FormKind::List { items, required } => {
                    let items = match items {
                        Some(ty) => {
                            let scalar = scalar(Some(ty));
                            quote!(runtime::FormItem::Scalar(#scalar))
                        }
                        None => quote!(runtime::FormItem::Any),
                    };
                    quote!(runtime::FormField::List { items: #items, required: #required })
                }
                FormKind::Object(properties) => {
                    let properties = properties.iter().map(|(name, ty)| {
                        let scalar = scalar(Some(ty));
                        quote!((#name, #scalar),)
                    });
                    quote!(runtime::FormField::Object(&[#(#properties)*]))
                }
                FormKind::Any => quote!(runtime::FormField::Any),
            };
            (name.to_string(), read)
        })
        .collect())
}
