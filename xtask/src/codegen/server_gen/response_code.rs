//! An operation's responses in its Rust: the response enum with one
//! variant per documented status, the struct of each success's headers,
//! how each variant becomes the reply, and the responses' rows of the
//! operation's table.

use proc_macro2::TokenStream;
use quote::quote;

use super::errors;
use super::model::Operation;
use super::parameters::option_str;
use super::responses::Success;

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

/// The variant of a handler not written yet: `NotImplemented`, or
/// `NotWritten` where the spec documents a 501 of its own (which takes
/// `NotImplemented`, its reason phrase).
fn unwritten_variant(op: &Operation) -> syn::Ident {
    let documented = op.errors.iter().any(|arm| arm.variant == "NotImplemented");
    match documented {
        true => quote::format_ident!("NotWritten"),
        false => quote::format_ident!("NotImplemented"),
    }
}

pub(super) fn response_enum(op: &Operation) -> TokenStream {
    let name = response_enum_name(op);
    let doc = format!("The responses `{}` documents: one variant per status.", op.id);
    let headers_structs = op.successes.iter().filter_map(|s| headers_struct(op, s));
    let success_variants = op.successes.iter().map(|success| {
        let variant = &success.variant;
        let doc = match success.is_range() {
            true => format!(
                "{}XX ({}-{}, the status given): {}",
                success.status / 100,
                success.status,
                success.last,
                success.description
            ),
            false => format!("{}: {}", success.status, success.description),
        };
        let body = match success.upgrade {
            true => Some(quote!(runtime::Switching)),
            false => success.content.as_ref().map(|c| c.ty.clone()),
        };
        let headers = headers_struct(op, success).map(|_| {
            let name = headers_struct_name(op, success);
            quote!(#name)
        });
        if success.is_range() {
            let body = body.map(|body| quote!(body: #body,));
            let headers = headers.map(|headers| quote!(headers: #headers,));
            return quote!(#[doc = #doc] #variant { status: u16, #body #headers },);
        }
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
    let unwritten = unwritten_variant(op);
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
            #unwritten,
        }

        impl #name {
            /// The HTTP response this value stands for: a success response
            /// with its documented media type and headers, or the Error
            /// object with this variant's status.
            pub fn into_http(self #accepted) -> runtime::Reply<#marker> {
                match self {
                    #(#success_arms)*
                    #(#error_arms)*
                    #name::#unwritten => runtime::Reply::problem(
                        501u16,
                        runtime::Problem::new("not_implemented", #not_implemented),
                    ),
                }
            }
        }
    }
}

fn success_arm(op: &Operation, success: &Success, enum_name: &syn::Ident) -> TokenStream {
    let variant = &success.variant;
    // A range's status is the handler's (checked to be in it).
    let status = match success.is_range() {
        true => quote!(status),
        false => {
            let status = success.status;
            quote!(#status)
        }
    };
    let has_headers = headers_struct(op, success).is_some();
    let headers = has_headers.then(|| quote!(.with_headers(&headers)));
    let body_pattern = (success.content.is_some() || success.upgrade).then(|| quote!(body));
    let headers_pattern = has_headers.then(|| quote!(headers));
    let patterns: Vec<TokenStream> = body_pattern.into_iter().chain(headers_pattern).collect();
    let pattern = match (success.is_range(), patterns.is_empty()) {
        (true, _) => quote!(#enum_name::#variant { status, #(#patterns),* }),
        (false, true) => quote!(#enum_name::#variant),
        (false, false) => quote!(#enum_name::#variant(#(#patterns),*)),
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
            let item_schema = &content.schema;
            match content.kind {
                "Json" => quote!(runtime::Reply::json(#status, #media_type, body)),
                "EventStream" => quote!(runtime::Reply::event_stream(#status, #media_type, &#item_schema, body)),
                "JsonLines" => quote!(runtime::Reply::json_lines(#status, #media_type, &#item_schema, body)),
                "Range" => quote!(runtime::Reply::payload(#status, #media_type, body)),
                _ => quote!(runtime::Reply::bytes(#status, #media_type, body)),
            }
        }
    };
    match success.is_range() {
        true => {
            let (first, last) = (success.status, success.last);
            quote!(#pattern => runtime::Reply::within(status, #first, #last, |status| #reply #headers),)
        }
        false => quote!(#pattern => #reply #headers,),
    }
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
        let (status, last, description) = (success.status, success.last, &success.description);
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
                last: #last,
                description: #description,
                content: #content,
                headers: &[#(#headers)*],
            },
        }
    });
    quote!(&[#(#rows)*])
}
