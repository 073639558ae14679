//! The two traits' declarations: the dropshot endpoint per operation (with
//! its path-parameter struct) and the plain handler method a server
//! implements.

use heck::ToPascalCase;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::model::Operation;
use super::responses::{response_enum_name, success_mapping, success_variant};

pub(super) fn path_struct_name(op: &Operation) -> syn::Ident {
    format_ident!("{}Path", op.id.to_pascal_case())
}

pub(super) fn path_struct(op: &Operation) -> TokenStream {
    if op.path_params.is_empty() {
        return quote!();
    }
    let name = path_struct_name(op);
    let doc = format!("The path parameters of `{}`.", op.id);
    let fields = op.path_params.iter().map(|p| {
        let (field, rename, ty, doc) = (&p.field, &p.name, &p.ty, &p.doc);
        // `PathParam` defers parsing, so that a malformed value is reported
        // after authentication (401 before 400) and as the Error object.
        quote! {
            #[doc = #doc]
            #[serde(rename = #rename)]
            pub #field: runtime::PathParam<#ty>,
        }
    });
    quote! {
        #[doc = #doc]
        #[derive(Debug, ::serde::Deserialize, ::schemars::JsonSchema)]
        pub struct #name {
            #(#fields)*
        }
    }
}

pub(super) fn dropshot_return(op: &Operation, error_type: &syn::Ident) -> TokenStream {
    let (success, _) = success_variant(op);
    let (ty, _) = success_mapping(op, &response_enum_name(op), &success);
    quote!(::std::result::Result<runtime::Reply<#ty>, types::#error_type>)
}

pub(super) fn dropshot_params(op: &Operation) -> TokenStream {
    if op.path_params.is_empty() {
        return quote!();
    }
    let name = path_struct_name(op);
    quote!(, path: ::dropshot::Path<#name>)
}

pub(super) fn endpoint_decl(op: &Operation, error_type: &syn::Ident) -> TokenStream {
    let (method, path, id, fn_name, doc) = (&op.method, &op.http_path, &op.id, &op.fn_name, &op.doc);
    let tags = &op.tags;
    let deprecated = op.deprecated.then(|| quote!(deprecated = true,));
    let params = dropshot_params(op);
    let ret = dropshot_return(op, error_type);
    quote! {
        #[doc = #doc]
        #[endpoint {
            method = #method,
            path = #path,
            operation_id = #id,
            tags = [#(#tags),*],
            #deprecated
        }]
        async fn #fn_name(
            rqctx: ::dropshot::RequestContext<Self::Context>
            #params
        ) -> #ret;
    }
}

pub(super) fn handler_method(op: &Operation) -> TokenStream {
    let (fn_name, doc) = (&op.fn_name, &op.doc);
    let response = response_enum_name(op);
    let caller = op.requires_auth.then(|| quote!(caller: &Self::Principal,));
    let params = op.path_params.iter().map(|p| {
        let (field, ty) = (&p.field, &p.ty);
        quote!(#field: #ty,)
    });
    let deprecated_note = op
        .deprecated
        .then(|| quote!(#[doc = ""] #[doc = "Deprecated in the spec."]));
    quote! {
        #[doc = #doc]
        #deprecated_note
        fn #fn_name(
            &self,
            #caller
            #(#params)*
        ) -> impl ::std::future::Future<Output = #response> + Send;
    }
}
