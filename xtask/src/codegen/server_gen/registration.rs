//! `register_endpoints`: every endpoint of one document registered on an
//! `ApiDescription` that may already hold another major's, so that one
//! server serves `/v1` and `/v2` side by side; paths dropshot's router
//! cannot hold go through the runtime's dispatch (`runtime::routing`).
//!
//! dropshot's `#[api_description]` builds a description of its own, and
//! two descriptions cannot be merged; so the generator registers the trait's
//! endpoints itself, with the metadata the macro would give them. The
//! agreement tests check that the served description emits, version by
//! version, the document the trait's stub description emits.

use proc_macro2::TokenStream;
use quote::quote;

use super::model::Operation;

/// The functions that describe and register this version's endpoints:
/// `api_description` (with `GET /metrics`, `metrics`, when there is room),
/// `endpoint_versions` (of `major`), `register_endpoints` (with the
/// operations' and the 405 answers' `registrations`) and
/// `stub_api_description`.
pub(super) fn functions(
    handlers_trait: &syn::Ident,
    api_mod: &syn::Ident,
    (metrics_doc, metrics_endpoint): (&str, Option<TokenStream>),
    major: u64,
    (registrations, not_allowed): (TokenStream, TokenStream),
) -> TokenStream {
    quote! {
    #[doc = #metrics_doc]
    pub fn api_description<H: #handlers_trait>(
    ) -> ::std::result::Result<::dropshot::ApiDescription<H>, runtime::ApiDescriptionError> {
        let mut api = ::dropshot::ApiDescription::new();
        register_endpoints(&mut api, ::dropshot::ApiEndpointVersions::all)?;
        #metrics_endpoint
        ::std::result::Result::Ok(api)
    }

    /// The versions this major answers for in a server that serves
    /// several majors side by side: from `#major.0.0` up to the next
    /// major.
    pub fn endpoint_versions() -> ::dropshot::ApiEndpointVersions {
        runtime::major_versions(#major)
    }

    /// Registers this version's endpoints on `api`, which may hold
    /// another major's already: one per operation, the document's, and a
    /// hidden endpoint answering 405 (the Error object and `Allow`) for
    /// each method a path does not document. Each answers for
    /// `versions()`: `ApiEndpointVersions::all` in a server of this
    /// version alone, [`endpoint_versions`] beside other majors (with a
    /// version policy that tells the major by the path, such as
    /// [`runtime::VersionByPath`]).
    // One statement per endpoint, whatever the spec holds.
    #[allow(clippy::vec_init_then_push)]
    pub fn register_endpoints<H: #handlers_trait>(
        api: &mut ::dropshot::ApiDescription<H>,
        versions: fn() -> ::dropshot::ApiEndpointVersions,
    ) -> ::std::result::Result<(), runtime::ApiDescriptionError> {
        let mut endpoints = ::std::vec::Vec::new();
        #registrations
        #not_allowed
        runtime::register_routed(api, endpoints)?;
        // Each operation's request metrics, scraped before its first request.
        runtime::metrics::declare(OPERATIONS);
        ::std::result::Result::Ok(())
    }

    /// The API description without an implementation, for generating
    /// the OpenAPI document dropshot sees.
    pub fn stub_api_description(
    ) -> ::std::result::Result<::dropshot::ApiDescription<::dropshot::StubContext>, ::dropshot::ApiDescriptionBuildErrors> {
        #api_mod::stub_api_description()
    }
    }
}

/// Statements that add each operation's endpoint and the document's to
/// `endpoints`, each answering for `versions`; `runtime::register_routed`
/// registers them. An operation the runtime's dispatch serves (`routed`)
/// has its adapter on `StrictServer` itself, not in the trait.
pub(super) fn registrations(
    operations: &[Operation],
    document_path: &str,
    document_routed: bool,
    api_trait: &syn::Ident,
) -> TokenStream {
    let adapter = |fn_name: &syn::Ident, routed: bool| match routed {
        true => quote!(StrictServer::<H>::#fn_name),
        false => quote!(<StrictServer<H> as #api_trait>::#fn_name),
    };
    let operations = operations.iter().map(|op| {
        let (method, path, id) = (&op.method, &op.http_path, &op.id);
        let handler = adapter(&op.fn_name, op.routed);
        let (summary, description) = summary_and_description(&op.doc);
        let summary = summary.map(|s| quote!(.summary(#s)));
        let description = description.map(|d| quote!(.description(#d)));
        let tags = op.tags.iter().map(|tag| quote!(.tag(#tag)));
        let deprecated = op.deprecated.then(|| quote!(.deprecated(true)));
        quote! {
            endpoints.push(
                ::dropshot::ApiEndpoint::new(
                    #id.to_string(),
                    #handler,
                    ::dropshot::Method::#method,
                    "application/json",
                    #path,
                    versions(),
                )
                #summary
                #description
                #(#tags)*
                #deprecated
            );
        }
    });
    let document = adapter(&quote::format_ident!("openapi_document"), document_routed);
    quote! {
        #(#operations)*
        endpoints.push(
            ::dropshot::ApiEndpoint::new(
                "openapi_document".to_string(),
                #document,
                ::dropshot::Method::GET,
                "application/json",
                #document_path,
                versions(),
            )
            .visible(false),
        );
    }
}

/// The summary and description dropshot's macro takes from an endpoint's
/// doc comment: the first non-empty line, then the rest, lines joined by a
/// space and paragraphs by a blank line.
pub(super) fn summary_and_description(doc: &str) -> (Option<String>, Option<String>) {
    let mut lines = doc.split('\n').enumerate().map(|(i, line)| {
        let line = line.trim();
        match i {
            0 => line,
            _ => line
                .strip_prefix("* ")
                .or_else(|| line.strip_prefix('*'))
                .unwrap_or(line),
        }
    });
    let mut next_non_empty = || lines.by_ref().find(|line| !line.is_empty()).map(str::to_string);
    let summary = next_non_empty();
    let first = next_non_empty();
    let description = first.map(|first| {
        let joined = lines.fold(first, |acc, line| {
            if acc.ends_with('-') || acc.ends_with('\n') || acc.is_empty() {
                format!("{acc}{line}")
            } else if line.is_empty() {
                format!("{acc}\n\n")
            } else {
                format!("{acc} {line}")
            }
        });
        joined.trim_end().to_string()
    });
    (summary, description)
}

#[cfg(test)]
mod tests {
    use super::summary_and_description;

    #[test]
    fn a_summary_then_paragraphs_joined_as_dropshot_joins_them() {
        let (summary, description) =
            summary_and_description("Cancel an order\n\nCancels it.\nOnly pending.\n\nAgain: 404.");
        assert_eq!(summary.as_deref(), Some("Cancel an order"));
        assert_eq!(description.as_deref(), Some("Cancels it. Only pending.\n\nAgain: 404."));
    }

    #[test]
    fn a_summary_alone_has_no_description() {
        assert_eq!(summary_and_description("listOrders"), (Some("listOrders".into()), None));
    }
}
