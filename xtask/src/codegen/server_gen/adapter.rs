//! The strict adapter: the generated endpoint body that authenticates the
//! caller, reads the parameters and the body by the operation's table,
//! calls the handler and sends its reply, so that no implementation can
//! skip a step, and a request without a key gets 401 before any 400.

use proc_macro2::TokenStream;
use quote::quote;

use super::endpoints::{dropshot_params, dropshot_return};
use super::model::Operation;
use super::parameter_code::{has_params, has_path, params_struct, path_struct};
use super::response_code::negotiates;

/// `context`: the server context's type as the enclosing impl names it
/// (`Self::Context` in the trait's impl, `H` beside it); `operations`:
/// all of them (an `OPTIONS` operation answers its path's CORS preflight).
pub(super) fn adapter(
    op: &Operation,
    operations: &[Operation],
    error_type: &TokenStream,
    handlers_trait: &syn::Ident,
    context: &TokenStream,
) -> TokenStream {
    let (fn_name, table) = (&op.fn_name, &op.table);
    let params = dropshot_params(op);
    let ret = dropshot_return(op, error_type);
    let authenticate_fn = match op.optional_auth() {
        true => quote!(authenticate_optional),
        false => quote!(authenticate_with),
    };
    // A CORS preflight to a path that documents `OPTIONS` reaches its
    // operation: answered before authentication (it carries no
    // credentials), from the path's operations.
    let preflight = (op.method == "OPTIONS").then(|| {
        let tables = path_tables(op, operations);
        quote! {
            if let ::std::option::Option::Some(preflight) = answering.preflight(handlers, &rqctx.request, &[#(&#tables),*]) {
                return ::std::result::Result::Ok(preflight);
            }
        }
    });
    let authenticate = op.requires_auth().then(|| {
        quote! {
            let caller = match runtime::#authenticate_fn(handlers, &rqctx.request, #table.security).await {
                ::std::result::Result::Ok(caller) => caller,
                ::std::result::Result::Err(rejection) => return rejection.into_reply(),
            };
        }
    });
    // Before anything is done for a caller that cannot read the answer.
    let negotiate = negotiates(op).then(|| {
        quote! {
            let accepted = match runtime::negotiate(&#table, rqctx.request.headers()) {
                ::std::result::Result::Ok(accepted) => accepted,
                ::std::result::Result::Err(problem) => return runtime::Reply::problem(406, problem),
            };
        }
    });
    let accepted = negotiates(op).then(|| quote!(&accepted));
    let mut args = Vec::new();
    match (op.requires_auth(), op.optional_auth()) {
        (true, true) => args.push(quote!(caller.as_ref())),
        (true, false) => args.push(quote!(&caller)),
        _ => {}
    }
    let read_parameters = (!op.parameters.is_empty()).then(|| {
        let path_ty = match has_path(op) {
            true => {
                let name = path_struct(op);
                quote!(#name)
            }
            false => quote!(runtime::NoParameters),
        };
        let params_ty = match has_params(op) {
            true => {
                let name = params_struct(op);
                quote!(#name)
            }
            false => quote!(runtime::NoParameters),
        };
        let path = match has_path(op) {
            true => quote!(path),
            false => quote!(_),
        };
        let params = match has_params(op) {
            true => quote!(params),
            false => quote!(_),
        };
        quote! {
            let (#path, #params) = match runtime::read_parameters::<#path_ty, #params_ty, _>(&#table, &rqctx) {
                ::std::result::Result::Ok(read) => read,
                ::std::result::Result::Err(problem) => return runtime::Reply::problem(400, problem),
            };
        }
    });
    for p in op.parameters.iter().filter(|p| p.in_path()) {
        let field = &p.field;
        args.push(quote!(path.#field));
    }
    if has_params(op) {
        args.push(quote!(params));
    }
    let read_body = op.body.as_ref().map(|body| {
        let read = body.read();
        quote! {
            let body = match #read {
                ::std::result::Result::Ok(body) => body,
                ::std::result::Result::Err(rejection) => return runtime::Reply::problem(rejection.status, rejection.problem),
            };
        }
    });
    if op.body.is_some() {
        args.push(quote!(body));
    }
    let read_handshake = op.upgrades().then(|| {
        quote! {
            let upgrade = match handshake.upgrade() {
                ::std::result::Result::Ok(upgrade) => upgrade,
                ::std::result::Result::Err((status, problem)) => return runtime::Reply::problem(status, problem),
            };
        }
    });
    if op.upgrades() {
        args.push(quote!(upgrade));
    }
    // Not an `async fn`: its arguments would be kept twice in its future
    // (as captured, and as locals), and dropshot moves every request's
    // future whole when it starts it. An `async move` block keeps them once.
    quote! {
        #[allow(clippy::manual_async_fn)]
        fn #fn_name(
            rqctx: ::dropshot::RequestContext<#context>
            #params
        ) -> impl ::std::future::Future<Output = #ret> + ::std::marker::Send + 'static {
          async move {
            let handlers = rqctx.context();
            let answering = runtime::serving::Answering::start(&rqctx);
            #preflight
            let reply = answering.within(async {
                #authenticate
                #negotiate
                #read_parameters
                #read_body
                #read_handshake
                #[allow(deprecated)]
                let response = <H as #handlers_trait>::#fn_name(handlers, #(#args),*).await;
                response.into_http(#accepted)
            })
            .await;
            ::std::result::Result::Ok(answering.finish(&#table, reply))
          }
        }
    }
}

/// The tables of the operations on `op`'s path.
pub(super) fn path_tables<'a>(op: &Operation, operations: &'a [Operation]) -> Vec<&'a syn::Ident> {
    operations
        .iter()
        .filter(|other| other.http_path == op.http_path)
        .map(|other| &other.table)
        .collect()
}
