//! The client crate's code: progenitor's output, plus what progenitor does
//! not emit on its own (`#[deprecated]` on deprecated operations, and the
//! spec's servers as constants).

use heck::{ToShoutySnakeCase, ToSnakeCase};
use openapiv3::OpenAPI;
use progenitor_impl::{GenerationSettings, Generator, HooksMode, InterfaceStyle};
use quote::quote;

use crate::codegen::spec::{self, SpecError};

fn settings() -> GenerationSettings {
    let mut settings = GenerationSettings::new();
    settings
        .with_interface(InterfaceStyle::Positional)
        // The client holds the API key; `Expected` makes a missing auth hook
        // (the `ClientHooks` impl in the crate's lib.rs) a compile error
        // instead of silently sending unauthenticated requests.
        .with_inner_type(quote!(crate::ApiKey))
        .with_hooks(HooksMode::Expected);
    settings
}

pub fn generate(spec: &OpenAPI) -> Result<syn::File, SpecError> {
    let tokens = Generator::new(&settings())
        .generate_tokens(spec)
        .map_err(|e| SpecError {
            location: "document".into(),
            message: format!("progenitor: {e}"),
        })?;
    let mut file: syn::File = syn::parse2(tokens).map_err(|e| SpecError {
        location: "document".into(),
        message: format!("progenitor emitted invalid Rust: {e}"),
    })?;
    mark_deprecated(spec, &mut file);
    file.items.extend(server_constants(spec));
    Ok(file)
}

/// Typed httpmock mocks of every operation (progenitor's generator), for
/// consumers who test their code without a server: the client crate's
/// `mock` feature.
pub fn generate_mocks(spec: &OpenAPI) -> Result<syn::File, SpecError> {
    let tokens = Generator::new(&settings())
        .httpmock(spec, "crate")
        .map_err(|e| SpecError {
            location: "document".into(),
            message: format!("progenitor (httpmock): {e}"),
        })?;
    syn::parse2(tokens).map_err(|e| SpecError {
        location: "document".into(),
        message: format!("progenitor emitted invalid Rust for the mocks: {e}"),
    })
}

/// progenitor ignores `deprecated: true`; callers should see the warning,
/// with the sunset date when the spec gives one (`x-sunset`).
fn mark_deprecated(spec: &OpenAPI, file: &mut syn::File) {
    let deprecated: Vec<(String, String)> = spec::operations(spec)
        .into_iter()
        .filter(|op| op.operation.deprecated)
        .map(|op| {
            let note = match op.operation.extensions.get("x-sunset").and_then(|v| v.as_str()) {
                Some(sunset) => format!(
                    "`{}` is deprecated and will be removed on {sunset} (x-sunset)",
                    op.operation_id()
                ),
                None => format!("`{}` is deprecated; no sunset date is set yet", op.operation_id()),
            };
            (op.operation_id().to_snake_case(), note)
        })
        .collect();
    for item in &mut file.items {
        let syn::Item::Impl(imp) = item else { continue };
        for impl_item in &mut imp.items {
            let syn::ImplItem::Fn(f) = impl_item else { continue };
            if let Some((_, note)) = deprecated.iter().find(|(name, _)| f.sig.ident == name) {
                f.attrs.push(syn::parse_quote!(#[deprecated(note = #note)]));
            }
        }
    }
}

/// `PRODUCTION_BASE_URL`, `STAGING_BASE_URL`, ... named after each server's
/// description.
fn server_constants(spec: &OpenAPI) -> Vec<syn::Item> {
    spec.servers
        .iter()
        .enumerate()
        .map(|(i, server)| {
            let label = server.description.clone().unwrap_or_else(|| format!("server {i}"));
            let name = quote::format_ident!("{}_BASE_URL", label.to_shouty_snake_case());
            let url = &server.url;
            let doc = format!("The {label} base URL, from the spec's `servers`.");
            syn::parse_quote! {
                #[doc = #doc]
                pub const #name: &str = #url;
            }
        })
        .collect()
}
