//! Where a generator puts the Rust items it makes, a part at a time:
//! into one syntax tree ([`syn::File`], for a part that is edited after),
//! or into text rendered part by part ([`RenderedItems`]). A document of
//! megabytes makes hundreds of megabytes of Rust, whose whole syntax tree
//! would take gigabytes (Microsoft Graph's server contract: 5 GB); part by
//! part, only the largest part's tree is held. prettyplease prints a
//! file's items one after the other, so the text is the same byte for
//! byte either way. A leaf of `codegen/`.

use proc_macro2::TokenStream;

use super::doc_code_blocks;

/// Takes a generator's items, a part at a time.
pub trait Items {
    /// Adds the items `tokens` writes, after the ones before; fails when
    /// they are not Rust items.
    fn push(&mut self, tokens: TokenStream) -> syn::Result<()>;
}

impl Items for syn::File {
    fn push(&mut self, tokens: TokenStream) -> syn::Result<()> {
        let part: syn::File = syn::parse2(tokens)?;
        self.items.extend(part.items);
        Ok(())
    }
}

/// The items rendered to text as they come (prettyplease, with doc
/// comments' code blocks marked as text). Those `keep` asks for are kept
/// as syntax too, for a later part that reads them.
pub struct RenderedItems {
    text: String,
    keep: fn(&syn::Item) -> bool,
    kept: syn::File,
}

impl RenderedItems {
    /// Renders every item and keeps none.
    pub fn new() -> Self {
        Self::keeping(|_| false)
    }

    /// Renders every item, and keeps those `keep` asks for.
    pub fn keeping(keep: fn(&syn::Item) -> bool) -> Self {
        Self {
            text: String::new(),
            keep,
            kept: empty_file(),
        }
    }

    /// Adds items already parsed.
    pub fn push_file(&mut self, mut file: syn::File) {
        doc_code_blocks::mark_code_blocks_as_text(&mut file);
        self.kept
            .items
            .extend(file.items.iter().filter(|item| (self.keep)(item)).cloned());
        self.text.push_str(&prettyplease::unparse(&file));
    }

    /// The items kept, in their order.
    pub fn kept(&self) -> &syn::File {
        &self.kept
    }

    /// The text of every item, in order.
    pub fn into_text(self) -> String {
        self.text
    }
}

impl Items for RenderedItems {
    fn push(&mut self, tokens: TokenStream) -> syn::Result<()> {
        self.push_file(syn::parse2(tokens)?);
        Ok(())
    }
}

/// A file without items.
pub fn empty_file() -> syn::File {
    syn::File {
        shebang: None,
        attrs: Vec::new(),
        items: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;

    #[test]
    fn text_rendered_part_by_part_is_the_whole_files_text() {
        let parts = [
            quote! {
                use crate::runtime;
                /// Types.
                pub mod types { pub struct A { pub a: u8 } }
            },
            quote! { static B: u8 = 1; },
            quote! {
                /// An example:
                /// ```
                /// GET /a
                /// ```
                pub trait C { fn c(&self) -> ::std::result::Result<(), String>; }
                impl C for () { fn c(&self) -> ::std::result::Result<(), String> { Ok(()) } }
            },
        ];
        let mut whole = empty_file();
        let mut rendered = RenderedItems::keeping(|item| matches!(item, syn::Item::Static(_)));
        for part in parts {
            whole.push(part.clone()).unwrap();
            rendered.push(part).unwrap();
        }
        assert_eq!(rendered.kept().items.len(), 1);
        doc_code_blocks::mark_code_blocks_as_text(&mut whole);
        assert_eq!(rendered.into_text(), prettyplease::unparse(&whole));
    }

    #[test]
    fn tokens_that_are_not_items_are_refused() {
        assert!(RenderedItems::new().push(quote! { 1 + }).is_err());
    }
}
