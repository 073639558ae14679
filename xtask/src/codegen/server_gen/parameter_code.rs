//! An operation's parameters in its Rust: their rows of the operation's
//! table, and the structs they are read into (path ones positional in the
//! handler's signature, query and header ones in one `<Operation>Params`
//! struct).

use proc_macro2::TokenStream;
use quote::quote;

use super::model::Operation;
use super::parameters::{Parameter, option_str};

/// The table rows of an operation's parameters.
pub(super) fn parameter_rows(op: &Operation) -> TokenStream {
    let rows = op.parameters.iter().map(|p| {
        let (name, key, required, value, explode) = (&p.name, &p.key, p.required, &p.value, p.explode);
        let location = quote::format_ident!("{}", p.location);
        let default = option_str(p.default.as_deref());
        let description = option_str(p.description.as_deref());
        let schema = &p.schema;
        quote! {
            runtime::Parameter {
                name: #name,
                key: #key,
                location: runtime::Location::#location,
                required: #required,
                value: #value,
                explode: #explode,
                default: #default,
                description: #description,
                schema: &#schema,
            },
        }
    });
    quote!(&[#(#rows)*])
}

/// The struct a set of parameters is read into, or `None` when the set
/// is empty.
fn parameter_struct(op: &Operation, doc: &str, path: bool) -> Option<TokenStream> {
    let fields: Vec<TokenStream> = op
        .parameters
        .iter()
        .filter(|p| p.in_path() == path)
        .map(|p| {
            let (field, rename, ty) = (&p.field, &p.key, p.field_ty());
            let doc = p
                .description
                .as_deref()
                .map(str::trim)
                .filter(|d| !d.is_empty())
                .map(|d| quote!(#[doc = #d]));
            let serde = match p.always_present() {
                true => quote!(#[serde(rename = #rename)]),
                false => quote!(#[serde(rename = #rename, default)]),
            };
            quote! {
                #doc
                #serde
                pub #field: #ty,
            }
        })
        .collect();
    if fields.is_empty() {
        return None;
    }
    let name = match path {
        true => path_struct(op),
        false => params_struct(op),
    };
    let hidden = path.then(|| quote!(#[doc(hidden)]));
    Some(quote! {
        #[doc = #doc]
        #hidden
        #[derive(Debug, Clone, ::serde::Deserialize, ::serde::Serialize)]
        pub struct #name {
            #(#fields)*
        }
    })
}

/// The path parameters' struct (read by the generated layer, passed to the
/// handler one by one) and the query and header parameters' struct (passed
/// whole).
pub(super) fn parameter_structs(op: &Operation) -> TokenStream {
    let path_doc = format!("The path parameters of `{}`, as read.", op.id);
    let params_doc = format!("The query and header parameters of `{}`.", op.id);
    let path = parameter_struct(op, &path_doc, true);
    let params = parameter_struct(op, &params_doc, false);
    quote!(#path #params)
}

pub(super) fn path_struct(op: &Operation) -> syn::Ident {
    op.name_of("Path")
}

pub(super) fn params_struct(op: &Operation) -> syn::Ident {
    op.name_of("Params")
}

pub(super) fn has_path(op: &Operation) -> bool {
    op.parameters.iter().any(Parameter::in_path)
}

pub(super) fn has_params(op: &Operation) -> bool {
    op.parameters.iter().any(|p| !p.in_path())
}
