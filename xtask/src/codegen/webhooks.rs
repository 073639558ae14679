//! The `webhooks` module of a server contract: its webhooks and
//! callbacks ([`document::webhooks`]) generated as the contract of a receiver
//! (the same generated layer: validation, metrics), with the sender the
//! service sends them by. Generated operation by operation, as a
//! document is: a webhook the generator cannot map is refused alone,
//! with where and why, and never the document.
//!
//! The receiver's document holds the spec's components, so its types are
//! the contract's: those that are the same item for item are the
//! contract's own (`pub use super::super::types::*`), and the service
//! sends the very values it serves.

use std::collections::BTreeSet;

use quote::quote;

use super::document::leave_out::LeftOut;
use super::document::webhooks::Origin;
use super::document::{self, SpecErrors};
use super::reading::document_json;
use super::rust_items::empty_file;
use super::server_gen;
use super::until_generated::until_generated;

/// The module, and what of it was refused.
pub(super) struct Module {
    /// `pub mod webhooks { ... }`; `None` when every webhook was refused.
    pub(super) item: Option<syn::Item>,
    pub(super) refused: Vec<LeftOut>,
    /// How many webhooks and callbacks it sends and receives.
    pub(super) operations: usize,
}

/// The receiver's document of `text` (the document's 3.0 text); `None`
/// when the document has no webhook and no callback.
pub(super) fn receiver(text: &str) -> Option<document::webhooks::ReceiverDocument> {
    let document: serde_norway::Value = serde_norway::from_str(text).ok()?;
    document::webhooks::receiver_document(&document)
}

/// The items of the contract a receiver's module shares
/// ([`share_types`], [`share_components`]): the `types` module, impls
/// and `COMPONENTS`. The module is given these alone.
pub(super) fn shared_with_receiver(item: &syn::Item) -> bool {
    match item {
        syn::Item::Mod(module) => module.ident == "types",
        syn::Item::Impl(_) => true,
        syn::Item::Static(s) => s.ident == "COMPONENTS",
        _ => false,
    }
}

/// The webhooks module of `receiver`, beside the contract whose items
/// [`shared_with_receiver`] are `contract`.
pub(super) fn module(receiver: &document::webhooks::ReceiverDocument, contract: &syn::File) -> Module {
    let origins = &receiver.origins;
    // Mistakes in a webhook are read as they are in a path.
    let (mut text, _) = document::tolerate::tolerate(&receiver.text);
    let mut tolerated = Vec::new();
    let mut refused = Vec::new();
    let mut degraded = std::collections::BTreeMap::new();
    let generated = until_generated(
        &mut text,
        &mut tolerated,
        &mut refused,
        &mut degraded,
        |text, _, degraded| {
            let mut spec = document::parse(text)?;
            spec.degraded = server_gen::untypable_components(&spec);
            spec.degraded_inline = degraded.clone();
            let document = document_json(text)?;
            let mut file = empty_file();
            server_gen::generate(&spec, &document, Some(origins), &mut file).map(|()| file)
        },
    );
    let mut refused: Vec<LeftOut> = refused.into_iter().map(|left| at_origin(left, origins)).collect();
    let total = operation_count(&receiver.text);
    let item = match generated {
        Ok(mut file) if refused.len() < total => {
            share_types(contract, &mut file);
            share_components(contract, &mut file);
            let items = file.items;
            Some(syn::parse_quote! {
                /// The spec's webhooks and callbacks: the contract of a
                /// receiver (a server of its own, each at `/<name>`: see
                /// [`webhooks::api_description`](api_description)), and
                /// the [`Sender`] the service sends them with.
                pub mod webhooks {
                    #(#items)*
                }
            })
        }
        Ok(_) => None,
        Err(errors) => {
            refused = everything_refused(origins, &errors);
            None
        }
    };
    let operations = match item {
        Some(_) => total - refused.len(),
        None => 0,
    };
    Module {
        item,
        refused,
        operations,
    }
}

/// How many operations the receiver's document has.
fn operation_count(text: &str) -> usize {
    let document: serde_norway::Value = serde_norway::from_str(text).unwrap_or_default();
    document
        .get("paths")
        .and_then(serde_norway::Value::as_mapping)
        .into_iter()
        .flatten()
        .map(|(_, item)| document::METHODS.iter().filter(|m| item.get(**m).is_some()).count())
        .sum()
}

