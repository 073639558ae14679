//! Success and redirect responses: their model (status, body, documented headers), the
//! response enum with one variant per documented status, the struct of
//! each success's headers, how each variant becomes the reply, and the
//! responses' rows of the operation's table.

use proc_macro2::TokenStream;
use quote::quote;
use serde_json::Value;

use super::errors;
use super::model::{Context, Operation, rust_field, status_variant};
use super::parameters::option_str;
use crate::codegen::spec::media::{self, MediaKind, served_response};
use crate::codegen::spec::{BodyShape, OperationRef, SpecError, body_shape, is_error_key};

pub(super) struct Success {
    pub(super) status: u16,
    pub(super) variant: syn::Ident,
    pub(super) description: String,
    pub(super) content: Option<Content>,
    pub(super) headers: Vec<Header>,
    /// A `101`: the WebSocket upgrade, whose variant carries the
    /// handler's `runtime::Switching` (its content, if any, is what the
    /// connection carries afterwards, not a body).
    pub(super) upgrade: bool,
}

pub(super) struct Content {
    pub(super) media_type: String,
    /// The other media types written from the same value, chosen by the
    /// request's `Accept`.
    pub(super) alternatives: Vec<String>,
    /// Whether the spec lists more than one media type, so that the layer
    /// negotiates (and answers 406 for a request that accepts none).
    pub(super) negotiated: bool,
    /// `Json`, `Text`, `Binary` or `Range` (bytes of the handler's chosen
    /// type): how the handler hands the body over.
    pub(super) kind: &'static str,
    pub(super) schema: syn::Ident,
    /// The type in the variant (`runtime::Json<T>`, `String`, `Bytes`).
    pub(super) ty: TokenStream,
    pub(super) doc_name: String,
}

pub(super) struct Header {
    pub(super) name: String,
    pub(super) field: syn::Ident,
    pub(super) description: Option<String>,
    pub(super) required: bool,
    pub(super) schema: syn::Ident,
    pub(super) ty: TokenStream,
    /// `Deprecation`/`Sunset` of a deprecated operation: the generated
    /// layer sends them, not the handler.
    pub(super) by_layer: bool,
}

impl Success {
    /// The headers the handler provides.
    fn handler_headers(&self) -> impl Iterator<Item = &Header> {
        self.headers.iter().filter(|h| !h.by_layer)
    }
}

