//! Form bodies with lists and structured values on the client.
//! progenitor writes every form with serde_urlencoded, which has no lists
//! or objects (its error comes at run time, for every call). Where a
//! form has such fields, the method writes it with `encode_form` instead,
//! as the server reads it (`runtime::FormField`): a pair per list item,
//! an object as JSON text.

use quote::quote;
use syn::visit_mut::VisitMut;

use super::methods::rewrite_methods;
use crate::codegen::spec::forms::{form_fields, is_structured};
use crate::codegen::spec::media::essence;
use crate::codegen::spec::{Spec, SpecError, served_body};

/// Rewrites the methods whose form body is structured, and adds
/// `encode_form` when one is.
pub fn write_structured_forms(spec: &Spec, file: &mut syn::File) -> Result<(), SpecError> {
    let rewritten = rewrite_methods(spec, file, |op| {
        let Some((body, location)) = spec.request_body(op)? else {
            return Ok(None);
        };
        let Some(served) = body["content"].as_object().and_then(|c| served_body(spec, c)) else {
            return Ok(None);
        };
        // progenitor sends the one the handler's value is read from.
        let (media_type, media) = served.primary;
        if essence(media_type) != "application/x-www-form-urlencoded" {
            return Ok(None);
        }
        let fields = form_fields(
            spec,
            &media["schema"],
            &format!("{location}.content.{media_type}.schema"),
        )?;
        if !is_structured(&fields) {
            return Ok(None);
        }
        let lists = fields
            .iter()
            .filter(|(_, kind)| kind.is_list())
            .map(|(name, _)| name.to_string())
            .collect();
        Ok(Some(FormEncoding { lists }))
    })?;
    if rewritten {
        file.items.push(encode_form());
    }
    Ok(())
}

/// `.form_urlencoded(&body)?` → the same body, written by `encode_form`.
struct FormEncoding {
    lists: Vec<String>,
}

impl VisitMut for FormEncoding {
    fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
        syn::visit_mut::visit_expr_mut(self, expr);
        let syn::Expr::Try(attempt) = expr else { return };
        let syn::Expr::MethodCall(call) = &*attempt.expr else {
            return;
        };
        if call.method != "form_urlencoded" || call.args.len() != 1 {
            return;
        }
        let (receiver, body, lists) = (&call.receiver, &call.args[0], &self.lists);
        *expr = syn::parse_quote! {
            #receiver
                .header(
                    ::reqwest::header::CONTENT_TYPE,
                    ::reqwest::header::HeaderValue::from_static("application/x-www-form-urlencoded"),
                )
                .body(encode_form(#body, &[#(#lists),*])?)
        };
    }
}

fn encode_form() -> syn::Item {
    syn::parse2(quote! {
        /// Writes a form body as the server reads it: a scalar as its
        /// text, each item of a list (`lists` names them) as its own pair,
        /// an object or any other structured value as JSON text.
        /// (progenitor's encoder, serde_urlencoded, writes no lists or
        /// objects.)
        fn encode_form<T: ::serde::Serialize, E>(
            body: &T,
            lists: &[&str],
        ) -> ::std::result::Result<::std::string::String, Error<E>> {
            let invalid = |e: ::std::string::String| Error::InvalidRequest(format!("the form body: {e}"));
            let value = ::serde_json::to_value(body).map_err(|e| invalid(e.to_string()))?;
            let ::serde_json::Value::Object(fields) = value else {
                return Err(invalid("not an object".into()));
            };
            let text = |value: &::serde_json::Value| match value {
                ::serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let mut pairs: ::std::vec::Vec<(&str, ::std::string::String)> = ::std::vec::Vec::new();
            for (name, value) in &fields {
                match value {
                    ::serde_json::Value::Null => {}
                    ::serde_json::Value::Array(items) if lists.contains(&name.as_str()) => {
                        pairs.extend(items.iter().map(|item| (name.as_str(), text(item))));
                    }
                    other => pairs.push((name.as_str(), text(other))),
                }
            }
            ::serde_urlencoded::to_string(&pairs).map_err(|e| invalid(e.to_string()))
        }
    })
    .expect("encode_form is valid Rust")
}
