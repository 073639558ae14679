//! The strict adapter: the generated endpoint body that authenticates the
//! caller, parses the path parameters, calls the handler and sends its
//! reply, so that no implementation can skip a step.

use proc_macro2::TokenStream;
use quote::quote;

use super::endpoints::{dropshot_params, dropshot_return};
use super::model::Operation;
use super::responses::headers_struct_name;

pub(super) fn adapter(op: &Operation, error_type: &syn::Ident, handlers_trait: &syn::Ident) -> TokenStream {
    let fn_name = &op.fn_name;
    let params = dropshot_params(op);
    let ret = dropshot_return(op, error_type);
    let authenticate = op.requires_auth.then(|| {
        quote! {
            let caller = match runtime::authenticate(handlers, rqctx.request.headers()).await {
                ::std::result::Result::Ok(caller) => caller,
                ::std::result::Result::Err(rejection) => {
                    return rejection.into_reply(types::#error_type::from_problem);
                }
            };
        }
    });
    let caller = op.requires_auth.then(|| quote!(&caller,));
    let parse = (!op.path_params.is_empty()).then(|| {
        let fields = op.path_params.iter().map(|p| {
            let (field, name) = (&p.field, &p.name);
            quote! {
                let #field = match path.#field.into_value(#name) {
                    ::std::result::Result::Ok(value) => value,
                    ::std::result::Result::Err(problem) => {
                        return runtime::Reply::error(400, &types::#error_type::from_problem(400, problem));
                    }
                };
            }
        });
        quote! {
            let path = path.into_inner();
            #(#fields)*
        }
    });
    let args = op.path_params.iter().map(|p| &p.field);
    // Every response of a deprecated operation carries its deprecation
    // headers, errors included.
    let headers = op.deprecation.as_ref().map(|_| {
        let headers = headers_struct_name(op);
        quote!(.with_headers(&#headers::new()))
    });
    quote! {
        async fn #fn_name(
            rqctx: ::dropshot::RequestContext<Self::Context>
            #params
        ) -> #ret {
            let handlers = rqctx.context();
            let reply = async {
                #authenticate
                #parse
                #[allow(deprecated)]
                let response = <H as #handlers_trait>::#fn_name(handlers, #caller #(#args),*).await;
                response.into_http()
            }
            .await;
            ::std::result::Result::Ok(reply #headers)
        }
    }
}
