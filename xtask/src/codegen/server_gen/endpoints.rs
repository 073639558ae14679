//! The two traits' declarations: the dropshot endpoint per operation and
//! the plain handler method a server implements.

use proc_macro2::TokenStream;
use quote::quote;

use super::model::Operation;
use super::parameter_code::{has_params, params_struct};
use super::response_code::response_enum_name;

/// The endpoint's result: the operation's reply, or the Error object.
pub(super) fn dropshot_return(op: &Operation, error_type: &TokenStream) -> TokenStream {
    let marker = &op.marker;
    quote!(::std::result::Result<runtime::Reply<#marker>, #error_type>)
}

/// The endpoint's extractors: the parameters (which describe themselves in
/// dropshot's document and are read after authentication) and the body.
pub(super) fn dropshot_params(op: &Operation) -> TokenStream {
    let marker = &op.marker;
    let parameters = (!op.parameters.is_empty()).then(|| quote!(, _parameters: runtime::Parameters<#marker>));
    let body = op.body.as_ref().map(|_| quote!(, body: runtime::RequestBody<#marker>));
    // The WebSocket handshake is read like a body, last (the checks
    // refuse an upgrade with a body), and checked after authentication.
    let upgrade = op.upgrades().then(|| quote!(, handshake: runtime::Handshake));
    quote!(#parameters #body #upgrade)
}

pub(super) fn endpoint_decl(op: &Operation, error_type: &TokenStream) -> TokenStream {
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

/// The handler's arguments after `&self`: the caller, each path parameter,
/// the query and header parameters, the body, the WebSocket handshake.
pub(super) fn handler_args(op: &Operation) -> Vec<TokenStream> {
    let mut args = Vec::new();
    if op.optional_auth() {
        args.push(quote!(caller: ::std::option::Option<&Self::Principal>));
    } else if op.requires_auth() {
        args.push(quote!(caller: &Self::Principal));
    }
    for p in op.parameters.iter().filter(|p| p.in_path()) {
        let (field, ty) = (&p.field, &p.ty);
        args.push(quote!(#field: #ty));
    }
    if has_params(op) {
        let params = params_struct(op);
        args.push(quote!(params: #params));
    }
    if let Some(body) = &op.body {
        let ty = body.arg_ty();
        args.push(quote!(body: #ty));
    }
    if op.upgrades() {
        args.push(quote!(upgrade: runtime::Upgrade));
    }
    args
}

pub(super) fn handler_method(op: &Operation) -> TokenStream {
    let fn_name = &op.fn_name;
    // The operation's name where the spec gives neither summary nor
    // description.
    let doc = match op.doc.is_empty() {
        true => format!("`{}`", op.id),
        false => op.doc.clone(),
    };
    let response = response_enum_name(op);
    let args = handler_args(op);
    let deprecated_note = op
        .deprecated
        .then(|| quote!(#[doc = ""] #[doc = "Deprecated in the spec."]));
    // One argument per path parameter: the spec decides how many.
    let many = (args.len() > 6).then(|| quote!(#[allow(clippy::too_many_arguments)]));
    quote! {
        #[doc = #doc]
        #deprecated_note
        #many
        fn #fn_name(
            &self,
            #(#args,)*
        ) -> impl ::std::future::Future<Output = #response> + Send;
    }
}
