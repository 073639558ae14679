//! Parameter values progenitor writes otherwise than the server reads
//! them ([`parameter_shape`]). progenitor writes a header's or a path
//! segment's value with `Display`, which a list has not (and which writes
//! a JSON string with its quotes), and a query parameter by its form
//! serializer, which cannot write a list of objects. The method is
//! changed to write:
//!
//! - a header list as its items joined by commas (the `simple` style),
//!   a header or path object as its properties' names and values so
//!   joined (`name=value` ones with `explode`), and a header or path
//!   value of no one scalar type as its text;
//! - a JSON parameter (a `content` one, or one no style writes) as JSON
//!   text, in the query or a header.

use syn::visit_mut::VisitMut;

use super::methods::rewrite_methods;
use crate::codegen::document::parameter_shapes::{ParameterShape, parameter_shape};
use crate::codegen::document::{Spec, SpecError};

/// How a parameter's value is written, where progenitor's way is not the
/// server's.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Written {
    /// `parameter_text(value)`: a string as it is, a list's items joined,
    /// an object's names and values joined.
    Text,
    /// `exploded_text(value)`: an object's `name=value` pairs joined.
    Exploded,
    /// `json_text(value)`.
    Json,
}

/// Rewrites the methods of operations with such parameters, to call
/// `api-client-runtime`'s `parameters`.
pub fn write_parameter_values(spec: &Spec, file: &mut syn::File) -> Result<(), SpecError> {
    rewrite_methods(spec, file, |op| {
        let mut headers = Vec::new();
        let mut queries = Vec::new();
        let mut paths = Vec::new();
        for (parameter, _) in spec.parameters(op)? {
            let name = parameter["name"].as_str().unwrap_or_default().to_string();
            let Ok(shape) = parameter_shape(spec, &parameter) else {
                continue;
            };
            let place = parameter["in"].as_str();
            let written = match shape {
                ParameterShape::Json { .. } => Written::Json,
                ParameterShape::List(_) | ParameterShape::Scalar(None) => Written::Text,
                ParameterShape::Object(_) if place != Some("query") && parameter["explode"] == true => {
                    Written::Exploded
                }
                ParameterShape::Object(_) if place != Some("query") => Written::Text,
                _ => continue,
            };
            match place {
                Some("header") => headers.push((name, written)),
                Some("query") if written == Written::Json => queries.push(name),
                Some("path") if written != Written::Json => paths.push((progenitor_name(&name), written)),
                _ => {}
            }
        }
        let any = !headers.is_empty() || !queries.is_empty() || !paths.is_empty();
        Ok(any.then_some(Values {
            headers,
            queries,
            paths,
        }))
    })?;
    Ok(())
}

/// progenitor's Rust name of a parameter (its `sanitize`).
fn progenitor_name(name: &str) -> String {
    let snake = heck::ToSnakeCase::to_snake_case(
        name.replace('\'', "")
            .replace(|c: char| !c.is_alphanumeric() && c != '_', "-")
            .as_str(),
    );
    match syn::parse_str::<syn::Ident>(&snake) {
        Ok(_) => snake,
        Err(_) => format!("{snake}_"),
    }
}

struct Values {
    headers: Vec<(String, Written)>,
    queries: Vec<String>,
    paths: Vec<(String, Written)>,
}

/// `value` written as `written` says.
fn written_text(written: Written, value: &syn::Expr) -> syn::Expr {
    match written {
        Written::Text => syn::parse_quote!(::api_client_runtime::parameters::parameter_text(&#value)),
        Written::Exploded => syn::parse_quote!(::api_client_runtime::parameters::exploded_text(&#value)),
        Written::Json => syn::parse_quote!(::api_client_runtime::parameters::json_text(&#value).unwrap_or_default()),
    }
}

fn string_literal(expr: &syn::Expr) -> Option<String> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        }) => Some(text.value()),
        _ => None,
    }
}

/// `value.to_string()`'s receiver.
fn to_string_of(expr: &syn::Expr) -> Option<&syn::Expr> {
    match expr {
        syn::Expr::MethodCall(call) if call.method == "to_string" && call.args.is_empty() => Some(&call.receiver),
        _ => None,
    }
}

impl VisitMut for Values {
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
        mac.tokens = quote::quote!(#args);
    }

    fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
        match expr {
            // header_map.append("tags", value.to_string().try_into()?)
            syn::Expr::MethodCall(call) if call.method == "append" && call.args.len() == 2 => {
                let written = string_literal(&call.args[0])
                    .and_then(|name| self.headers.iter().find(|(n, _)| *n == name).map(|(_, w)| *w));
                if let Some(written) = written
                    && let syn::Expr::Try(tried) = &mut call.args[1]
                    && let syn::Expr::MethodCall(try_into) = &mut *tried.expr
                    && let Some(value) = to_string_of(&try_into.receiver).cloned()
                {
                    *try_into.receiver = written_text(written, &value);
                    return;
                }
            }
            // progenitor_client::QueryParam::new("filters", &filters)
            syn::Expr::Call(call) => {
                let is_query_param = matches!(&*call.func, syn::Expr::Path(p)
                    if p.path.segments.last().is_some_and(|s| s.ident == "new")
                        && p.path.segments.iter().any(|s| s.ident == "QueryParam"));
                if is_query_param
                    && call.args.len() == 2
                    && string_literal(&call.args[0]).is_some_and(|name| self.queries.contains(&name))
                {
                    let value = call.args[1].clone();
                    call.args[1] = syn::parse_quote!(&::api_client_runtime::parameters::json_text(#value));
                    return;
                }
                // encode_path(&id.to_string())
                let is_encode_path = matches!(&*call.func, syn::Expr::Path(p) if p.path.is_ident("encode_path"));
                if is_encode_path
                    && call.args.len() == 1
                    && let syn::Expr::Reference(reference) = &call.args[0]
                    && let Some(variable @ syn::Expr::Path(path)) = to_string_of(&reference.expr)
                    && let Some(ident) = path.path.get_ident()
                    && let Some((_, written)) = self.paths.iter().find(|(name, _)| *ident == name)
                {
                    let text = written_text(*written, variable);
                    call.args[0] = syn::parse_quote!(&#text);
                    return;
                }
            }
            _ => {}
        }
        syn::visit_mut::visit_expr_mut(self, expr);
    }
}
