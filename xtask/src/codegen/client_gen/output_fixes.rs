//! What progenitor writes that would not compile or render right: methods
//! reqwest lacks, a catch-all arm after another, and list items in doc
//! comments indented as Markdown needs.

use quote::quote;

/// progenitor builds a request with `client.<method>(url)`, which
/// reqwest has for GET, POST, PUT, PATCH, DELETE and HEAD only: an
/// OPTIONS or TRACE operation gets `client.request(Method::OPTIONS, url)`.
pub(super) struct MethodsReqwestLacks;

impl syn::visit_mut::VisitMut for MethodsReqwestLacks {
    fn visit_expr_method_call_mut(&mut self, call: &mut syn::ExprMethodCall) {
        syn::visit_mut::visit_expr_method_call_mut(self, call);
        let is_client = matches!(&*call.receiver, syn::Expr::Field(field)
            if matches!(&field.member, syn::Member::Named(name) if name == "client"));
        if !is_client || call.args.len() != 1 {
            return;
        }
        let method = match call.method.to_string().as_str() {
            "options" => quote!(OPTIONS),
            "trace" => quote!(TRACE),
            _ => return,
        };
        let (receiver, url) = (&call.receiver, &call.args[0]);
        *call = syn::parse_quote!(#receiver.request(::reqwest::Method::#method, #url));
    }
}

/// progenitor matches a response's status with a `default` response's
/// arm `_ => ...` and, unless `default` is the last response it lists
/// (which it never is beside a status, as it lists `default` first), a
/// catch-all `_ => Err(Error::UnexpectedResponse(..))` after it: an arm
/// that never matches (`unreachable_patterns`). The second goes.
pub(super) struct OneCatchAll;

impl syn::visit_mut::VisitMut for OneCatchAll {
    fn visit_expr_match_mut(&mut self, expr: &mut syn::ExprMatch) {
        syn::visit_mut::visit_expr_match_mut(self, expr);
        let catch_all = |arm: &syn::Arm| matches!(arm.pat, syn::Pat::Wild(_)) && arm.guard.is_none();
        if let Some(first) = expr.arms.iter().position(catch_all) {
            let after = expr.arms.split_off(first + 1);
            expr.arms.extend(after.into_iter().filter(|arm| !catch_all(arm)));
        }
    }
}

/// progenitor lists an operation's arguments in its doc comment as
/// `- name: description`; a description of several lines continues
/// unindented, which Markdown (and clippy's `doc_lazy_continuation`) reads
/// as a lazy continuation. Its continuation lines are indented under the
/// item.
pub(super) struct ListItemsIndented;

impl syn::visit_mut::VisitMut for ListItemsIndented {
    fn visit_attribute_mut(&mut self, attr: &mut syn::Attribute) {
        let syn::Meta::NameValue(doc) = &mut attr.meta else {
            return;
        };
        if !doc.path.is_ident("doc") {
            return;
        }
        let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        }) = &doc.value
        else {
            return;
        };
        let original = text.value();
        let mut out = Vec::new();
        let mut in_item = false;
        for line in original.split('\n') {
            if line.starts_with("- ") {
                in_item = true;
                out.push(line.to_string());
            } else if line.trim().is_empty() || line.starts_with("```") {
                in_item = false;
                out.push(line.to_string());
            } else if in_item {
                out.push(format!("  {line}"));
            } else {
                out.push(line.to_string());
            }
        }
        let indented = out.join("\n");
        if indented != original {
            doc.value = syn::parse_quote!(#indented);
        }
    }
}
