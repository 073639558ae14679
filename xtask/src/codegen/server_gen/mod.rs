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
mod beside;
mod bodies;
mod checked_strings;
mod context;
mod endpoints;
mod error_impls;
mod errors;
mod model;
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

use crate::codegen::document::webhooks::Origin;
use crate::codegen::document::{self, Refusals, Spec, SpecError, SpecErrors, document_path};
use crate::codegen::rust_items::Items;

use self::adapter::adapter;
use self::context::{Context, type_prefix};
use self::endpoints::{endpoint_decl, handler_method};
use self::model::{Operation, describe};
use self::parameter_code::parameter_structs;
use self::response_code::response_enum;
use self::schemas::Schemas;
use self::tables::operation_table;
pub use self::types::untypable_components;
use self::types::{ErrorObject, Types, error_object};
use crate::codegen::namespace::Namespace;

/// The items every contract module declares whatever the document holds
/// (below), besides its traits' names.
const MODULE_ITEMS: [&str; 12] = [
    "types",
    "runtime",
    "webhooks",
    "BASE_PATH",
    "API_VERSION",
    "OPENAPI_DOCUMENT",
    "COMPONENTS",
    "OPERATIONS",
    "StrictServer",
    "api_description",
    "endpoint_versions",
    "register_endpoints",
];

/// The methods the handlers trait has before its operations' (from
/// `runtime::Authenticator`), and the API trait's document endpoint.
const TRAIT_METHODS: [&str; 3] = ["authenticate", "serving", "openapi_document"];

/// `document` is the spec as JSON, served by the server as it was written.
/// `sends`: the spec is a receiver's (its webhooks and callbacks, from
/// where each path comes), and gets a sender beside its contract. The
/// contract's items go to `out`, part by part.
pub fn generate(spec: &Spec, document: &str, sends: Option<&[Origin]>, out: &mut impl Items) -> Result<(), SpecErrors> {
    let base_path = document::mount_path(spec);
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
    let (mut operations, mut names) = described(spec, (&mut types, &mut schemas), &error, names, &base_path)?;

    // The routes the runtime registers (`runtime::routing`), over the same
    // paths: the operations' and the document's.
    let paths: Vec<&str> = operations
        .iter()
        .map(|op| op.http_path.as_str())
        .chain([document_path.as_str()])
        .collect();
    let routes = api_shared::routes::routes(&paths);
    let document_routed = routes.last().is_some_and(|route| *route != document_path);
    let (metrics_doc, metrics_endpoint) = beside::metrics(&paths);
    let methods: Vec<String> = operations.iter().map(|op| op.method.to_string()).collect();
    let written: Vec<(&str, &str)> = methods
        .iter()
        .zip(&operations)
        .map(|(method, op)| (method.as_str(), op.http_path.as_str()))
        .collect();
    let dispatched = api_shared::routes::dispatched(&written, &routes);
    for (op, routed) in operations.iter_mut().zip(dispatched) {
        op.routed = routed;
    }

    let sender = sends.map(|origins| sender::sender(&operations, origins, &mut names));
    let version = &spec.api.info.version;
    let invalid = |e: syn::Error| -> SpecErrors {
        SpecError::new("document", format!("the server generator emitted invalid Rust: {e}")).into()
    };

    // Part by part, so that a large document's whole syntax tree is never
    // held at once ([`Items`]); each operation's parts are parts of their
    // own.
    let type_tokens = types.tokens();
    out.push(quote! {
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
    })
    .map_err(invalid)?;
    drop(type_tokens);
    schemas.push_into(out).map_err(invalid)?;
    if let Some(error_impls) = error_impls::error_impls(&error) {
        out.push(error_impls).map_err(invalid)?;
    }
    for op in &operations {
        out.push(operation_table(op, &error)).map_err(invalid)?;
    }
    let tables_list = operations.iter().map(|op| &op.table);
    out.push(quote! {
        /// Every operation's table, in the spec's order.
        pub static OPERATIONS: &[&runtime::Operation] = &[#(&#tables_list),*];
    })
    .map_err(invalid)?;
    for op in &operations {
        out.push(parameter_structs(op)).map_err(invalid)?;
    }
    for op in &operations {
        out.push(response_enum(op)).map_err(invalid)?;
    }

    let (document_endpoint, trait_document_adapter, routed_document_adapter) =
        beside::document(document_routed, &document_path, error_type);
    push_traits(
        out,
        &operations,
        error_type,
        (&api_trait, &handlers_trait),
        trait_docs(&spec.api.info.title, &base_path, &handlers_trait),
        (document_endpoint, trait_document_adapter),
    )
    .map_err(invalid)?;
    let routed_adapters = operations
        .iter()
        .filter(|op| op.routed)
        .map(|op| adapter(op, &operations, error_type, &handlers_trait, &quote!(H)));
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
    let registering = registration::functions(
        &handlers_trait,
        &api_mod,
        (metrics_doc, metrics_endpoint),
        major_version(&spec.api.info.version),
        (registrations, not_allowed),
    );
    out.push(quote! {
        #routed_impl

        #registering

        #sender
    })
    .map_err(invalid)
}

/// The API trait (dropshot's endpoints), the handlers trait (what a
/// server implements) and `StrictServer`, which serves the one with the
/// other.
/// (`docs` are theirs, from [`trait_docs`]; `document` is the document
/// endpoint's declaration and adapter, from `beside::document`.)
fn push_traits(
    out: &mut impl Items,
    operations: &[Operation],
    error_type: &proc_macro2::TokenStream,
    (api_trait, handlers_trait): (&syn::Ident, &syn::Ident),
    (api_doc, handlers_doc, strict_doc): (String, String, String),
    (document_endpoint, trait_document_adapter): (Option<proc_macro2::TokenStream>, Option<proc_macro2::TokenStream>),
) -> syn::Result<()> {
    // An operation the runtime's dispatch serves is not an endpoint of the
    // API trait, whose description dropshot's router must hold: its
    // adapter is a function of `StrictServer` alone.
    let endpoints = operations
        .iter()
        .filter(|op| !op.routed)
        .map(|op| endpoint_decl(op, error_type));
    out.push(quote! {
        #[doc = #api_doc]
        #[::dropshot::api_description]
        pub trait #api_trait {
            type Context: #handlers_trait;

            #(#endpoints)*

            #document_endpoint
        }
    })?;
    let handler_methods = operations.iter().map(handler_method);
    out.push(quote! {
        #[doc = #handlers_doc]
        pub trait #handlers_trait: runtime::Authenticator + runtime::serving::Served {
            #(#handler_methods)*
        }

        #[doc = #strict_doc]
        pub struct StrictServer<H>(::std::marker::PhantomData<H>);
    })?;
    let adapters = operations
        .iter()
        .filter(|op| !op.routed)
        .map(|op| adapter(op, operations, error_type, handlers_trait, &quote!(Self::Context)));
    out.push(quote! {
        impl<H: #handlers_trait> #api_trait for StrictServer<H> {
            type Context = H;

            #(#adapters)*

            #trait_document_adapter
        }
    })
}

