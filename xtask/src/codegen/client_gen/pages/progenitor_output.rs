//! What the page streams read from progenitor's output: the page type's
//! fields, the methods that send an operation, their result types.

use super::cursor_pages::{CursorPages, generated_mismatch};
use crate::codegen::document::SpecError;

/// `T` of `Option<T>`.
pub(super) fn option_inner(ty: &syn::Type) -> Option<&syn::Type> {
    type_argument(ty, Some("Option"), 0)
}

/// The `index`th type argument of `ty` (`Outer<A, B>`), when its last
/// segment is named `outer` (any name when `None`).
pub(crate) fn type_argument<'a>(ty: &'a syn::Type, outer: Option<&str>, index: usize) -> Option<&'a syn::Type> {
    let syn::Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if outer.is_some_and(|outer| last.ident != outer) {
        return None;
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(args) => match args.args.iter().nth(index)? {
            syn::GenericArgument::Type(inner) => Some(inner),
            _ => None,
        },
        _ => None,
    }
}

/// The page's fields for the declared properties.
pub(super) struct PageFields {
    pub items: syn::Ident,
    pub next: syn::Ident,
    /// The item's type, as seen from the client's module.
    pub item_type: syn::Type,
    pub items_optional: bool,
}

impl PageFields {
    pub(super) fn find(file: &syn::File, page_type: &syn::Type, pages: &CursorPages) -> Result<Self, SpecError> {
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
pub(super) fn serde_name(field: &syn::Field) -> Option<String> {
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
pub(super) fn vec_inner(ty: &syn::Type) -> Option<&syn::Type> {
    type_argument(ty, Some("Vec"), 0)
}

/// A type named inside `mod types`, named from the client's module: a
/// sibling type gains `types::`; absolute paths and primitives stay.
pub(super) fn from_client_module(ty: &syn::Type) -> syn::Type {
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
pub(super) fn page_and_error(output: &syn::ReturnType) -> Option<(syn::Type, syn::Type)> {
    let syn::ReturnType::Type(_, ty) = output else {
        return None;
    };
    let success = type_argument(ty, None, 0)?;
    let error = type_argument(ty, None, 1)?;
    Some((
        type_argument(success, None, 0)?.clone(),
        type_argument(error, None, 0)?.clone(),
    ))
}

pub(crate) fn types_module(file: &syn::File) -> Option<&Vec<syn::Item>> {
    file.items.iter().find_map(|item| match item {
        syn::Item::Mod(m) if m.ident == "types" => m.content.as_ref().map(|(_, items)| items),
        _ => None,
    })
}

pub(crate) fn client_method<'a>(file: &'a syn::File, name: &syn::Ident) -> Option<&'a syn::ImplItemFn> {
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

pub(super) fn builder_send<'a>(file: &'a syn::File, builder: &syn::Ident) -> Option<&'a syn::ImplItemFn> {
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
