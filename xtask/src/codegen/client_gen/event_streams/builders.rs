//! Typed streams in the builder interface: `builder::<Op>::events()` (or
//! `items()` for JSON Lines) sends the builder, parameters set, and
//! gives the response's items typed, as the positional `<op>_events`
//! does. Where the operation takes a `Last-Event-ID` header, a broken
//! event stream is sent again from a copy of the builder with that
//! header set to the last event's id.

use heck::{ToSnakeCase, ToUpperCamelCase};
use quote::{format_ident, quote};

use super::super::pages::type_argument;
use super::streamed::{item_type, resumes, streamed};
use crate::codegen::document::{Spec, SpecError};
use crate::codegen::namespace::Namespace;

/// Each streamed operation's typed method on its builder.
pub(super) fn builder_streams(spec: &Spec, file: &syn::File) -> Result<Vec<syn::Item>, SpecError> {
    let mut items = Vec::new();
    for op in spec.operations() {
        let Some((kind, item)) = streamed(spec, &op)? else {
            continue;
        };
        let builder = format_ident!("{}", op.operation_id().to_snake_case().to_upper_camel_case());
        let Some(found) = Builder::find(file, &builder) else {
            continue;
        };
        let Some(error) = found.error_type() else {
            continue;
        };
        let item = item_type(item);
        let operation = op.operation_id();
        let mut names = Namespace::reserving(found.methods.iter().map(String::as_str));
        if kind == "JsonLines" {
            let name = names.claim("items");
            let doc = format!(
                " `{operation}`'s items, typed, as they come (JSON Lines read line by line); an item that is not its type is an error item, and the stream goes on."
            );
            items.push(syn::parse_quote! {
                impl<'a> builder::#builder<'a> {
                    #[doc = #doc]
                    pub async fn #name(
                        self,
                    ) -> Result<
                        ::std::pin::Pin<::std::boxed::Box<dyn ::futures::Stream<Item = Result<#item, StreamError<#error>>> + Send + 'a>>,
                        Error<#error>,
                    > {
                        Ok(::api_client_runtime::streams::read_lines(self.send().await?))
                    }
                }
            });
            continue;
        }
        let name = names.claim("events");
        // Sent again, resuming, from a copy of the builder: only one that
        // can be copied (no streamed body) and sets the header.
        let resumable = resumes(spec, &op) && found.cloneable && found.methods.iter().any(|m| m == "last_event_id");
        let (copy, reconnect) = match resumable {
            true => (
                quote!(let again = self.clone();),
                quote!(::std::option::Option::Some(::std::boxed::Box::new(move |last: ::std::string::String| {
                    let resumed: ::api_client_runtime::streams::Connecting<'a, #error> =
                        ::std::boxed::Box::pin(again.clone().last_event_id(last).send());
                    resumed
                }))),
            ),
            false => (quote!(), quote!(::std::option::Option::None)),
        };
        let doc = match resumable {
            true => format!(
                " `{operation}`'s events, typed, as they come (Server-Sent Events read as the HTML standard says); a broken connection resumes after the last event's id (`Last-Event-ID`), after the server's `retry`."
            ),
            false => format!(
                " `{operation}`'s events, typed, as they come (Server-Sent Events read as the HTML standard says)."
            ),
        };
        items.push(syn::parse_quote! {
            impl<'a> builder::#builder<'a> {
                #[doc = #doc]
                pub fn #name(
                    self,
                ) -> ::std::pin::Pin<
                    ::std::boxed::Box<dyn ::futures::Stream<Item = Result<ServerSentEvent<#item>, StreamError<#error>>> + Send + 'a>,
                > {
                    #copy
                    ::api_client_runtime::streams::read_events(::std::boxed::Box::pin(self.send()), #reconnect)
                }
            }
        });
    }
    Ok(items)
}

/// What the streams need of an operation's builder.
struct Builder<'a> {
    send: &'a syn::ImplItemFn,
    /// Its methods' names (the setters, `send`).
    methods: Vec<String>,
    /// Whether it derives `Clone`.
    cloneable: bool,
}

impl<'a> Builder<'a> {
    fn find(file: &'a syn::File, name: &syn::Ident) -> Option<Builder<'a>> {
        let module = file.items.iter().find_map(|item| match item {
            syn::Item::Mod(m) if m.ident == "builder" => m.content.as_ref().map(|(_, items)| items),
            _ => None,
        })?;
        let cloneable = module.iter().any(|item| {
            matches!(item, syn::Item::Struct(s) if s.ident == *name
                && s.attrs.iter().any(|a| a.path().is_ident("derive") && quote!(#a).to_string().contains("Clone")))
        });
        let methods: Vec<&syn::ImplItemFn> = module
            .iter()
            .filter_map(|item| match item {
                syn::Item::Impl(imp)
                    if matches!(&*imp.self_ty, syn::Type::Path(p)
                        if p.path.segments.last().is_some_and(|s| s.ident == *name)) =>
                {
                    Some(imp.items.iter().filter_map(|i| match i {
                        syn::ImplItem::Fn(f) => Some(f),
                        _ => None,
                    }))
                }
                _ => None,
            })
            .flatten()
            .collect();
        let send = methods.iter().find(|f| f.sig.ident == "send")?;
        Some(Builder {
            send,
            methods: methods.iter().map(|f| f.sig.ident.to_string()).collect(),
            cloneable,
        })
    }

    /// `send`'s `Result<ResponseValue<ByteStream>, Error<E>>`: E.
    fn error_type(&self) -> Option<syn::Type> {
        let syn::ReturnType::Type(_, output) = &self.send.sig.output else {
            return None;
        };
        type_argument(type_argument(output, Some("Result"), 1)?, Some("Error"), 0).cloned()
    }
}
