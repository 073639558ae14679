//! The server side of the contract: the spec's types (typify), a table per
//! operation, a `#[dropshot::api_description]` trait, and the strict layer
//! between the two.
//!
//! The strict layer follows oapi-codegen's strict server: the hand-written
//! server implements one plain method per operation, with typed inputs,
//! that returns a response enum with one variant per documented status, so
//! an undocumented status does not compile. Generated code authenticates
//! the caller before that method runs, reads and validates the parameters
//! and the body (by the operation's table, in `api-runtime`), and turns
//! every error into the spec's Error object.
//!
//! One concern per file: [`model`] (the spec read into operations, with
//! [`parameters`], [`bodies`] and [`responses`]), [`types`], [`schemas`],
//! [`tables`], [`endpoints`] (the traits' declarations), [`adapter`] (the
//! strict layer), [`registration`] (the endpoints on a description that
//! may hold other majors'), [`not_allowed`] (405s) and, for a receiver's
//! contract (webhooks), [`sender`].

mod adapter;
mod bodies;
mod context;
mod endpoints;
mod errors;
mod model;
mod namespace;
mod not_allowed;
mod parameter_code;
mod parameters;
mod registration;
mod response_code;
mod responses;
mod schemas;
mod sender;
mod tables;
mod types;

use heck::ToSnakeCase;
use quote::{format_ident, quote};

use crate::codegen::spec::webhooks::Origin;
use crate::codegen::spec::{self, Refusals, Spec, SpecError, SpecErrors, document_path};

use self::adapter::adapter;
use self::context::{Context, type_prefix};
use self::endpoints::{endpoint_decl, handler_method};
use self::model::describe;
use self::namespace::{MODULE_ITEMS, Namespace, TRAIT_METHODS};
use self::parameter_code::parameter_structs;
use self::response_code::response_enum;
use self::schemas::Schemas;
use self::tables::operation_table;
pub use self::types::untypable_components;
use self::types::{Types, error_object};