pub(super) fn describe_successes(cx: &mut Context<'_>, op: &OperationRef<'_>) -> Result<Vec<Success>, SpecError> {
    let id = op.operation_id();
    let deprecated = op.operation.deprecated;
    let mut out = Vec::new();
    // 2xx statuses with the first one's body share its type; any other
    // body has its own.
    let mut body_type: Option<(BodyShape, (&'static str, TokenStream))> = None;
    for (key, response, location) in cx.spec.responses(op)? {
        if is_error_key(&key) {
            continue;
        }
        let status: u16 = key.parse().unwrap_or(200);
        let shape = body_shape(&response);
        let shared = match (200..300).contains(&status) {
            true => body_type
                .as_ref()
                .filter(|(first, _)| *first == shape)
                .map(|(_, known)| known.clone()),
            false => None,
        };
        let upgrade = status == 101;
        // 204 and 205 have no body (RFC 9110 §15.3.5): content a spec
        // gives them is not sent (lint says so).
        let bodiless = matches!(status, 204 | 205);
        let listed = response["content"].as_object();
        let content = match listed.and_then(served_response) {
            _ if upgrade || bodiless => None,
            None => None,
            Some(served) => {
                let (media_type, media) = served.primary;
                let at = format!("{location}.content.{media_type}.schema");
                // Without a schema, any body.
                let any = Value::Object(Default::default());
                let schema = media.get("schema").unwrap_or(&any);
                let first_success = (200..300).contains(&status) && body_type.is_none();
                let name = match first_success {
                    true => format!("{id}-response-body"),
                    false => format!("{id}-{status}-response-body"),
                };
                let (kind, ty) = match shared {
                    Some(known) => known,
                    None => match media::kind(media_type) {
                        MediaKind::Json => {
                            let ty = cx.types.add(schema, &name, &at)?;
                            ("Json", quote!(runtime::Json<#ty>))
                        }
                        MediaKind::Text => ("Text", quote!(::std::string::String)),
                        MediaKind::Binary => ("Binary", quote!(runtime::Bytes)),
                        MediaKind::Range => ("Range", quote!(runtime::Payload)),
                    },
                };
                if first_success {
                    body_type = Some((shape.clone(), (kind, ty.clone())));
                }
                let schema = cx.schemas.add(&format!("{id}_response_{status}"), schema, &at)?;
                Some(Content {
                    media_type: media_type.to_string(),
                    alternatives: served.alternatives.iter().map(|m| m.to_string()).collect(),
                    negotiated: listed.is_some_and(|c| c.len() > 1),
                    kind,
                    schema,
                    ty,
                    doc_name: heck::ToPascalCase::to_pascal_case(name.as_str()),
                })
            }
        };
        let mut headers = Vec::new();
        for name in response["headers"].as_object().into_iter().flat_map(|h| h.keys()) {
            let (header, at) = cx.spec.follow(
                &response["headers"][name.as_str()],
                "headers",
                format!("{location}.headers.{name}"),
            )?;
            let schema = &header["schema"];
            let ty = cx
                .types
                .add(schema, &format!("{id}-{status}-{name}-header"), &format!("{at}.schema"))?;
            headers.push(Header {
                field: rust_field(name),
                description: header["description"].as_str().map(str::to_string),
                required: header["required"].as_bool().unwrap_or(false),
                schema: cx.schemas.add(
                    &format!("{id}_response_{status}_header_{name}"),
                    schema,
                    &format!("{at}.schema"),
                )?,
                ty,
                by_layer: deprecated
                    && (name.eq_ignore_ascii_case("deprecation") || name.eq_ignore_ascii_case("sunset")),
                name: name.clone(),
            });
        }
        out.push(Success {
            status,
            variant: status_variant(status),
            description: response["description"].as_str().unwrap_or_default().trim().to_string(),
            content,
            headers,
            upgrade,
        });
    }
    Ok(out)
}

pub(super) fn response_enum_name(op: &Operation) -> syn::Ident {
    op.name_of("Response")
}

fn headers_struct_name(op: &Operation, success: &Success) -> syn::Ident {
    op.name_of(&format!("{}Headers", success.variant))
}

/// The documented headers of a success that the handler provides, as a
/// struct: a required one cannot be left out.
fn headers_struct(op: &Operation, success: &Success) -> Option<TokenStream> {
    let fields: Vec<TokenStream> = success
        .handler_headers()
        .map(|h| {
            let (field, rename, ty) = (&h.field, &h.name, &h.ty);
            let doc = h
                .description
                .as_deref()
                .map(str::trim)
                .filter(|d| !d.is_empty())
                .map(|d| quote!(#[doc = #d]));
            match h.required {
                true => quote! {
                    #doc
                    #[serde(rename = #rename)]
                    pub #field: #ty,
                },
                false => quote! {
                    #doc
                    #[serde(rename = #rename, skip_serializing_if = "::std::option::Option::is_none")]
                    pub #field: ::std::option::Option<#ty>,
                },
            }
        })
        .collect();
    if fields.is_empty() {
        return None;
    }
    let name = headers_struct_name(op, success);
    let doc = format!("The headers `{}` documents on its {} response.", op.id, success.status);
    Some(quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, ::serde::Serialize)]
        pub struct #name {
            #(#fields)*
        }
    })
}

pub(super) fn response_enum(op: &Operation) -> TokenStream {
    let name = response_enum_name(op);
    let doc = format!("The responses `{}` documents: one variant per status.", op.id);
    let headers_structs = op.successes.iter().filter_map(|s| headers_struct(op, s));
    let success_variants = op.successes.iter().map(|success| {
        let variant = &success.variant;
        let doc = format!("{}: {}", success.status, success.description);
        let body = match success.upgrade {
            true => Some(quote!(runtime::Switching)),
            false => success.content.as_ref().map(|c| c.ty.clone()),
        };
        let headers = headers_struct(op, success).map(|_| {
            let name = headers_struct_name(op, success);
            quote!(#name)
        });
        let fields: Vec<TokenStream> = body.into_iter().chain(headers).collect();
        match fields.is_empty() {
            true => quote!(#[doc = #doc] #variant,),
            false => quote!(#[doc = #doc] #variant(#(#fields),*),),
        }
    });
    let success_arms = op.successes.iter().map(|success| success_arm(op, success, &name));
    let errors = op.errors.iter().map(errors::variant);
    let error_arms = op.errors.iter().map(|arm| errors::reply_arm(arm, &name));
    let marker = &op.marker;
    let accepted = negotiates(op).then(|| quote!(, accepted: &runtime::Accepted));
    let not_implemented = format!("{} is not implemented yet", op.id);
    quote! {
        #(#headers_structs)*

        #[doc = #doc]
        // A body is as large as its schema; boxing it would burden every
        // handler for a move that costs little.
        #[allow(clippy::large_enum_variant)]
        #[derive(Debug)]
        pub enum #name {
            #(#success_variants)*
            #(#errors)*
            /// 501, which the spec need not document: the handler is not
            /// written yet (what `cargo xtask new` starts every handler
            /// with). Answered with problem details, or the Error object
            /// where the spec documents 501 with it.
            NotImplemented,
        }

        impl #name {
            /// The HTTP response this value stands for: a success response
            /// with its documented media type and headers, or the Error
            /// object with this variant's status.
            pub fn into_http(self #accepted) -> runtime::Reply<#marker> {
                match self {
                    #(#success_arms)*
                    #(#error_arms)*
                    #name::NotImplemented => runtime::Reply::problem(
                        501u16,
                        runtime::Problem::new("not_implemented", #not_implemented),
                    ),
                }
            }
        }
    }
}

fn success_arm(op: &Operation, success: &Success, enum_name: &syn::Ident) -> TokenStream {
    let (variant, status) = (&success.variant, success.status);
    let has_headers = headers_struct(op, success).is_some();
    let headers = has_headers.then(|| quote!(.with_headers(&headers)));
    let body_pattern = (success.content.is_some() || success.upgrade).then(|| quote!(body));
    let headers_pattern = has_headers.then(|| quote!(headers));
    let patterns: Vec<TokenStream> = body_pattern.into_iter().chain(headers_pattern).collect();
    let pattern = match patterns.is_empty() {
        true => quote!(#enum_name::#variant),
        false => quote!(#enum_name::#variant(#(#patterns),*)),
    };
    let reply = match &success.content {
        None if success.upgrade => quote!(runtime::Reply::switching(body)),
        None => quote!(runtime::Reply::empty(#status)),
        Some(content) => {
            let primary = &content.media_type;
            let alternatives = &content.alternatives;
            let media_type = match negotiates(op) {
                true => quote!(accepted.media_type(#primary, &[#(#alternatives),*])),
                false => quote!(#primary),
            };
            match content.kind {
                "Json" => quote!(runtime::Reply::json(#status, #media_type, body)),
                "Range" => quote!(runtime::Reply::payload(#status, #media_type, body)),
                _ => quote!(runtime::Reply::bytes(#status, #media_type, body)),
            }
        }
    };
    quote!(#pattern => #reply #headers,)
}

/// Whether a success response of the operation lists several media
/// types: its reply is then written in the one the request's `Accept`
/// prefers, and a request that accepts none of them gets 406.
pub(super) fn negotiates(op: &Operation) -> bool {
    op.successes
        .iter()
        .any(|s| s.content.as_ref().is_some_and(|c| c.negotiated))
}

/// The table's success rows.
pub(super) fn response_rows(op: &Operation) -> TokenStream {
    let rows = op.successes.iter().map(|success| {
        let (status, description) = (success.status, &success.description);
        let content = match &success.content {
            Some(content) => {
                let (media_type, schema, doc_name) = (&content.media_type, &content.schema, &content.doc_name);
                let alternatives = &content.alternatives;
                quote!(::std::option::Option::Some(runtime::Content {
                    media_type: #media_type,
                    alternatives: &[#(#alternatives),*],
                    schema: &#schema,
                    doc_name: #doc_name,
                }))
            }
            None => quote!(::std::option::Option::None),
        };
        let headers = success.headers.iter().map(|h| {
            let (name, required, schema) = (&h.name, h.required, &h.schema);
            let description = option_str(h.description.as_deref());
            quote!(runtime::ResponseHeader { name: #name, description: #description, required: #required, schema: &#schema },)
        });
        quote! {
            runtime::SuccessResponse {
                status: #status,
                description: #description,
                content: #content,
                headers: &[#(#headers)*],
            },
        }
    });
    quote!(&[#(#rows)*])
}
