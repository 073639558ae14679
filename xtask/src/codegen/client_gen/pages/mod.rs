//! A stream over every page of an operation that pages by cursor.
//!
//! progenitor writes `_stream` methods only for dropshot's naming
//! (`page_token`, `next_page`). Any other API declares its pattern on the
//! operation, and the client gains a stream of the items of every page:
//!
//! ```yaml
//! x-pagination:
//!   cursor: cursor         # the query parameter that takes the next page's cursor
//!   nextCursor: nextCursor # the page's property holding it; null or absent on the last page
//!   items: items           # the page's array of items
//! ```
//!
//! The stream sends the caller's filters with every page, follows the
//! next cursor until the page has none, and yields an error as an item
//! (after which it ends). A declaration that does not fit the operation
//! is refused with its location: the designer said something untrue.

mod cursor_pages;
mod declaration;
mod progenitor_output;

pub(super) use self::progenitor_output::{client_method, type_argument, types_module};

use heck::{ToSnakeCase, ToUpperCamelCase};
use quote::{format_ident, quote};

use self::cursor_pages::{CursorPages, EXTENSION, generated_mismatch};
use self::declaration::declared;
use self::progenitor_output::{PageFields, builder_send, option_inner, page_and_error};
use crate::codegen::document::{Spec, SpecError};
use crate::codegen::targets::ClientInterface;

/// Adds a stream to the client for every operation that declares the
/// cursor pattern: `builder::<Op>::stream()` in the builder interface,
/// `Client::<op>_stream(..)` (the operation's parameters but the cursor)
/// in the positional one.
pub fn add_streams(spec: &Spec, file: &mut syn::File, interface: ClientInterface) -> Result<(), SpecError> {
    for op in spec.operations() {
        let Some(pages) = declared(spec, &op)? else { continue };
        let item = match interface {
            ClientInterface::Builder => builder_stream(file, &pages)?,
            ClientInterface::Positional => positional_stream(file, &pages)?,
        };
        file.items.push(item);
    }
    Ok(())
}

/// `impl builder::Op { fn stream(self) }`: the builder, filters set, is
/// sent again with each next cursor.
fn builder_stream(file: &syn::File, pages: &CursorPages) -> Result<syn::Item, SpecError> {
    let builder = format_ident!("{}", pages.operation_id.to_upper_camel_case());
    let send = builder_send(file, &builder).ok_or_else(|| generated_mismatch(pages, "its builder's `send`"))?;
    let (page_type, error_type) =
        page_and_error(&send.sig.output).ok_or_else(|| generated_mismatch(pages, "`send`'s result"))?;
    let page = PageFields::find(file, &page_type, pages)?;
    let cursor_setter = format_ident!("{}", sanitized(&pages.cursor.to_snake_case()));
    let PageFields {
        items,
        next,
        item_type,
        items_optional,
    } = page;
    let items_vec = items_vec(&items, items_optional);
    let doc = stream_doc(pages);
    Ok(syn::parse_quote! {
        impl<'a> builder::#builder<'a> {
            #[doc = #doc]
            pub fn stream(
                self,
            ) -> ::std::pin::Pin<
                ::std::boxed::Box<
                    dyn ::futures::Stream<Item = Result<#item_type, Error<#error_type>>> + Send + 'a,
                >,
            > {
                use ::futures::StreamExt as _;
                ::futures::stream::unfold(Some(self), |request| async move {
                    let request = request?;
                    let (items, next) = match request.clone().send().await {
                        Ok(page) => {
                            let page = page.into_inner();
                            let next = page.#next.map(|cursor| request.#cursor_setter(cursor));
                            let items: Vec<_> = #items_vec.into_iter().map(Ok).collect();
                            (items, next)
                        }
                        Err(error) => (vec![Err(error)], None),
                    };
                    Some((::futures::stream::iter(items), next))
                })
                .flatten()
                .boxed()
            }
        }
    })
}

