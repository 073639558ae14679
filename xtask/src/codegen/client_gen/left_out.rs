//! `LEFT_OUT_OF_THE_CLIENT`: the operations the client has no method
//! for, each with why.

use crate::codegen::document::Spec;

/// The operations this client has no method for, each with why: the
/// server serves them, progenitor cannot send them.
pub(super) fn left_out_of_the_client(spec: &Spec) -> syn::Item {
    let entries = super::for_progenitor::multipart_operations(spec)
        .into_iter()
        .map(|(method, path, id)| {
            format!("{method} {path} ({id}): a multipart/form-data body, which progenitor's client cannot send")
        });
    syn::parse_quote! {
        /// The spec's operations this client has no method for, each with
        /// why (the server serves them all).
        pub const LEFT_OUT_OF_THE_CLIENT: &[&str] = &[#(#entries),*];
    }
}
