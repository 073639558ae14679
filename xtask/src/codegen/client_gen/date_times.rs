//! Date-times in paths and headers written as RFC 3339, not with their
//! `Display`.

use heck::ToSnakeCase;
use quote::quote;

use super::methods::rewrite_methods;
use crate::codegen::document::{Spec, SpecError};

/// progenitor writes a path or header parameter with its `Display`, which
/// for a date-time is `2026-01-02 03:04:05 UTC`, not the RFC 3339 the spec
/// means (its query parameters go through serde, which is right). Each
/// such parameter is written with `to_rfc3339_opts` instead.
pub(super) fn write_date_times_as_rfc3339(spec: &Spec, file: &mut syn::File) -> Result<(), SpecError> {
    rewrite_methods(spec, file, |op| {
        let mut path_args = Vec::new();
        let mut headers = Vec::new();
        for (parameter, _) in spec.parameters(op)? {
            let format = parameter.pointer("/schema/format").and_then(serde_json::Value::as_str);
            if format != Some("date-time") {
                continue;
            }
            let name = parameter["name"].as_str().unwrap_or_default().to_string();
            match parameter["in"].as_str() {
                Some("path") => path_args.push(name.to_snake_case()),
                Some("header") => headers.push(name),
                _ => {}
            }
        }
        let dated = !path_args.is_empty() || !headers.is_empty();
        Ok(dated.then_some(DateTimeDisplay { path_args, headers }))
    })?;
    Ok(())
}

struct DateTimeDisplay {
    path_args: Vec<String>,
    headers: Vec<String>,
}

impl syn::visit_mut::VisitMut for DateTimeDisplay {
    /// progenitor builds the URL with `format!`, whose arguments syn keeps
    /// as tokens: they are read as expressions, rewritten, and put back.
    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        type Args = syn::punctuated::Punctuated<syn::Expr, syn::Token![,]>;
        if !mac.path.is_ident("format") {
            return;
        }
        let Ok(mut args) = mac.parse_body_with(Args::parse_terminated) else {
            return;
        };
        for arg in args.iter_mut() {
            self.visit_expr_mut(arg);
        }
        mac.tokens = quote!(#args);
    }

    fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
        match expr {
            // header_map.append("X-At", value.to_string().try_into()?)
            syn::Expr::MethodCall(call) if call.method == "append" && call.args.len() == 2 => {
                if let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(name),
                    ..
                }) = &call.args[0]
                    && self.headers.contains(&name.value())
                {
                    rfc3339_instead_of_display(&mut call.args[1]);
                }
            }
            // encode_path(&at.to_string())
            syn::Expr::Call(call) if matches!(&*call.func, syn::Expr::Path(p) if p.path.is_ident("encode_path")) => {
                if let Some(syn::Expr::Reference(reference)) = call.args.first_mut()
                    && let syn::Expr::MethodCall(to_string) = &*reference.expr
                    && let syn::Expr::Path(receiver) = &*to_string.receiver
                    && self.path_args.iter().any(|a| receiver.path.is_ident(a))
                {
                    rfc3339_instead_of_display(&mut reference.expr);
                }
            }
            _ => {}
        }
        syn::visit_mut::visit_expr_mut(self, expr);
    }
}

/// `x.to_string()`, anywhere in `expr`, becomes `x.to_rfc3339_opts(..)`.
fn rfc3339_instead_of_display(expr: &mut syn::Expr) {
    struct Rewrite;
    impl syn::visit_mut::VisitMut for Rewrite {
        fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
            if let syn::Expr::MethodCall(call) = expr
                && call.method == "to_string"
                && call.args.is_empty()
            {
                let receiver = &call.receiver;
                *expr = syn::parse_quote!(#receiver.to_rfc3339_opts(::chrono::SecondsFormat::AutoSi, true));
                return;
            }
            syn::visit_mut::visit_expr_mut(self, expr);
        }
    }
    syn::visit_mut::VisitMut::visit_expr_mut(&mut Rewrite, expr);
}
