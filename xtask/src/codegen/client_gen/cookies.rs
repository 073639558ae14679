//! Cookie parameters on the client. progenitor refuses them, so it gets
//! each as a header parameter of the same name (`for_progenitor`), and
//! the method it writes is changed here to send the value as a cookie
//! instead: `header_map.append("session", value.to_string().try_into()?)`
//! becomes `append_cookie(&mut header_map, "session", value.to_string())?`
//! (`api-client-runtime`'s `parameters`),
//! which adds `session=<value>` to the one `Cookie` header (RFC 6265
//! §5.4: a client sends one). The method's signature stays progenitor's.

use syn::visit_mut::VisitMut;

use super::methods::rewrite_methods;
use crate::codegen::document::{Spec, SpecError};

/// Rewrites the methods of operations with cookie parameters.
pub fn send_cookie_parameters(spec: &Spec, file: &mut syn::File) -> Result<(), SpecError> {
    rewrite_methods(spec, file, |op| {
        let cookies: Vec<String> = spec
            .parameters(op)?
            .into_iter()
            .filter(|(parameter, _)| parameter["in"] == "cookie")
            .filter_map(|(parameter, _)| parameter["name"].as_str().map(str::to_string))
            .collect();
        Ok((!cookies.is_empty()).then_some(AsCookies { cookies }))
    })?;
    Ok(())
}

struct AsCookies {
    cookies: Vec<String>,
}

impl VisitMut for AsCookies {
    fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
        // header_map.append("session", value.to_string().try_into()?)
        if let syn::Expr::MethodCall(call) = expr
            && call.method == "append"
            && call.args.len() == 2
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(name),
                ..
            }) = &call.args[0]
            && self.cookies.contains(&name.value())
            && let syn::Expr::Try(tried) = &call.args[1]
            && let syn::Expr::MethodCall(try_into) = &*tried.expr
            && try_into.method == "try_into"
        {
            let (map, text) = (&call.receiver, &try_into.receiver);
            *expr = syn::parse_quote!(::api_client_runtime::parameters::append_cookie(&mut #map, #name, #text)?);
            return;
        }
        syn::visit_mut::visit_expr_mut(self, expr);
    }
}
