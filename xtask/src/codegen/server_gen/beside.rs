//! What a server serves beside the spec's operations: the document it was
//! generated from (`GET`, unpublished and open), and the request metrics
//! at `GET /metrics` where the spec's paths leave room for it.

use proc_macro2::TokenStream;
use quote::quote;

/// The doc of `api_description`, and the statement that registers
/// `GET /metrics` unless one of `paths` would take its place (a first
/// segment `metrics`, or a variable there).
pub(super) fn metrics(paths: &[&str]) -> (&'static str, Option<TokenStream>) {
    // `GET /metrics` beside the spec's paths, unless one of them would
    // take its place (a first segment `metrics`, or a variable there).
    let metrics_free = paths.iter().all(|path| {
        let first = path.trim_start_matches('/').split('/').next().unwrap_or_default();
        first != "metrics" && !first.contains('{')
    });
    match metrics_free {
        true => (
            "The dropshot API description of a server of this version alone, built on `H`: see \
             [`register_endpoints`], and the request metrics at `GET /metrics` ([`runtime::metrics`]).",
            Some(quote!(runtime::metrics::register_endpoint(&mut api)?;)),
        ),
        false => (
            "The dropshot API description of a server of this version alone, built on `H`: see \
             [`register_endpoints`]. The spec's paths leave no room for `GET /metrics`: serve \
             [`runtime::metrics::encode`] elsewhere.",
            None,
        ),
    }
}

/// The document's endpoint in the API trait (none when the runtime's
/// dispatch serves it, `document_routed`), and its adapter: in the trait's impl,
/// or on `StrictServer` when routed.
pub(super) fn document(
    document_routed: bool,
    document_path: &str,
    error_type: &TokenStream,
) -> (Option<TokenStream>, Option<TokenStream>, Option<TokenStream>) {
    let document_endpoint = (!document_routed).then(|| {
        quote! {
            /// The OpenAPI document this API was generated from. Not part of
            /// the contract: unpublished, and open without a key.
            #[endpoint { method = GET, path = #document_path, unpublished = true }]
            async fn openapi_document(
                rqctx: ::dropshot::RequestContext<Self::Context>,
            ) -> ::std::result::Result<::dropshot::HttpResponseOk<::serde_json::Value>, #error_type>;
        }
    });
    let document_context = match document_routed {
        true => quote!(H),
        false => quote!(Self::Context),
    };
    let document_adapter = quote! {
        async fn openapi_document(
            _rqctx: ::dropshot::RequestContext<#document_context>,
        ) -> ::std::result::Result<::dropshot::HttpResponseOk<::serde_json::Value>, #error_type> {
            static DOCUMENT: ::std::sync::LazyLock<::serde_json::Value> = ::std::sync::LazyLock::new(|| {
                ::serde_json::from_str(OPENAPI_DOCUMENT).unwrap_or(::serde_json::Value::Null)
            });
            ::std::result::Result::Ok(::dropshot::HttpResponseOk(DOCUMENT.clone()))
        }
    };
    match document_routed {
        true => (document_endpoint, None, Some(document_adapter)),
        false => (document_endpoint, Some(document_adapter), None),
    }
}