/// `impl Client { fn op_stream(&self, ..) }`: the operation's own
/// parameters but the cursor, passed again with each next cursor.
fn positional_stream(file: &syn::File, pages: &CursorPages) -> Result<syn::Item, SpecError> {
    let method = format_ident!("{}", sanitized(&pages.operation_id.to_snake_case()));
    let operation = client_method(file, &method).ok_or_else(|| generated_mismatch(pages, "its client method"))?;
    if operation.sig.generics.type_params().count() > 0 {
        return Err(generated_mismatch(
            pages,
            "a method without type parameters (a streamed body)",
        ));
    }
    let (page_type, error_type) =
        page_and_error(&operation.sig.output).ok_or_else(|| generated_mismatch(pages, "the method's result"))?;
    let PageFields {
        items,
        next,
        item_type,
        items_optional,
    } = PageFields::find(file, &page_type, pages)?;
    let cursor_arg = sanitized(&pages.cursor.to_snake_case());
    let mut params = Vec::new();
    let mut args = Vec::new();
    let mut cursor_state = None;
    for input in operation.sig.inputs.iter().skip(1) {
        let syn::FnArg::Typed(typed) = input else { continue };
        let syn::Pat::Ident(ident) = &*typed.pat else {
            return Err(generated_mismatch(pages, "named parameters"));
        };
        if ident.ident == cursor_arg {
            cursor_state =
                Some(cursor_state_of(&typed.ty).ok_or_else(|| generated_mismatch(pages, "an optional cursor"))?);
            args.push(quote!(cursor));
        } else {
            let name = &ident.ident;
            params.push(typed.clone());
            args.push(quote!(#name));
        }
    }
    let (state_type, pass) = cursor_state.ok_or_else(|| generated_mismatch(pages, "a cursor parameter"))?;
    let stream = format_ident!("{method}_stream");
    let items_vec = items_vec(&items, items_optional);
    let doc = stream_doc(pages);
    // progenitor's positional parameters are references and scalars: each
    // page's request copies them.
    Ok(syn::parse_quote! {
        impl Client {
            #[doc = #doc]
            pub fn #stream<'a>(
                &'a self,
                #(#params),*
            ) -> ::std::pin::Pin<
                ::std::boxed::Box<
                    dyn ::futures::Stream<Item = Result<#item_type, Error<#error_type>>> + Send + 'a,
                >,
            > {
                use ::futures::StreamExt as _;
                ::futures::stream::unfold(Some(None::<#state_type>), move |state| async move {
                    let state = state?;
                    let cursor = #pass;
                    let (items, next) = match self.#method(#(#args),*).await {
                        Ok(page) => {
                            let page = page.into_inner();
                            let next = match page.#next.map(::std::convert::TryFrom::try_from).transpose() {
                                Ok(next) => next.map(Some),
                                Err(error) => {
                                    let error: ::std::string::String = ::std::string::ToString::to_string(&error);
                                    let message = format!("the next cursor is not a valid cursor: {error}");
                                    return Some((::futures::stream::iter(vec![Err(Error::InvalidRequest(message))]), None));
                                }
                            };
                            let items: Vec<_> = #items_vec.into_iter().map(Ok).collect();
                            (items, next)
                        }
                        Err(error) => (vec![Err(error)], None),
                    };
                    Some((::futures::stream::iter(items), next))
                })
                .flatten()
                .boxed()
            }
        }
    })
}

fn stream_doc(pages: &CursorPages) -> String {
    format!(
        "Every item of `{}`, page after page: each page's `{}` is sent back as `{}` with the same \
         parameters until a page has none (`{EXTENSION}` in the spec). An error is the stream's last item.",
        pages.operation_id, pages.next_cursor, pages.cursor
    )
}

fn items_vec(items: &syn::Ident, optional: bool) -> proc_macro2::TokenStream {
    if optional {
        quote!(page.#items.unwrap_or_default())
    } else {
        quote!(page.#items)
    }
}

/// What the stream keeps between pages for a cursor parameter of this
/// type, and how it is passed: `Option<&T>` keeps a `T` (`str`: a
/// `String`), `Option<T>` keeps the `T`.
fn cursor_state_of(ty: &syn::Type) -> Option<(syn::Type, proc_macro2::TokenStream)> {
    let inner = option_inner(ty)?;
    match inner {
        syn::Type::Reference(reference) => {
            let target = &*reference.elem;
            if matches!(target, syn::Type::Path(p) if p.path.is_ident("str")) {
                Some((syn::parse_quote!(::std::string::String), quote!(state.as_deref())))
            } else {
                Some((target.clone(), quote!(state.as_ref())))
            }
        }
        other => Some((other.clone(), quote!(state.clone()))),
    }
}

/// An identifier as progenitor writes it: a keyword gains `_`.
fn sanitized(name: &str) -> String {
    if syn::parse_str::<syn::Ident>(name).is_ok() {
        name.to_string()
    } else {
        format!("{name}_")
    }
}
