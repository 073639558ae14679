//! progenitor's methods found by operation, at the bottom of every
//! rewrite of the client: each rewrite says what changes in an
//! operation's methods, and this finds them.

use heck::{ToSnakeCase, ToUpperCamelCase};
use syn::visit_mut::VisitMut;

use crate::codegen::document::{OperationRef, Spec, SpecError};

/// Rewrites each operation's methods with the visitor `rewrite` gives for
/// it (an operation it gives none for stays as progenitor wrote it).
/// Whether any method was rewritten: the caller then adds what the
/// rewritten methods call.
pub(super) fn rewrite_methods<'s, V: VisitMut>(
    spec: &'s Spec,
    file: &mut syn::File,
    mut rewrite: impl FnMut(&OperationRef<'s>) -> Result<Option<V>, SpecError>,
) -> Result<bool, SpecError> {
    let mut rewritten = false;
    for op in spec.operations() {
        let Some(mut visitor) = rewrite(&op)? else { continue };
        for method in methods_named(file, &op.operation_id().to_snake_case()) {
            visitor.visit_impl_item_fn_mut(method);
            rewritten = true;
        }
    }
    Ok(rewritten)
}

/// The client's methods that send the operation progenitor names `name`:
/// the method itself in the positional interface, its builder's `send`
/// in the builder interface (which binds the parameters to the same names).
fn methods_named<'a>(file: &'a mut syn::File, name: &str) -> Vec<&'a mut syn::ImplItemFn> {
    let builder = name.to_upper_camel_case();
    let mut found = Vec::new();
    for item in &mut file.items {
        match item {
            syn::Item::Impl(imp) => found.extend(imp.items.iter_mut().filter_map(|item| match item {
                syn::ImplItem::Fn(f) if f.sig.ident == name => Some(f),
                _ => None,
            })),
            syn::Item::Mod(m) if m.ident == "builder" => {
                let Some((_, items)) = m.content.as_mut() else { continue };
                for item in items {
                    let syn::Item::Impl(imp) = item else { continue };
                    let is_builder = matches!(&*imp.self_ty, syn::Type::Path(p)
                        if p.path.segments.last().is_some_and(|s| s.ident == builder));
                    if !is_builder {
                        continue;
                    }
                    found.extend(imp.items.iter_mut().filter_map(|item| match item {
                        syn::ImplItem::Fn(f) if f.sig.ident == "send" => Some(f),
                        _ => None,
                    }));
                }
            }
            _ => {}
        }
    }
    found
}
