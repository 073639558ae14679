//! `LEFT_OUT_OF_THE_CLIENT`: the operations the client has no method
//! for, each with why.

use super::for_progenitor::MultipartBodies;
use crate::codegen::document::Spec;

/// The operations this client has no method for, each with why: the
/// server serves them, the client cannot send them (multipart bodies
/// where `multipart` leaves them out; every client sends them now).
pub(super) fn left_out_of_the_client(spec: &Spec, multipart: MultipartBodies) -> syn::Item {
    let multiparts = match multipart {
        MultipartBodies::AsBytes => Vec::new(),
        MultipartBodies::LeftOut => super::for_progenitor::multipart_operations(spec),
    };
    let entries = multiparts.into_iter().map(|(method, path, id)| {
        format!("{method} {path} ({id}): a multipart/form-data body, which this client cannot send")
    });
    syn::parse_quote! {
        /// The spec's operations this client has no method for, each with
        /// why (the server serves them all).
        pub const LEFT_OUT_OF_THE_CLIENT: &[&str] = &[#(#entries),*];
    }
}
