//! `#[deprecated]` on the methods of deprecated operations, with the
//! sunset date where the spec gives one.

use heck::ToSnakeCase;

use crate::codegen::document::Spec;

/// progenitor ignores `deprecated: true`; callers should see the warning,
/// with the sunset date when the spec gives one (`x-sunset`).
pub(super) fn mark_deprecated(spec: &Spec, file: &mut syn::File) {
    let deprecated: Vec<(String, String)> = spec
        .operations()
        .into_iter()
        .filter(|op| op.operation.deprecated)
        .map(|op| {
            let note = match op.operation.extensions.get("x-sunset").and_then(|v| v.as_str()) {
                Some(sunset) => format!(
                    "`{}` is deprecated and will be removed on {sunset} (x-sunset)",
                    op.operation_id()
                ),
                None => format!("`{}` is deprecated; no sunset date is set yet", op.operation_id()),
            };
            (op.operation_id().to_snake_case(), note)
        })
        .collect();
    for item in &mut file.items {
        let syn::Item::Impl(imp) = item else { continue };
        for impl_item in &mut imp.items {
            let syn::ImplItem::Fn(f) = impl_item else { continue };
            if let Some((_, note)) = deprecated.iter().find(|(name, _)| f.sig.ident == name) {
                f.attrs.push(syn::parse_quote!(#[deprecated(note = #note)]));
            }
        }
    }
}
