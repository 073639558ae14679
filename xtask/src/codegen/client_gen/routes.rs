//! Each operation as the spec names it, by the name progenitor gives its
//! method: the table a request's tracing span is named from
//! (`api_client_runtime::spans`). progenitor's hooks get the method's
//! name only (`OperationInfo::operation_id`, in snake case), not the
//! spec's `operationId` or the path template.

use std::collections::BTreeMap;

use heck::ToSnakeCase;
use quote::quote;

use crate::codegen::document::Spec;

/// `pub fn operation_route(method: &str) -> Option<Route>`.
pub(super) fn operation_routes(spec: &Spec) -> syn::Item {
    let mut rows = BTreeMap::new();
    for op in spec.operations() {
        let id = op.operation_id().to_string();
        rows.entry(id.to_snake_case()).or_insert((id, op.path.to_string()));
    }
    let doc = quote! {
        /// The operation a method of the client sends, as the spec names it
        /// (its `operationId` and path template): what the request's
        /// tracing span carries.
    };
    if rows.is_empty() {
        return syn::parse_quote! {
            #doc
            pub fn operation_route(_method: &str) -> ::std::option::Option<::api_client_runtime::spans::Route> {
                ::std::option::Option::None
            }
        };
    }
    let arms = rows.iter().map(|(method, (id, path))| quote!(#method => (#id, #path),));
    syn::parse_quote! {
        #doc
        pub fn operation_route(method: &str) -> ::std::option::Option<::api_client_runtime::spans::Route> {
            let (operation_id, path) = match method {
                #(#arms)*
                _ => return ::std::option::Option::None,
            };
            ::std::option::Option::Some(::api_client_runtime::spans::Route { operation_id, path })
        }
    }
}
