//! The spec's servers as constants (`PRODUCTION_BASE_URL`, ...).

use heck::ToShoutySnakeCase;

use crate::codegen::document::{Spec, server_url};

/// `PRODUCTION_BASE_URL`, `STAGING_BASE_URL`, ... named after each server's
/// description (`SERVER_0_BASE_URL` without one), server variables at
/// their defaults. A relative URL stays relative: the consumer joins it
/// to the host the document came from.
pub(super) fn server_constants(spec: &Spec) -> Vec<syn::Item> {
    let mut names = std::collections::BTreeSet::new();
    spec.api
        .servers
        .iter()
        .enumerate()
        .filter_map(|(i, server)| {
            let url = server_url(server, &format!("servers.{i}")).ok()?;
            let label = server.description.clone().unwrap_or_else(|| format!("server {i}"));
            let mut name = format!("{}_BASE_URL", label.to_shouty_snake_case());
            if syn::parse_str::<syn::Ident>(&name).is_err() || !names.insert(name.clone()) {
                name = format!("SERVER_{i}_BASE_URL");
                names.insert(name.clone());
            }
            let name = quote::format_ident!("{name}");
            let doc = format!("The {label} base URL, from the spec's `servers`.");
            Some(syn::parse_quote! {
                #[doc = #doc]
                pub const #name: &str = #url;
            })
        })
        .collect()
}