/// Each operation of the spec described for the templates, its types and
/// schemas added to `types` and `schemas`, its names taken from `names`;
/// every refusal at once.
fn described(
    spec: &Spec,
    (types, schemas): (&mut Types, &mut Schemas),
    error: &ErrorObject,
    names: Namespace,
    base_path: &str,
) -> Result<(Vec<Operation>, Namespace), SpecErrors> {
    let mut cx = Context {
        spec,
        types,
        schemas,
        error_ref: error
            .component
            .as_ref()
            .map(|name| format!("{}{name}", crate::codegen::schema::COMPONENTS_PREFIX)),
        names,
        methods: Namespace::reserving(TRAIT_METHODS),
    };
    let mut refusals = Refusals::default();
    let operations: Vec<_> = spec
        .operations()
        .iter()
        .filter_map(|op| refusals.note(describe(&mut cx, op, base_path)))
        .collect();
    let names = cx.names;
    refusals.note(schemas.verify());
    refusals.note(types.checked());
    refusals.finish(())?;
    Ok((operations, names))
}

/// The docs of the API trait, the handlers trait and `StrictServer`.
fn trait_docs(title: &str, base_path: &str, handlers_trait: &syn::Ident) -> (String, String, String) {
    let api_doc = format!(
        "The `{}` API as dropshot sees it: one endpoint per operation, under `{base_path}`.\n\n\
         Implemented by [`StrictServer`]; a server implements [`{handlers_trait}`] instead.",
        title
    );
    let handlers_doc = format!(
        "What a `{}` server implements: one method per operation, with typed inputs and a typed response.\n\n\
         The caller of a secured operation is authenticated (by [`runtime::Authenticator`]), and its \
         parameters and body are checked against the spec, before any method runs.",
        title
    );
    let strict_doc = format!(
        "Serves the dropshot API with a [`{handlers_trait}`] implementation: authentication, \
         parameter and body checks and response mapping live here, so an implementation cannot skip them."
    );
    (api_doc, handlers_doc, strict_doc)
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
