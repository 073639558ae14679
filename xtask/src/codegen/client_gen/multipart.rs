//! Multipart bodies from the client. progenitor's client cannot send
//! `multipart/form-data`, so it is handed each such operation with a body
//! of bytes (`for_progenitor`'s `MultipartBodies::AsBytes`) and writes the
//! rest of the method (path, parameters, credentials, responses); this
//! makes the method take the operation's parts instead: a struct of
//! named, typed parts (`multipart_bodies::UploadDocument`: text parts of
//! their scalar types, lists, JSON values, files as
//! `api_client_runtime::multipart::File`), or `Parts` where the schema
//! names none. The parts are written by `api-client-runtime`, as the
//! server reads them (`runtime::Multipart`).

use heck::{ToSnakeCase, ToUpperCamelCase};
use proc_macro2::TokenStream;
use quote::quote;
use serde_json::Value;
use syn::visit_mut::VisitMut;

use super::for_progenitor::multipart_media;
use super::methods::rewrite_methods;
use crate::codegen::document::forms::{FormKind, form_fields};
use crate::codegen::document::multipart::{Multipart, multipart};
use crate::codegen::document::{OperationRef, Spec, SpecError, required_names};
use crate::codegen::namespace::Namespace;

const MODULE: &str = "multipart_bodies";

/// Makes each multipart operation's method take its parts, and adds the
/// module of their structs.
pub fn send_multipart_bodies(spec: &Spec, file: &mut syn::File) -> Result<(), SpecError> {
    let mut structs = Vec::new();
    // The module's own names, which a consumer builds files and free
    // parts with (no dependency of their own needed).
    let mut names = Namespace::reserving(["File", "Parts"]);
    let mut builders = Vec::new();
    let rewritten = rewrite_methods(spec, file, |op| {
        let Some((shape, media)) = multipart_shape(spec, op)? else {
            return Ok(None);
        };
        let module = quote::format_ident!("{MODULE}");
        let name = match shape {
            Shape::Whole => quote::format_ident!("Parts"),
            Shape::Fields(parts) => {
                let name = names.claim(&op.operation_id().to_upper_camel_case());
                structs.push(parts_struct(op, &name, &parts, &media));
                name
            }
        };
        builders.push((op.operation_id().to_snake_case().to_upper_camel_case(), name.clone()));
        Ok(Some(SendsParts {
            parts_type: quote!(#module::#name),
        }))
    })?;
    builder_bodies(file, &builders);
    if rewritten {
        let module = quote::format_ident!("{MODULE}");
        file.items.push(syn::parse_quote! {
            /// The parts of each multipart operation's body, by name and
            /// type, as its method takes them; files are [`File`]s (bytes
            /// or a stream, with a file name and a content type).
            pub mod #module {
                pub use ::api_client_runtime::multipart::{File, Parts};

                #(#structs)*
            }
        });
    }
    Ok(())
}

/// One part of a body whose schema names its parts.
struct NamedPart {
    name: String,
    description: Option<String>,
    required: bool,
    kind: PartKind,
}

enum PartKind {
    /// A file (a list of files where `list`).
    File { list: bool },
    /// Text of a scalar type (`string`, `integer`, ...).
    Scalar(String),
    /// A list of scalars, or of any value (`None`).
    List(Option<String>),
    /// Any value: text where it is a string, JSON text otherwise.
    Value,
}

enum Shape {
    Whole,
    Fields(Vec<NamedPart>),
}

/// The shape of an operation's multipart body, and its media type object
/// (whose `encoding` gives files their content type); `None` where the
/// server does not read its body as multipart.
fn multipart_shape(spec: &Spec, op: &OperationRef<'_>) -> Result<Option<(Shape, Value)>, SpecError> {
    let Some((media, location)) = multipart_media(spec, op)? else {
        return Ok(None);
    };
    let schema = &media["schema"];
    let (files, fields) = match multipart(spec, schema, &location)? {
        Multipart::Whole => return Ok(Some((Shape::Whole, media.clone()))),
        Multipart::Fields { files, fields } => (files, fields),
    };
    let text_required = required_names(&fields);
    let texts = form_fields(spec, &fields, &location)?;
    let resolved = spec.resolve_schema(schema);
    let properties = resolved.get("properties").and_then(Value::as_object);
    let mut parts = Vec::new();
    for (name, property) in properties.into_iter().flatten() {
        let description = spec.resolve_schema(property)["description"]
            .as_str()
            .map(str::to_string);
        let (required, kind) = match files.iter().find(|(file, _, _)| file == name) {
            Some((_, list, required)) => (*required, PartKind::File { list: *list }),
            None => match texts.iter().find(|(field, _)| field == name) {
                Some((_, kind)) => (text_required.contains(&name.as_str()), text_kind(kind)),
                None => continue,
            },
        };
        parts.push(NamedPart {
            name: name.clone(),
            description,
            required,
            kind,
        });
    }
    Ok(Some((Shape::Fields(parts), media)))
}

