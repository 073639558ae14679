//! The sender of a receiver's contract (webhooks and callbacks): one
//! method per operation, taking its body's Rust type, that sends it by
//! the operation's table (`runtime::webhooks`), validated before it
//! leaves; and, for a callback, its URL expression as a constant.

use heck::ToShoutySnakeCase;
use proc_macro2::TokenStream;
use quote::quote;

use super::model::Operation;
use crate::codegen::document::webhooks::Origin;
use crate::codegen::namespace::Namespace;

/// `names`: the module's, where each URL constant is claimed.
pub(super) fn sender(operations: &[Operation], origins: &[Origin], names: &mut Namespace) -> TokenStream {
    let mut constants = Vec::new();
    let methods = operations.iter().map(|op| {
        let origin = origins
            .iter()
            .find(|o| op.http_path == o.path || op.http_path.ends_with(&o.path));
        let location = origin.map_or("", |o| o.location.as_str());
        let mut doc = format!(
            "Sends `{}` (`{location}`): `{} url`, its body validated against the spec before it leaves.",
            op.id, op.method
        );
        if let Some(expression) = origin.and_then(|o| o.expression.as_deref()) {
            let constant = names.claim(&format!("{}_URL", op.id.to_shouty_snake_case()));
            let constant_doc = format!(
                "Where `{}` is sent: a URL expression over the request that registered the callback \
                 ([`runtime::webhooks::callback_url`] evaluates it).",
                op.id
            );
            constants.push(quote! {
                #[doc = #constant_doc]
                pub const #constant: &str = #expression;
            });
            doc.push_str(&format!(" The spec sends it to `{expression}` ([`{constant}`])."));
        }
        let (fn_name, marker) = (&op.fn_name, &op.marker);
        let (argument, payload) = match &op.body {
            None => (quote!(), quote!(runtime::webhooks::Payload::None)),
            Some(body) => {
                let (ty, payload) = match body.kind {
                    // Several media types of values of their own: bytes of
                    // the one given.
                    _ if !body.others.is_empty() => {
                        (quote!(runtime::Payload), quote!(runtime::webhooks::Payload::Of(body)))
                    }
                    "Json" | "Form" => {
                        let ty = &body.ty;
                        (quote!(&#ty), quote!(runtime::webhooks::Payload::json(body)))
                    }
                    "Text" => (quote!(&str), quote!(runtime::webhooks::Payload::Text(body.to_string()))),
                    // Bytes, and XML and multipart bodies as written:
                    // sent as they are.
                    _ => {
                        doc.push_str(" The body is sent as given (not validated).");
                        (quote!(runtime::Bytes), quote!(runtime::webhooks::Payload::Bytes(body)))
                    }
                };
                match body.required {
                    true => (quote!(body: #ty), payload),
                    false => (
                        quote!(body: ::std::option::Option<#ty>),
                        quote!(match body {
                            ::std::option::Option::Some(body) => #payload,
                            ::std::option::Option::None => runtime::webhooks::Payload::None,
                        }),
                    ),
                }
            }
        };
        let argument = match argument.is_empty() {
            true => quote!(),
            false => quote!(, #argument),
        };
        quote! {
            #[doc = #doc]
            pub async fn #fn_name(&self, url: &str #argument)
                -> ::std::result::Result<runtime::webhooks::Delivery, runtime::webhooks::SendError> {
                self.0.send::<#marker>(url, #payload).await
            }
        }
    });
    let methods: Vec<TokenStream> = methods.collect();
    quote! {
        /// Sends the spec's webhooks and callbacks, one method each: the
        /// service's side of this contract. Every request carries the
        /// headers the inner [`runtime::webhooks::Sender`] was given.
        #[derive(Clone, Default)]
        pub struct Sender(pub runtime::webhooks::Sender);

        impl Sender {
            /// A sender over `sender` (its client and headers).
            pub fn new(sender: runtime::webhooks::Sender) -> Self {
                Self(sender)
            }

            #(#methods)*
        }

        #(#constants)*
    }
}