/// `document` is the spec as JSON, served by the server as it was written.
/// `sends`: the spec is a receiver's (its webhooks and callbacks, from
/// where each path comes), and gets a sender beside its contract.
pub fn generate(spec: &Spec, document: &str, sends: Option<&[Origin]>) -> Result<syn::File, SpecErrors> {
    let base_path = spec::mount_path(spec);
    let document_path = format!("{base_path}{}", document_path(&spec.api));
    let error = error_object(spec)?;
    let error_type = &error.path;
    let mut types = Types::new(spec)?;
    let mut schemas = Schemas::new(spec)?;
    let title = type_prefix(&spec.api.info.title);
    let api_trait = format_ident!("{title}Api");
    let handlers_trait = format_ident!("{title}Handlers");
    let api_mod = format_ident!("{}_mod", api_trait.to_string().to_snake_case());
    let mut names = Namespace::reserving(MODULE_ITEMS);
    for name in [&api_trait, &handlers_trait, &api_mod] {
        names.reserve(&name.to_string());
    }
    let mut cx = Context {
        spec,
        types: &mut types,
        schemas: &mut schemas,
        error_ref: error
            .component
            .as_ref()
            .map(|name| format!("{}{name}", crate::codegen::schema::COMPONENTS_PREFIX)),
        names,
        methods: Namespace::reserving(TRAIT_METHODS),
    };
    let mut refusals = Refusals::default();
    let mut operations: Vec<_> = spec
        .operations()
        .iter()
        .filter_map(|op| refusals.note(describe(&mut cx, op, &base_path)))
        .collect();
    let mut names = cx.names;
    refusals.note(schemas.verify());
    refusals.note(types.checked());
    refusals.finish(())?;

    // The routes the runtime registers (`runtime::routing`), over the same
    // paths: the operations' and the document's.
    let paths: Vec<&str> = operations
        .iter()
        .map(|op| op.http_path.as_str())
        .chain([document_path.as_str()])
        .collect();
    let routes = api_shared::routes::routes(&paths);
    let document_routed = routes.last().is_some_and(|route| *route != document_path);
    // `GET /metrics` beside the spec's paths, unless one of them would
    // take its place (a first segment `metrics`, or a variable there).
    let metrics_free = paths.iter().all(|path| {
        let first = path.trim_start_matches('/').split('/').next().unwrap_or_default();
        first != "metrics" && !first.contains('{')
    });
    let (metrics_doc, metrics_endpoint) = match metrics_free {
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
    };
    for (op, route) in operations.iter_mut().zip(&routes) {
        op.routed = api_shared::routes::served_by_dispatch(&op.method.to_string(), &op.http_path, route);
    }

    let type_tokens = types.tokens();
    let schema_tokens = schemas.tokens();
    let tables = operations.iter().map(|op| operation_table(op, &error));
    let tables_list = operations.iter().map(|op| &op.table);
    let parameter_structs = operations.iter().map(parameter_structs);
    let response_enums = operations.iter().map(response_enum);
    // An operation the runtime's dispatch serves is not an endpoint of the
    // API trait, whose description dropshot's router must hold: its
    // adapter is a function of `StrictServer` alone.
    let endpoints = operations
        .iter()
        .filter(|op| !op.routed)
        .map(|op| endpoint_decl(op, error_type));
    let handler_methods = operations.iter().map(handler_method);
    let adapters = operations
        .iter()
        .filter(|op| !op.routed)
        .map(|op| adapter(op, &operations, error_type, &handlers_trait, &quote!(Self::Context)));
    let routed_adapters = operations
        .iter()
        .filter(|op| op.routed)
        .map(|op| adapter(op, &operations, error_type, &handlers_trait, &quote!(H)));
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
    let (trait_document_adapter, routed_document_adapter) = match document_routed {
        true => (None, Some(document_adapter)),
        false => (Some(document_adapter), None),
    };
    let routed_impl = (operations.iter().any(|op| op.routed) || document_routed).then(|| {
        quote! {
            /// The adapters of the operations `runtime::routing` serves
            /// beyond dropshot's router (not endpoints of the trait).
            impl<H: #handlers_trait> StrictServer<H> {
                #(#routed_adapters)*

                #routed_document_adapter
            }
        }
    });
    let not_allowed = not_allowed::registrations(&operations, &document_path, error_type);
    let registrations = registration::registrations(&operations, &document_path, document_routed, &api_trait);
    let major = major_version(&spec.api.info.version);
    let sender = sends.map(|origins| sender::sender(&operations, origins, &mut names));

    let api_doc = format!(
        "The `{}` API as dropshot sees it: one endpoint per operation, under `{base_path}`.\n\n\
         Implemented by [`StrictServer`]; a server implements [`{handlers_trait}`] instead.",
        spec.api.info.title
    );
    let handlers_doc = format!(
        "What a `{}` server implements: one method per operation, with typed inputs and a typed response.\n\n\
         The caller of a secured operation is authenticated (by [`runtime::Authenticator`]), and its \
         parameters and body are checked against the spec, before any method runs.",
        spec.api.info.title
    );
    let strict_doc = format!(
        "Serves the dropshot API with a [`{handlers_trait}`] implementation: authentication, \
         parameter and body checks and response mapping live here, so an implementation cannot skip them."
    );
    let version = &spec.api.info.version;
    // The spec's Error object serves as dropshot's error type; problem
    // details bring their own impls from the runtime.
    let error_impls = error.component.as_ref().map(|error_name| {
        quote! {
        impl ::std::fmt::Display for #error_type {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, "{} {}: {}", self.status, self.code, self.message)
            }
        }

        impl ::dropshot::HttpResponseError for #error_type {
            fn status_code(&self) -> ::dropshot::ErrorStatusCode {
                u16::try_from(self.status)
                    .ok()
                    .and_then(|s| ::dropshot::ErrorStatusCode::from_u16(s).ok())
                    .unwrap_or(::dropshot::ErrorStatusCode::INTERNAL_SERVER_ERROR)
            }
        }

        /// dropshot's own errors (a request it cannot route or read) also
        /// leave as the spec's error object.
        impl ::std::convert::From<::dropshot::HttpError> for #error_type {
            fn from(error: ::dropshot::HttpError) -> Self {
                let status = error.status_code.as_u16();
                Self::from_problem(status, runtime::Problem::from(error))
            }
        }

        impl #error_type {
            /// The error object for `status`: `status` in the body always
            /// equals the HTTP status.
            pub fn from_problem(status: u16, problem: runtime::Problem) -> Self {
                Self {
                    code: problem.code,
                    message: problem.message,
                    status: status.into(),
                }
            }
        }

        /// dropshot documents error responses by this type's schema: the
        /// spec's.
        impl ::schemars::JsonSchema for #error_type {
            fn schema_name() -> ::std::string::String {
                #error_name.to_string()
            }

            fn json_schema(generator: &mut ::schemars::r#gen::SchemaGenerator) -> ::schemars::schema::Schema {
                COMPONENTS.register(generator);
                COMPONENTS.doc_schema(#error_name)
            }
        }
        }
    });

    let tokens = quote! {
        use crate::runtime;

        /// Types from the spec's schemas (typify).
        #[allow(clippy::all)]
        pub mod types {
            #type_tokens
        }

        /// The path the spec's `servers` share; every endpoint is served under it.
        pub const BASE_PATH: &str = #base_path;

        /// The spec's `info.version`.
        pub const API_VERSION: &str = #version;

        /// The OpenAPI document this code was generated from, as JSON. The
        /// server serves it (unauthenticated, outside the contract) at
        /// `#document_path`.
        pub const OPENAPI_DOCUMENT: &str = #document;

        #schema_tokens

        #error_impls

        #(#tables)*

        /// Every operation's table, in the spec's order.
        pub static OPERATIONS: &[&runtime::Operation] = &[#(&#tables_list),*];

        #(#parameter_structs)*

        #(#response_enums)*

        #[doc = #api_doc]
        #[::dropshot::api_description]
        pub trait #api_trait {
            type Context: #handlers_trait;

            #(#endpoints)*

            #document_endpoint
        }

        #[doc = #handlers_doc]
        pub trait #handlers_trait: runtime::Authenticator {
            #(#handler_methods)*
        }

        #[doc = #strict_doc]
        pub struct StrictServer<H>(::std::marker::PhantomData<H>);

        impl<H: #handlers_trait> #api_trait for StrictServer<H> {
            type Context = H;

            #(#adapters)*

            #trait_document_adapter
        }

        #routed_impl

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

        #sender
    };
    syn::parse2(tokens)
        .map_err(|e| SpecError::new("document", format!("the server generator emitted invalid Rust: {e}")).into())
}

/// The major of `info.version`: it decides which versions the endpoints
/// answer for beside other majors. Real documents write `1.0.0`, `v1`,
/// `2.1` or a date; the leading number is the major, and a version
/// without one (`latest`) is major 0. Lint asks our own specs for a
/// semantic version; generation takes what the designer wrote.
fn major_version(version: &str) -> u64 {
    let digits: String = version
        .trim()
        .trim_start_matches(['v', 'V'])
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().unwrap_or(0)
}

#[cfg(test)]
mod tests;
