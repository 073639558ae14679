//! The client crate's code: progenitor's output, plus what progenitor does
//! not emit on its own (`#[deprecated]` on deprecated operations, the
//! spec's servers as constants, date-times in paths and headers written
//! as RFC 3339, forms with lists and objects, cookie parameters, query
//! objects in the styles progenitor does not write, multipart bodies, the
//! credentials, and retries).

mod cookies;
mod credentials;
mod date_times;
mod deprecated;
mod event_streams;
mod for_progenitor;
mod forms;
mod left_out;
mod media_types;
mod methods;
mod multipart;
mod output_fixes;
mod pages;
mod panics;
mod parameter_values;
mod query_objects;
mod retries;
mod routes;
mod servers;
mod typed_responses;
mod wire_names;

use progenitor_impl::{GenerationSettings, Generator, HooksMode, InterfaceStyle};
use quote::quote;

use super::no_panic::refusing_panics;
use super::targets::{ClientCredentials, ClientInterface};
use crate::codegen::document::{Spec, SpecError, SpecErrors};
use date_times::write_date_times_as_rfc3339;
use deprecated::mark_deprecated;
use for_progenitor::{Cookies, MultipartBodies, for_progenitor, wire_names};
use left_out::left_out_of_the_client;
use output_fixes::{ListItemsIndented, MethodsReqwestLacks, OneCatchAll};
use servers::server_constants;

fn settings(credentials: ClientCredentials, interface: ClientInterface) -> GenerationSettings {
    let mut settings = GenerationSettings::new();
    let inner = match credentials {
        ClientCredentials::CrateApiKey => quote!(crate::ApiKey),
        ClientCredentials::Generated => quote!(Credentials),
    };
    settings
        .with_interface(match interface {
            ClientInterface::Positional => InterfaceStyle::Positional,
            ClientInterface::Builder => InterfaceStyle::Builder,
        })
        // The client holds its credentials; `Expected` makes a missing
        // auth hook (the crate's own, or the generated one) a compile
        // error instead of silently sending unauthenticated requests.
        .with_inner_type(inner)
        .with_hooks(HooksMode::Expected);
    settings
}

/// Runs progenitor, whose panic becomes a refusal.
fn progenitor<T>(what: &str, run: impl FnOnce() -> Result<T, progenitor_impl::Error>) -> Result<T, SpecError> {
    refusing_panics("document", &format!("progenitor ({what})"), || {
        run().map_err(|e| SpecError::new("document", format!("progenitor ({what}): {e}")))
    })
}

pub fn generate(
    spec: &Spec,
    credentials: ClientCredentials,
    interface: ClientInterface,
) -> Result<syn::File, SpecErrors> {
    let multipart = MultipartBodies::AsBytes;
    let api = for_progenitor(spec, Cookies::AsHeaders, multipart);
    let generate = |api: &openapiv3::OpenAPI| {
        progenitor("client", || {
            Generator::new(&settings(credentials, interface)).generate_tokens(api)
        })
    };
    let mut tokens = match generate(&api) {
        Ok(tokens) => tokens,
        // A failure blamed on the document: within the operation it
        // belongs to (if one alone fails), the schema to type as any JSON
        // value, or else the operation, to refuse.
        Err(error) => {
            let fails = |api: &openapiv3::OpenAPI| generate(api).err().map(|e| e.message);
            return Err(match panics::culprit(&api, &fails) {
                Some(culprit) => panics::untypable_schema(spec, &api, &culprit, &fails)
                    .unwrap_or(culprit)
                    .into(),
                // Not an operation's: the components'.
                None => match panics::untypable_components(&api, &error.message, &fails) {
                    Some(untypable) => SpecErrors(untypable),
                    None => error.into(),
                },
            });
        }
    };
    if credentials == ClientCredentials::Generated {
        tokens.extend(credentials::credentials(spec));
    }
    let mut file: syn::File =
        syn::parse2(tokens).map_err(|e| SpecError::new("document", format!("progenitor emitted invalid Rust: {e}")))?;
    // First: the rewrites below find parameters by the names they are sent as.
    wire_names::restore_wire_names(&mut file, &wire_names(&api));
    mark_deprecated(spec, &mut file);
    write_date_times_as_rfc3339(spec, &mut file)?;
    forms::write_structured_forms(spec, &mut file)?;
    multipart::send_multipart_bodies(spec, &mut file)?;
    typed_responses::type_responses(spec, &api, &mut file)?;
    media_types::send_media_types(spec, &mut file)?;
    parameter_values::write_parameter_values(spec, &mut file)?;
    cookies::send_cookie_parameters(spec, &mut file)?;
    query_objects::write_query_objects(spec, &mut file)?;
    pages::add_streams(spec, &mut file, interface)?;
    event_streams::add_item_streams(spec, &mut file, interface)?;
    syn::visit_mut::VisitMut::visit_file_mut(&mut MethodsReqwestLacks, &mut file);
    syn::visit_mut::VisitMut::visit_file_mut(&mut ListItemsIndented, &mut file);
    syn::visit_mut::VisitMut::visit_file_mut(&mut OneCatchAll, &mut file);
    retries::add_retries(&mut file);
    file.items.push(routes::operation_routes(spec));
    file.items.extend(server_constants(spec));
    file.items.push(left_out_of_the_client(spec, multipart));
    Ok(file)
}

/// Typed httpmock mocks of every operation (progenitor's generator), for
/// consumers who test their code without a server: the client crate's
/// `mock` feature. `client_module` is the Rust path of the module the
/// client is generated into.
pub fn generate_mocks(
    spec: &Spec,
    client_module: &str,
    credentials: ClientCredentials,
    interface: ClientInterface,
) -> Result<syn::File, SpecError> {
    let api = for_progenitor(spec, Cookies::Left, MultipartBodies::LeftOut);
    let tokens = progenitor("httpmock", || {
        Generator::new(&settings(credentials, interface)).httpmock(&api, client_module)
    })?;
    let mut file = syn::parse2(tokens).map_err(|e| {
        SpecError::new(
            "document",
            format!("progenitor emitted invalid Rust for the mocks: {e}"),
        )
    })?;
    wire_names::restore_wire_names(&mut file, &wire_names(&api));
    Ok(file)
}
