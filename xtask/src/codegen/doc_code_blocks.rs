//! A spec's descriptions become doc comments, and rustdoc compiles a
//! fenced code block without a language as a Rust doctest: a designer's
//! example (` ``` GET https://… ``` `) would fail `cargo test`. Every
//! such block is marked `text`, in every generated file. A carriage
//! return, which rustc refuses bare in a doc comment (descriptions
//! written on Windows), is a line break.

use syn::visit_mut::VisitMut;

/// Marks the unlabelled code blocks of every doc comment in `file` as text.
pub fn mark_code_blocks_as_text(file: &mut syn::File) {
    Marker.visit_file_mut(file);
}

struct Marker;

impl VisitMut for Marker {
    fn visit_attribute_mut(&mut self, attribute: &mut syn::Attribute) {
        if !attribute.path().is_ident("doc") {
            return;
        }
        let syn::Meta::NameValue(meta) = &mut attribute.meta else {
            return;
        };
        let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        }) = &meta.value
        else {
            return;
        };
        let original = text.value();
        let marked = as_text(&original.replace("\r\n", "\n").replace('\r', "\n"));
        if marked != original {
            meta.value = syn::parse_quote!(#marked);
        }
    }
}

/// `doc` with each opening fence that names no language (or `rust`,
/// which a description cannot mean for this crate) marked `text`.
fn as_text(doc: &str) -> String {
    let mut open = false;
    let lines: Vec<String> = doc
        .split('\n')
        .map(|line| {
            let trimmed = line.trim_start();
            let Some(info) = trimmed.strip_prefix("```").or_else(|| trimmed.strip_prefix("~~~")) else {
                return line.to_string();
            };
            let was_open = open;
            open = !open;
            let info = info.trim();
            if was_open || !(info.is_empty() || info == "rust" || info.starts_with("rust,")) {
                return line.to_string();
            }
            let indent = &line[..line.len() - trimmed.len()];
            format!("{indent}{}text", &trimmed[..3])
        })
        .collect();
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::as_text;

    #[test]
    fn a_bare_carriage_return_is_a_line_break() {
        let mut file: syn::File = syn::parse_quote! {
            #[doc = "first\r\nsecond\rthird"]
            pub struct Documented;
        };
        super::mark_code_blocks_as_text(&mut file);
        let text = prettyplease::unparse(&file);
        assert!(!text.contains('\r'), "{text:?}");
        assert!(text.contains("first\nsecond\nthird"), "{text}");
    }

    #[test]
    fn unlabelled_blocks_are_text_and_others_stay() {
        assert_eq!(as_text("a\n```\nGET /x\n```\nb"), "a\n```text\nGET /x\n```\nb");
        assert_eq!(as_text("```json\n{}\n```"), "```json\n{}\n```");
        assert_eq!(as_text("  ```rust\nx\n  ```"), "  ```text\nx\n  ```");
        assert_eq!(as_text("no code"), "no code");
    }
}
