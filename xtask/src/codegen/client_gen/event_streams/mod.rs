//! Typed streams of a streamed response's items on the client.
//!
//! progenitor reads a `text/event-stream` or JSON Lines response as
//! bytes (`ResponseValue<ByteStream>`). For each such operation the
//! client gains a method beside progenitor's that gives its items typed,
//! as they come: `<op>_events` (`ServerSentEvent<Item>`) or `<op>_items`
//! (`Item`), the item type being the item schema's component (any JSON
//! value for an inline one). Where the operation takes a `Last-Event-ID`
//! header, a broken event stream resumes after the last event's id. The
//! readers are `api-client-runtime`'s (`streams`), compiled and tested
//! there once; the client re-exports them, as it wrote them before.
//!
//! A builder client gets the same on the operation's builder
//! (`builders.rs`).

mod builders;
mod streamed;

use heck::ToSnakeCase;
use quote::{format_ident, quote};

use self::streamed::{item_type, resumes, streamed};
use super::pages::{client_method, type_argument};
use crate::codegen::document::{OperationRef, Spec, SpecError};
use crate::codegen::targets::ClientInterface;

/// Adds each streamed operation's typed method, and the readers when one
/// is added.
pub fn add_item_streams(spec: &Spec, file: &mut syn::File, interface: ClientInterface) -> Result<(), SpecError> {
    if interface == ClientInterface::Builder {
        let streams = builders::builder_streams(spec, file)?;
        if !streams.is_empty() {
            file.items.push(readers());
            file.items.extend(streams);
        }
        return Ok(());
    }
    let mut methods = Vec::new();
    for op in spec.operations() {
        let Some((kind, item)) = streamed(spec, &op)? else {
            continue;
        };
        let name = format_ident!("{}", op.operation_id().to_snake_case());
        let Some(method) = client_method(file, &name) else {
            continue;
        };
        if let Some(typed) = typed_method(spec, &op, method, kind, item) {
            methods.push(typed);
        }
    }
    if methods.is_empty() {
        return Ok(());
    }
    file.items.push(readers());
    file.items.push(syn::parse_quote! {
        impl Client {
            #(#methods)*
        }
    });
    Ok(())
}

/// The runtime's readers, re-exported as the client wrote them before.
fn readers() -> syn::Item {
    syn::parse_quote! {
        pub use ::api_client_runtime::streams::{
            Connecting, JsonLinesReader, RawEvent, Reconnect, ServerSentEvent, SseReader, StreamError, read_events,
            read_lines,
        };
    }
}

/// `<op>_events` or `<op>_items`, calling progenitor's `method`.
fn typed_method(
    spec: &Spec,
    op: &OperationRef<'_>,
    method: &syn::ImplItemFn,
    kind: &str,
    item: Option<String>,
) -> Option<syn::ImplItemFn> {
    let syn::ReturnType::Type(_, output) = &method.sig.output else {
        return None;
    };
    // Result<ResponseValue<ByteStream>, Error<E>>: E.
    let error = type_argument(type_argument(output, Some("Result"), 1)?, Some("Error"), 0)?.clone();
    let item = item_type(item);
    let inputs: Vec<&syn::PatType> = method
        .sig
        .inputs
        .iter()
        .filter_map(|input| match input {
            syn::FnArg::Typed(typed) => Some(typed),
            syn::FnArg::Receiver(_) => None,
        })
        .collect();
    let names: Vec<&syn::Pat> = inputs.iter().map(|input| &*input.pat).collect();
    let generics = &method.sig.generics;
    let progenitor = &method.sig.ident;
    let operation = op.operation_id();
    if kind == "JsonLines" {
        let name = format_ident!("{}_items", progenitor);
        let doc = format!(
            " `{operation}`'s items, typed, as they come (JSON Lines read line by line); an item that is not its type is an error item, and the stream goes on."
        );
        return Some(syn::parse_quote! {
            #[doc = #doc]
            pub async fn #name #generics(
                &'a self,
                #(#inputs),*
            ) -> Result<
                ::std::pin::Pin<::std::boxed::Box<dyn ::futures::Stream<Item = Result<#item, StreamError<#error>>> + Send + 'a>>,
                Error<#error>,
            > {
                Ok(::api_client_runtime::streams::read_lines(self.#progenitor(#(#names),*).await?))
            }
        });
    }
    let name = format_ident!("{}_events", progenitor);
    let resumes = resume_argument(spec, op, &inputs);
    let reconnect = match &resumes {
        None => quote!(::std::option::Option::None),
        Some((resumed, by_text)) => {
            let args = names.iter().map(|name| match name {
                syn::Pat::Ident(ident) if ident.ident == *resumed => match by_text {
                    true => quote!(resumed.as_deref().or(#resumed)),
                    false => quote!(resumed.as_ref().or(#resumed)),
                },
                other => quote!(#other),
            });
            let parse = match by_text {
                true => quote!(let resumed = ::std::option::Option::Some(last);),
                false => quote!(let resumed = last.parse().ok();),
            };
            quote!(::std::option::Option::Some(::std::boxed::Box::new(move |last: ::std::string::String| {
                #parse
                let resumed: ::api_client_runtime::streams::Connecting<'a, #error> = ::std::boxed::Box::pin(async move { self.#progenitor(#(#args),*).await });
                resumed
            })))
        }
    };
    let doc = match resumes {
        Some(_) => format!(
            " `{operation}`'s events, typed, as they come (Server-Sent Events read as the HTML standard says); a broken connection resumes after the last event's id (`Last-Event-ID`), after the server's `retry`."
        ),
        None => {
            format!(" `{operation}`'s events, typed, as they come (Server-Sent Events read as the HTML standard says).")
        }
    };
    Some(syn::parse_quote! {
        #[doc = #doc]
        pub fn #name #generics(
            &'a self,
            #(#inputs),*
        ) -> ::std::pin::Pin<
            ::std::boxed::Box<dyn ::futures::Stream<Item = Result<ServerSentEvent<#item>, StreamError<#error>>> + Send + 'a>,
        > {
            ::api_client_runtime::streams::read_events(::std::boxed::Box::pin(self.#progenitor(#(#names),*)), #reconnect)
        }
    })
}

/// The argument that carries `Last-Event-ID`, when the operation takes
/// it, and whether it is text (`&str`) rather than a type of its own.
fn resume_argument(spec: &Spec, op: &OperationRef<'_>, inputs: &[&syn::PatType]) -> Option<(syn::Ident, bool)> {
    if !resumes(spec, op) {
        return None;
    }
    let input = inputs
        .iter()
        .find(|input| matches!(&*input.pat, syn::Pat::Ident(ident) if ident.ident == "last_event_id"))?;
    let syn::Pat::Ident(ident) = &*input.pat else {
        return None;
    };
    // Option<&'a str> or Option<&'a types::X>.
    let inner = type_argument(&input.ty, Some("Option"), 0)?;
    let by_text =
        matches!(inner, syn::Type::Reference(r) if matches!(&*r.elem, syn::Type::Path(p) if p.path.is_ident("str")));
    Some((ident.ident.clone(), by_text))
}
