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

use heck::{ToSnakeCase, ToUpperCamelCase};
use quote::{format_ident, quote};
use serde_json::Value;

use super::ClientInterface;
use crate::codegen::spec::{OperationRef, Spec, SpecError, required_names};

/// The extension that declares an operation's cursor pattern.
pub const EXTENSION: &str = "x-pagination";

/// An operation's cursor pattern, checked against the spec.
struct CursorPages {
    operation_id: String,
    location: String,
    /// The cursor query parameter, as named in the spec.
    cursor: String,
    /// The page's next-cursor property, as named in the spec.
    next_cursor: String,
    /// The page's items property, as named in the spec.
    items: String,
}

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

/// The operation's declaration, checked: the cursor is an optional query
/// parameter, and the first success response's JSON body is an object
/// with the items (an array) and the next cursor (nullable or optional,
/// so that the last page can say there is none).
fn declared(spec: &Spec, op: &OperationRef<'_>) -> Result<Option<CursorPages>, SpecError> {
    let Some(declaration) = op.json.get(EXTENSION) else {
        return Ok(None);
    };
    let location = format!("{}.{EXTENSION}", op.location());
    let name = |key: &str| {
        declaration
            .get(key)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| SpecError::new(&location, format!("`{key}` must name {}", what_names(key))))
    };
    let pages = CursorPages {
        operation_id: op.operation_id().to_string(),
        location: location.clone(),
        cursor: name("cursor")?,
        next_cursor: name("nextCursor")?,
        items: name("items")?,
    };
    let cursor = spec
        .parameters(op)?
        .into_iter()
        .find(|(p, _)| p["in"] == "query" && p["name"] == pages.cursor.as_str());
    match cursor {
        None => {
            return Err(SpecError::new(
                &location,
                format!("`cursor`: the operation has no query parameter `{}`", pages.cursor),
            ));
        }
        Some((p, _)) if p["required"] == true => {
            return Err(SpecError::new(
                &location,
                format!(
                    "`cursor`: the query parameter `{}` is required, so the first page could not be asked for",
                    pages.cursor
                ),
            ));
        }
        Some(_) => {}
    }
    let page = spec
        .responses(op)?
        .into_iter()
        .find(|(status, _, _)| status.starts_with('2'))
        .and_then(|(_, response, _)| super::spec::json_content_schema(&response).cloned())
        .map(|schema| spec.resolve_schema(&schema).clone())
        .filter(|schema| schema.get("properties").is_some())
        .ok_or_else(|| {
            SpecError::new(
                &location,
                "the operation's first success response has no JSON object body to page through",
            )
        })?;
    let property = |name: &str| page.pointer(&format!("/properties/{}", name.replace('~', "~0").replace('/', "~1")));
    let items = property(&pages.items).map(|items| spec.resolve_schema(items));
    if items.and_then(|items| items.get("type")).and_then(Value::as_str) != Some("array") {
        return Err(SpecError::new(
            &location,
            format!("`items`: the page has no array property `{}`", pages.items),
        ));
    }
    let Some(next) = property(&pages.next_cursor) else {
        return Err(SpecError::new(
            &location,
            format!("`nextCursor`: the page has no property `{}`", pages.next_cursor),
        ));
    };
    let nullable = spec.resolve_schema(next).get("nullable") == Some(&Value::Bool(true));
    if required_names(&page).contains(&pages.next_cursor.as_str()) && !nullable {
        return Err(SpecError::new(
            &location,
            format!(
                "`nextCursor`: `{}` is required and not nullable, so no page could be the last",
                pages.next_cursor
            ),
        ));
    }
    Ok(Some(pages))
}

fn what_names(key: &str) -> &'static str {
    match key {
        "cursor" => "the query parameter that takes the next page's cursor",
        "nextCursor" => "the page's property that holds the next cursor",
        _ => "the page's array of items",
    }
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

/// `T` of `Option<T>`.
fn option_inner(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(args) => match args.args.first()? {
            syn::GenericArgument::Type(inner) => Some(inner),
            _ => None,
        },
        _ => None,
    }
}

/// The page's fields for the declared properties.
struct PageFields {
    items: syn::Ident,
    next: syn::Ident,
    /// The item's type, as seen from the client's module.
    item_type: syn::Type,
    items_optional: bool,
}

impl PageFields {
    fn find(file: &syn::File, page_type: &syn::Type, pages: &CursorPages) -> Result<Self, SpecError> {
        let syn::Type::Path(path) = page_type else {
            return Err(generated_mismatch(pages, "a named page type"));
        };
        let name = &path.path.segments.last().expect("a path has a segment").ident;
        let page = types_module(file)
            .and_then(|types| {
                types.iter().find_map(|item| match item {
                    syn::Item::Struct(s) if &s.ident == name => Some(s),
                    _ => None,
                })
            })
            .ok_or_else(|| generated_mismatch(pages, &format!("a struct `types::{name}`")))?;
        let field = |property: &str| {
            page.fields
                .iter()
                .find(|field| serde_name(field).as_deref() == Some(property))
                .ok_or_else(|| generated_mismatch(pages, &format!("a field for `{property}` in `{name}`")))
        };
        let items = field(&pages.items)?;
        let next = field(&pages.next_cursor)?;
        if option_inner(&next.ty).is_none() {
            return Err(generated_mismatch(pages, "an optional next cursor"));
        }
        let (items_type, items_optional) = match option_inner(&items.ty) {
            Some(inner) => (inner, true),
            None => (&items.ty, false),
        };
        let item_type = vec_inner(items_type)
            .map(from_client_module)
            .ok_or_else(|| generated_mismatch(pages, "an array of items"))?;
        Ok(PageFields {
            items: items.ident.clone().expect("a named field"),
            next: next.ident.clone().expect("a named field"),
            item_type,
            items_optional,
        })
    }
}