fn text_kind(kind: &FormKind<'_>) -> PartKind {
    match kind {
        FormKind::One(scalar) => PartKind::Scalar(scalar.to_string()),
        FormKind::List { items, .. } => PartKind::List(items.map(str::to_string)),
        FormKind::Object(_) | FormKind::Any => PartKind::Value,
    }
}

/// The Rust type of a scalar part.
fn scalar_type(scalar: &str) -> TokenStream {
    match scalar {
        "integer" => quote!(i64),
        "number" => quote!(f64),
        "boolean" => quote!(bool),
        _ => quote!(::std::string::String),
    }
}

/// The struct of an operation's parts, and how it becomes `Parts`.
fn parts_struct(op: &OperationRef<'_>, name: &syn::Ident, parts: &[NamedPart], media: &Value) -> TokenStream {
    let mut fields = Namespace::reserving([]);
    let mut declared = Vec::new();
    let mut written = Vec::new();
    for part in parts {
        // A field's name in snake case, as Rust's lints want it, even
        // where the part's name has no letter first.
        let mut wanted = part.name.to_snake_case();
        if !wanted.starts_with(|c: char| c.is_ascii_alphabetic()) {
            wanted = format!("part_{wanted}");
        }
        let field = fields.claim(&wanted);
        let wire = &part.name;
        let doc = match &part.description {
            Some(description) => format!(" {description}"),
            None => format!(" The part `{wire}`."),
        };
        // The item's type, whether the field is a list of them, and how
        // one item (`value`) is written.
        let (ty, list, write) = match &part.kind {
            PartKind::File { list } => {
                let default_type = file_content_type(media, wire);
                (
                    quote!(File),
                    *list,
                    quote!(parts = parts.file(#wire, value, #default_type);),
                )
            }
            PartKind::Scalar(scalar) => (scalar_type(scalar), false, quote!(parts = parts.text(#wire, value);)),
            PartKind::List(Some(scalar)) => (scalar_type(scalar), true, quote!(parts = parts.text(#wire, value);)),
            PartKind::List(None) => (
                quote!(::serde_json::Value),
                true,
                quote!(parts = parts.value(#wire, &value);),
            ),
            PartKind::Value => (
                quote!(::serde_json::Value),
                false,
                quote!(parts = parts.value(#wire, &value);),
            ),
        };
        let (ty, write) = match (list, part.required) {
            (true, _) => (
                quote!(::std::vec::Vec<#ty>),
                quote!(for value in self.#field { #write }),
            ),
            (false, true) => (ty, quote!({ let value = self.#field; #write })),
            (false, false) => (
                quote!(::std::option::Option<#ty>),
                quote!(if let Some(value) = self.#field { #write }),
            ),
        };
        declared.push(quote! { #[doc = #doc] pub #field: #ty });
        written.push(write);
    }
    let doc = format!(
        " The parts of `{}`'s body (`multipart/form-data`), as its method takes them.",
        op.operation_id()
    );
    quote! {
        #[doc = #doc]
        #[derive(Debug)]
        pub struct #name {
            #(#declared,)*
        }

        impl ::api_client_runtime::multipart::MultipartBody for #name {
            fn into_parts(self) -> ::api_client_runtime::multipart::Parts {
                #[allow(unused_mut)]
                let mut parts = ::api_client_runtime::multipart::Parts::new();
                #(#written)*
                parts
            }
        }
    }
}

/// The content type a file part is sent with unless the file says its
/// own: the spec's `encoding` where it names one media type.
fn file_content_type(media: &Value, part: &str) -> String {
    match media["encoding"][part]["contentType"].as_str() {
        Some(one) if !one.contains(['*', ',']) && !one.trim().is_empty() => one.trim().to_string(),
        _ => "application/octet-stream".to_string(),
    }
}

/// A method that sent bytes, made to take the operation's parts and send
/// them written as multipart.
struct SendsParts {
    parts_type: TokenStream,
}

impl VisitMut for SendsParts {
    fn visit_impl_item_fn_mut(&mut self, method: &mut syn::ImplItemFn) {
        // A builder client's method of the operation's name only makes the
        // builder; its `send` sends.
        if method.sig.asyncness.is_none() {
            return;
        }
        // progenitor's `B: Into<reqwest::Body>` goes; `body: B` takes the
        // parts.
        let generics = std::mem::take(&mut method.sig.generics.params);
        method.sig.generics.params = generics
            .into_iter()
            .filter(|param| !quote!(#param).to_string().contains("reqwest :: Body"))
            .collect();
        let parts_type = &self.parts_type;
        for input in method.sig.inputs.iter_mut() {
            if let syn::FnArg::Typed(typed) = input
                && matches!(&*typed.pat, syn::Pat::Ident(pat) if pat.ident == "body")
            {
                *typed.ty = syn::parse_quote!(#parts_type);
            }
        }
        // First, or in a builder's `send` once `body` is bound.
        let bound = method.block.stmts.iter().rposition(|stmt| {
            matches!(stmt, syn::Stmt::Local(local)
                if matches!(&local.pat, syn::Pat::Ident(pat) if pat.ident == "body"))
        });
        method.block.stmts.insert(
            bound.map_or(0, |at| at + 1),
            syn::parse_quote! {
                let body = ::api_client_runtime::multipart::MultipartBody::into_parts(body).encode().await?;
            },
        );
        syn::visit_mut::visit_impl_item_fn_mut(self, method);
    }

    fn visit_expr_method_call_mut(&mut self, call: &mut syn::ExprMethodCall) {
        syn::visit_mut::visit_expr_method_call_mut(self, call);
        let first = call.args.first().map(|arg| quote!(#arg).to_string());
        match (call.method.to_string().as_str(), first.as_deref()) {
            ("header", Some(name)) if name.ends_with("CONTENT_TYPE") => {
                call.args[1] = syn::parse_quote!(body.content_type);
            }
            ("body", Some("body")) => call.args[0] = syn::parse_quote!(body.body),
            _ => {}
        }
    }
}

/// A builder's body of bytes (progenitor's `body` field and setter), made
/// to hold the operation's parts: `builders` are the builders' names and
/// their parts' types.
fn builder_bodies(file: &mut syn::File, builders: &[(String, syn::Ident)]) {
    let module = quote::format_ident!("{MODULE}");
    let items = file.items.iter_mut().find_map(|item| match item {
        syn::Item::Mod(m) if m.ident == "builder" => m.content.as_mut().map(|(_, items)| items),
        _ => None,
    });
    for item in items.into_iter().flatten() {
        let named = |ty: &syn::Type| {
            builders.iter().find(|(builder, _)| {
                matches!(ty, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == builder))
            })
        };
        match item {
            syn::Item::Struct(declared) => {
                let Some((_, parts)) = builders.iter().find(|(builder, _)| declared.ident == builder) else {
                    continue;
                };
                for field in declared.fields.iter_mut() {
                    if field.ident.as_ref().is_some_and(|ident| ident == "body") {
                        field.ty = syn::parse_quote!(Result<super::#module::#parts, String>);
                    }
                }
            }
            syn::Item::Impl(imp) => {
                let Some((_, parts)) = named(&imp.self_ty) else {
                    continue;
                };
                for item in imp.items.iter_mut() {
                    if let syn::ImplItem::Fn(setter) = item
                        && setter.sig.ident == "body"
                    {
                        *setter = syn::parse_quote! {
                            /// The body's parts.
                            pub fn body(mut self, value: super::#module::#parts) -> Self {
                                self.body = Ok(value);
                                self
                            }
                        };
                    }
                }
            }
            _ => {}
        }
    }
}