/// A refusal named where the webhook is written, not at the receiver's
/// path: `POST webhooks.shapeAdded (shapeAdded)`.
fn at_origin(left: LeftOut, origins: &[Origin]) -> LeftOut {
    let mut operation = left.operation.clone();
    let mut reason = left.reason.clone();
    if let Some((method, path)) = left.method_and_path()
        && let Some(origin) = origins.iter().find(|o| o.path == path)
    {
        operation = operation.replacen(&format!("{method} {path}"), &format!("{method} {}", origin.location), 1);
    }
    for origin in origins {
        reason = reason.replace(&format!("paths.{}.", origin.path), &format!("{}.", origin.location));
    }
    LeftOut { operation, reason }
}

/// Every webhook, refused for `errors` (which belong to none alone).
fn everything_refused(origins: &[Origin], errors: &SpecErrors) -> Vec<LeftOut> {
    let reason = errors
        .0
        .iter()
        .map(|e| format!("refused at {}: {}", e.location, e.message))
        .collect::<Vec<_>>()
        .join("; ");
    origins
        .iter()
        .map(|origin| LeftOut {
            operation: origin.location.clone(),
            reason: reason.split_whitespace().collect::<Vec<_>>().join(" "),
        })
        .collect()
}

/// The receiver's types that are the contract's, item for item, are
/// taken from it: a glob import of the contract's `types`, which the
/// receiver's own items (those that differ) shadow; and the receiver's
/// impls on a shared type that the contract has already go.
fn share_types(contract: &syn::File, receiver: &mut syn::File) {
    let (Some(ours), Some(theirs)) = (types_items(&contract.items), types_module(&mut receiver.items)) else {
        return;
    };
    let ours: BTreeSet<String> = ours.iter().map(|item| quote!(#item).to_string()).collect();
    let mut shared = BTreeSet::new();
    let Some((_, items)) = &mut theirs.content else { return };
    items.retain(|item| {
        let same = ours.contains(&quote!(#item).to_string());
        if same && let Some(name) = type_name(item) {
            shared.insert(name);
        }
        !same
    });
    items.insert(
        0,
        syn::parse_quote!(
            pub use super::super::types::*;
        ),
    );
    let contract_impls: BTreeSet<String> = contract
        .items
        .iter()
        .filter(|item| matches!(item, syn::Item::Impl(_)))
        .map(|item| quote!(#item).to_string())
        .collect();
    receiver.items.retain(|item| match item {
        syn::Item::Impl(imp) => {
            // On a type of `types` (`impl Display for types::Error`), not
            // on an item of the module's own that has its name (an
            // operation's marker `CallHangup` beside a type `CallHangup`).
            let on_shared = match &*imp.self_ty {
                syn::Type::Path(path) => {
                    let segments: Vec<String> = path.path.segments.iter().map(|s| s.ident.to_string()).collect();
                    matches!(segments.as_slice(), [module, name] if module == "types" && shared.contains(name))
                }
                _ => false,
            };
            !(on_shared && contract_impls.contains(&quote!(#item).to_string()))
        }
        _ => true,
    });
}

/// The receiver's table of component schemas, when it is the contract's
/// (the same components, the same forms), is the contract's.
fn share_components(contract: &syn::File, receiver: &mut syn::File) {
    let components = |item: &syn::Item| matches!(item, syn::Item::Static(s) if s.ident == "COMPONENTS");
    let Some(ours) = contract.items.iter().find(|item| components(item)) else {
        return;
    };
    let ours = quote!(#ours).to_string();
    for item in receiver.items.iter_mut() {
        if components(item) && quote!(#item).to_string() == ours {
            *item = syn::parse_quote!(
                use super::COMPONENTS;
            );
        }
    }
}

/// The items of `mod types` among `items`.
fn types_items(items: &[syn::Item]) -> Option<&Vec<syn::Item>> {
    items.iter().find_map(|item| match item {
        syn::Item::Mod(module) if module.ident == "types" => module.content.as_ref().map(|(_, items)| items),
        _ => None,
    })
}

fn types_module(items: &mut [syn::Item]) -> Option<&mut syn::ItemMod> {
    items.iter_mut().find_map(|item| match item {
        syn::Item::Mod(module) if module.ident == "types" => Some(module),
        _ => None,
    })
}

/// The name of the type an item declares.
fn type_name(item: &syn::Item) -> Option<String> {
    match item {
        syn::Item::Struct(s) => Some(s.ident.to_string()),
        syn::Item::Enum(e) => Some(e.ident.to_string()),
        syn::Item::Type(t) => Some(t.ident.to_string()),
        _ => None,
    }
}