/// The property a field holds: its `#[serde(rename)]`, else its name.
fn serde_name(field: &syn::Field) -> Option<String> {
    let mut renamed = None;
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                let value: syn::LitStr = meta.value()?.parse()?;
                renamed = Some(value.value());
            } else if meta.input.peek(syn::Token![=]) {
                let _: syn::Expr = meta.value()?.parse()?;
            }
            Ok(())
        });
    }
    renamed.or_else(|| {
        field
            .ident
            .as_ref()
            .map(|i| i.to_string().trim_start_matches("r#").to_string())
    })
}

/// `T` of `Vec<T>` (`::std::vec::Vec<T>`).
fn vec_inner(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != "Vec" {
        return None;
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(args) => match args.args.first()? {
            syn::GenericArgument::Type(inner) => Some(inner),
            _ => None,
        },
        _ => None,
    }
}

/// A type named inside `mod types`, named from the client's module: a
/// sibling type gains `types::`; absolute paths and primitives stay.
fn from_client_module(ty: &syn::Type) -> syn::Type {
    const PRIMITIVES: &[&str] = &[
        "bool", "i8", "i16", "i32", "i64", "i128", "u8", "u16", "u32", "u64", "u128", "f32", "f64", "isize", "usize",
    ];
    match ty {
        syn::Type::Path(path)
            if path.qself.is_none()
                && path.path.leading_colon.is_none()
                && !path
                    .path
                    .get_ident()
                    .is_some_and(|i| PRIMITIVES.contains(&i.to_string().as_str())) =>
        {
            syn::parse_quote!(types::#path)
        }
        other => other.clone(),
    }
}

/// `(P, E)` of `Result<ResponseValue<P>, Error<E>>`.
fn page_and_error(output: &syn::ReturnType) -> Option<(syn::Type, syn::Type)> {
    let syn::ReturnType::Type(_, ty) = output else {
        return None;
    };
    let generic = |ty: &syn::Type, index: usize| -> Option<syn::Type> {
        let syn::Type::Path(path) = ty else { return None };
        match &path.path.segments.last()?.arguments {
            syn::PathArguments::AngleBracketed(args) => match args.args.iter().nth(index)? {
                syn::GenericArgument::Type(inner) => Some(inner.clone()),
                _ => None,
            },
            _ => None,
        }
    };
    let success = generic(ty, 0)?;
    let error = generic(ty, 1)?;
    Some((generic(&success, 0)?, generic(&error, 0)?))
}

fn types_module(file: &syn::File) -> Option<&Vec<syn::Item>> {
    file.items.iter().find_map(|item| match item {
        syn::Item::Mod(m) if m.ident == "types" => m.content.as_ref().map(|(_, items)| items),
        _ => None,
    })
}

fn client_method<'a>(file: &'a syn::File, name: &syn::Ident) -> Option<&'a syn::ImplItemFn> {
    file.items.iter().find_map(|item| match item {
        syn::Item::Impl(imp) if matches!(&*imp.self_ty, syn::Type::Path(p) if p.path.is_ident("Client")) => {
            imp.items.iter().find_map(|i| match i {
                syn::ImplItem::Fn(f) if &f.sig.ident == name => Some(f),
                _ => None,
            })
        }
        _ => None,
    })
}

fn builder_send<'a>(file: &'a syn::File, builder: &syn::Ident) -> Option<&'a syn::ImplItemFn> {
    let module = file.items.iter().find_map(|item| match item {
        syn::Item::Mod(m) if m.ident == "builder" => m.content.as_ref().map(|(_, items)| items),
        _ => None,
    })?;
    module.iter().find_map(|item| match item {
        syn::Item::Impl(imp)
            if matches!(&*imp.self_ty, syn::Type::Path(p)
            if p.path.segments.last().is_some_and(|s| &s.ident == builder)) =>
        {
            imp.items.iter().find_map(|i| match i {
                syn::ImplItem::Fn(f) if f.sig.ident == "send" => Some(f),
                _ => None,
            })
        }
        _ => None,
    })
}

/// An identifier as progenitor writes it: a keyword gains `_`.
fn sanitized(name: &str) -> String {
    if syn::parse_str::<syn::Ident>(name).is_ok() {
        name.to_string()
    } else {
        format!("{name}_")
    }
}

/// The generated client is not what this module expects of progenitor:
/// reported at the declaration, never a panic.
fn generated_mismatch(pages: &CursorPages, expected: &str) -> SpecError {
    SpecError::new(
        &pages.location,
        format!(
            "the client generated for `{}` has no {expected}: the stream cannot be generated",
            pages.operation_id
        ),
    )
}
