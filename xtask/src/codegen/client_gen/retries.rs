//! Retries on every client: progenitor's `Client` gets a
//! `retries: api_client_runtime::retries::Retries` (on by default, set
//! with `with_retries`), which the client's `exec` hook sends each
//! request by (`credentials.rs`, and the Pet Store's own hooks). What is
//! retried and how lives in the runtime, compiled and tested once.

/// Adds the field to `pub struct Client`, its default to the struct
/// literal of `new_with_client`, and the methods that set and read it.
/// Only the file's own items are read: a schema named `Client` is in
/// `mod types`. A file without progenitor's `Client` is left as it is.
pub(super) fn add_retries(file: &mut syn::File) {
    let mut struct_found = false;
    for item in &mut file.items {
        match item {
            syn::Item::Struct(item) if item.ident == "Client" => {
                if let syn::Fields::Named(fields) = &mut item.fields {
                    fields.named.push(syn::parse_quote! {
                        pub(crate) retries: ::api_client_runtime::retries::Retries
                    });
                    struct_found = true;
                }
            }
            syn::Item::Impl(item) if item.trait_.is_none() && is_client(&item.self_ty) => {
                for function in &mut item.items {
                    if let syn::ImplItem::Fn(function) = function
                        && function.sig.ident == "new_with_client"
                    {
                        default_in_literal(function);
                    }
                }
            }
            _ => {}
        }
    }
    if !struct_found {
        return;
    }
    file.items.push(syn::parse_quote! {
        impl Client {
            /// How this client retries a request after a transient failure
            /// (a refused connection, a timeout, 408, 429, 502, 503, 504;
            /// `Retry-After` honoured): by default 3 attempts of a request
            /// that is safe to send twice. `Retries::none()` turns it off.
            pub fn with_retries(mut self, retries: ::api_client_runtime::retries::Retries) -> Self {
                self.retries = retries;
                self
            }

            /// How this client retries (see [`Client::with_retries`]).
            pub fn retries(&self) -> &::api_client_runtime::retries::Retries {
                &self.retries
            }
        }
    });
}

fn is_client(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(path) if path.path.is_ident("Client"))
}

/// `Self { baseurl, client, inner }` gets `retries: Default::default()`.
fn default_in_literal(function: &mut syn::ImplItemFn) {
    for statement in &mut function.block.stmts {
        if let syn::Stmt::Expr(syn::Expr::Struct(literal), _) = statement
            && literal.path.is_ident("Self")
        {
            literal.fields.push(syn::parse_quote! {
                retries: ::std::default::Default::default()
            });
        }
    }
}
