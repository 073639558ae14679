//! One response enum per operation, a variant per documented status, and
//! how each variant becomes the reply dropshot sends (with the deprecation
//! headers of a deprecated operation).

use heck::ToPascalCase;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::model::Operation;

pub(super) fn response_enum_name(op: &Operation) -> syn::Ident {
    format_ident!("{}Response", op.id.to_pascal_case())
}

pub(super) fn success_variant(op: &Operation) -> (syn::Ident, TokenStream) {
    let name = match op.success.status {
        200 => format_ident!("Ok"),
        201 => format_ident!("Created"),
        202 => format_ident!("Accepted"),
        _ => format_ident!("NoContent"),
    };
    let ty = match &op.success.body {
        // A body the handler may hand over serialized already (a cached
        // list, say); `From<T>` makes a plain value one too.
        Some(body) => quote!((runtime::Json<#body>)),
        None => quote!(),
    };
    (name, ty)
}

pub(super) fn response_enum(op: &Operation, error_type: &syn::Ident) -> TokenStream {
    let name = response_enum_name(op);
    let doc = format!("The responses `{}` documents: one variant per status.", op.id);
    let (success, success_ty) = success_variant(op);
    let success_doc = format!("{}: {}", op.success.status, op.success.description);
    let errors = op.errors.iter().map(|(code, variant, description)| {
        let doc = format!("{code}: {description}");
        quote! {
            #[doc = #doc]
            #variant(runtime::Problem),
        }
    });
    let error_arms = op.errors.iter().map(|(code, variant, _)| {
        quote!(#name::#variant(problem) => runtime::Reply::error(#code, &types::#error_type::from_problem(#code, problem)),)
    });
    let (dropshot_ty, success_arm) = success_mapping(op, &name, &success);
    quote! {
        #[doc = #doc]
        #[derive(Debug)]
        pub enum #name {
            #[doc = #success_doc]
            #success #success_ty,
            #(#errors)*
        }

        impl #name {
            /// The HTTP response this value stands for: the success response,
            /// or the Error object with this variant's status.
            pub fn into_http(self) -> runtime::Reply<#dropshot_ty> {
                match self {
                    #success_arm
                    #(#error_arms)*
                }
            }
        }
    }
}

/// The dropshot response type of the success status, and the match arm
/// that builds its reply.
pub(super) fn success_mapping(
    op: &Operation,
    enum_name: &syn::Ident,
    variant: &syn::Ident,
) -> (TokenStream, TokenStream) {
    let (ty, pattern, value) = plain_success_mapping(op, enum_name, variant);
    if op.deprecation.is_none() {
        return (ty, quote!(#pattern => runtime::Reply::success(#value),));
    }
    // The generated layer adds the deprecation headers, so no handler can
    // forget them; documented on the success response, sent on every one.
    let headers = headers_struct_name(op);
    if op.success.body.is_some() {
        let typed = typed_success(op);
        return (
            quote!(runtime::JsonResponse<#typed, #headers>),
            quote!(#enum_name::#variant(body) => runtime::Reply::success(runtime::JsonResponse::with_headers(body, #headers::new())),),
        );
    }
    (
        quote!(::dropshot::HttpResponseHeaders<#ty, #headers>),
        quote!(#pattern => runtime::Reply::success(::dropshot::HttpResponseHeaders::new(#value, #headers::new())),),
    )
}

pub(super) fn headers_struct_name(op: &Operation) -> syn::Ident {
    format_ident!("{}Headers", op.id.to_pascal_case())
}

/// The deprecation headers of a deprecated operation, as dropshot sends
/// and documents them.
pub(super) fn headers_struct(op: &Operation) -> TokenStream {
    let Some(deprecation) = &op.deprecation else {
        return quote!();
    };
    let name = headers_struct_name(op);
    let doc = format!(
        "The headers every success response of the deprecated `{}` carries.",
        op.id
    );
    let value = &deprecation.deprecation;
    let (sunset_field, sunset_value) = match &deprecation.sunset {
        Some(sunset) => (
            quote! {
                /// When the operation goes away (RFC 8594).
                #[serde(rename = "Sunset")]
                pub sunset: ::std::string::String,
            },
            quote!(sunset: #sunset.to_string(),),
        ),
        None => (quote!(), quote!()),
    };
    quote! {
        #[doc = #doc]
        #[derive(Debug, ::serde::Serialize, ::schemars::JsonSchema)]
        pub struct #name {
            /// Since when the operation is deprecated (RFC 9745).
            #[serde(rename = "Deprecation")]
            pub deprecation: ::std::string::String,
            #sunset_field
        }

        impl #name {
            /// The values the spec gives.
            pub fn new() -> Self {
                Self { deprecation: #value.to_string(), #sunset_value }
            }
        }

        impl ::std::default::Default for #name {
            fn default() -> Self {
                Self::new()
            }
        }
    }
}

/// dropshot's typed response for a success status with a body: what
/// [`runtime::JsonResponse`] takes its status and description from.
pub(super) fn typed_success(op: &Operation) -> TokenStream {
    let body = op.success.body.as_ref();
    match op.success.status {
        201 => quote!(::dropshot::HttpResponseCreated<#body>),
        202 => quote!(::dropshot::HttpResponseAccepted<#body>),
        _ => quote!(::dropshot::HttpResponseOk<#body>),
    }
}

/// The dropshot response type of the success status, the pattern of its
/// variant, and the expression of its response.
pub(super) fn plain_success_mapping(
    op: &Operation,
    enum_name: &syn::Ident,
    variant: &syn::Ident,
) -> (TokenStream, TokenStream, TokenStream) {
    match op.success.status {
        200..=202 => {
            let typed = typed_success(op);
            (
                quote!(runtime::JsonResponse<#typed>),
                quote!(#enum_name::#variant(body)),
                quote!(runtime::JsonResponse::new(body)),
            )
        }
        _ if op.method == "DELETE" => (
            quote!(::dropshot::HttpResponseDeleted),
            quote!(#enum_name::#variant),
            quote!(::dropshot::HttpResponseDeleted()),
        ),
        _ => (
            quote!(::dropshot::HttpResponseUpdatedNoContent),
            quote!(#enum_name::#variant),
            quote!(::dropshot::HttpResponseUpdatedNoContent()),
        ),
    }
}
