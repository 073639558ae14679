//! 405 for the methods a path does not document: hidden endpoints
//! (`ApiEndpoint::visible(false)`, so the document is unchanged) that
//! answer with the Error object and `Allow`, where dropshot's router would
//! answer with a body of its own.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::quote;

use super::model::Operation;

/// A path's methods; the marker of one of its operations with parameters
/// (dropshot checks that an endpoint takes its path's parameters, hidden
/// ones too); and its operations' tables (a CORS preflight is answered
/// from them).
type PathOperations<'a> = (Vec<String>, Option<&'a syn::Ident>, Vec<&'a syn::Ident>);

/// Statements that add the hidden endpoints to `endpoints`, for every path
/// of `operations` and the document's own path, each answering for
/// `versions`.
pub(super) fn registrations(operations: &[Operation], document_path: &str, error_type: &TokenStream) -> TokenStream {
    let mut paths: BTreeMap<&str, PathOperations> = BTreeMap::new();
    for op in operations {
        let (methods, parameters, tables) = paths.entry(op.http_path.as_str()).or_default();
        methods.push(op.method.to_string());
        tables.push(&op.table);
        if op.parameters.iter().any(|p| p.in_path()) {
            *parameters = Some(&op.marker);
        }
    }
    paths.entry(document_path).or_default().0.push("GET".into());
    let registrations = paths.into_iter().map(|(path, (mut methods, parameters, tables))| {
        methods.sort();
        methods.dedup();
        let allowed = methods.join(", ");
        let extractor = parameters.map(|marker| quote!(, _: runtime::Parameters<#marker>));
        quote! {
            for method in runtime::methods_other_than(&[#(#methods),*]) {
                endpoints.push(
                    ::dropshot::ApiEndpoint::new(
                        runtime::not_allowed_id(&method, #path),
                        |rqctx: ::dropshot::RequestContext<H> #extractor| async move {
                            // A CORS preflight, to a path without an `OPTIONS` operation.
                            if let ::std::option::Option::Some(preflight) = runtime::serving::cors::preflight(
                                runtime::serving::Served::serving(rqctx.context()), &rqctx.request, &[#(&#tables),*]
                            ) {
                                return ::std::result::Result::Ok(preflight);
                            }
                            runtime::method_not_allowed(rqctx.request.method(), rqctx.request.uri().path(), #path, #allowed, #error_type::from_problem)
                                .map_err(#error_type::from)
                        },
                        method,
                        "application/json",
                        #path,
                        versions(),
                    )
                    .visible(false),
                );
            }
        }
    });
    quote!(#(#registrations)*)
}
