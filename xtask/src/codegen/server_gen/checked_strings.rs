//! The constrained string newtypes typify writes (a `pattern`, a length)
//! take a string that the body's validator has already checked as it is,
//! rather than checking it a second time (`api_runtime::checked_strings`
//! says when). typify's `Deserialize` of such a newtype parses the string
//! through its `FromStr`, which runs the check. The rewritten one asks the
//! runtime first. `FromStr`, `TryFrom` and every other way to make one
//! still check.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Fields, Item, ItemImpl, Type};

/// The `types` module's items, each constrained string newtype's
/// `Deserialize` asking the runtime first. Items typify wrote in any
/// other shape are left as they are.
pub(super) fn trusting_checked(types: TokenStream) -> TokenStream {
    let Ok(mut file) = syn::parse2::<syn::File>(types.clone()) else {
        return types;
    };
    let newtypes: BTreeSet<String> = file.items.iter().filter_map(string_newtype).collect();
    let typify_body = comparable(typify_body());
    for item in &mut file.items {
        let Item::Impl(implementation) = item else { continue };
        if !deserializes_one_of(implementation, &newtypes) {
            continue;
        }
        for inner in &mut implementation.items {
            let syn::ImplItem::Fn(function) = inner else { continue };
            let statements = &function.block.stmts;
            if function.sig.ident == "deserialize" && comparable(quote!(#(#statements)*)) == typify_body {
                function.block = syn::parse2(checked_body()).expect("a block");
            }
        }
    }
    quote!(#file)
}

/// The name of a tuple struct of one `String`.
fn string_newtype(item: &Item) -> Option<String> {
    let Item::Struct(structure) = item else { return None };
    let Fields::Unnamed(fields) = &structure.fields else {
        return None;
    };
    if fields.unnamed.len() != 1 {
        return None;
    }
    let ty = &fields.unnamed[0].ty;
    (quote!(#ty).to_string() == quote!(::std::string::String).to_string()).then(|| structure.ident.to_string())
}

/// Whether `implementation` is serde's `Deserialize` for one of `newtypes`.
fn deserializes_one_of(implementation: &ItemImpl, newtypes: &BTreeSet<String>) -> bool {
    let is_deserialize = implementation
        .trait_
        .as_ref()
        .and_then(|(_, path, _)| path.segments.last())
        .is_some_and(|segment| segment.ident == "Deserialize");
    let self_type = match &*implementation.self_ty {
        Type::Path(path) if path.qself.is_none() => path.path.get_ident().map(ToString::to_string),
        _ => None,
    };
    is_deserialize && self_type.is_some_and(|name| newtypes.contains(&name))
}

/// `tokens` as text, without the trailing commas typify may write in an
/// argument list.
fn comparable(tokens: TokenStream) -> String {
    tokens.to_string().replace(" ,)", ")")
}

/// The body typify writes: the string, parsed by the type's `FromStr`.
fn typify_body() -> TokenStream {
    quote! {
        ::std::string::String::deserialize(deserializer)?
            .parse()
            .map_err(|e: self::error::ConversionError| {
                <D::Error as ::serde::de::Error>::custom(e.to_string())
            })
    }
}

/// The same, but for a string the runtime says the schema checked.
fn checked_body() -> TokenStream {
    quote! {
        {
            let value = ::std::string::String::deserialize(deserializer)?;
            if crate::runtime::checked_strings::checked_by_schema() {
                return ::std::result::Result::Ok(Self(value));
            }
            value.parse().map_err(|e: self::error::ConversionError| {
                <D::Error as ::serde::de::Error>::custom(e.to_string())
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_newtype_reads_a_checked_string_as_it_is_and_nothing_else_changes() {
        let types = quote! {
            pub struct Tag(::std::string::String);
            pub struct Count(i64);
            impl<'de> ::serde::Deserialize<'de> for Tag {
                fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
                where
                    D: ::serde::Deserializer<'de>,
                {
                    ::std::string::String::deserialize(deserializer)?
                        .parse()
                        .map_err(|e: self::error::ConversionError| {
                            <D::Error as ::serde::de::Error>::custom(e.to_string(),)
                        })
                }
            }
            impl<'de> ::serde::Deserialize<'de> for Count {
                fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
                where
                    D: ::serde::Deserializer<'de>,
                {
                    ::std::string::String::deserialize(deserializer)?
                        .parse()
                        .map_err(|e: self::error::ConversionError| {
                            <D::Error as ::serde::de::Error>::custom(e.to_string())
                        })
                }
            }
        };
        let rewritten = trusting_checked(types).to_string();
        assert_eq!(rewritten.matches("checked_by_schema").count(), 1, "{rewritten}");
        let tag = rewritten.find("for Tag").expect("Tag's impl");
        let count = rewritten.find("for Count").expect("Count's impl");
        assert!(rewritten[tag..count].contains("checked_by_schema"), "{rewritten}");
    }
}
