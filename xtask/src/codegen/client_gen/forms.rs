//! Form bodies with lists and structured values on the client.
//! progenitor writes every form with serde_urlencoded, which has no lists
//! or objects (its error comes at run time, for every call). Where a
//! form has such fields, the method writes it with `api-client-runtime`'s
//! `encode_form` instead, as the server reads it (`runtime::FormField`): a pair per list item,
//! a field the spec encodes as a `deepObject` in bracket notation, an
//! object as JSON text.

use syn::visit_mut::VisitMut;

use super::methods::rewrite_methods;
use crate::codegen::document::forms::{deep_fields, form_fields, is_structured};
use crate::codegen::document::media::essence;
use crate::codegen::document::{Spec, SpecError, served_body};

/// Rewrites the methods whose form body is structured.
pub fn write_structured_forms(spec: &Spec, file: &mut syn::File) -> Result<(), SpecError> {
    rewrite_methods(spec, file, |op| {
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
        let deep: Vec<String> = deep_fields(media).into_iter().map(str::to_string).collect();
        if !is_structured(&fields) && deep.is_empty() {
            return Ok(None);
        }
        let lists = fields
            .iter()
            .filter(|(_, kind)| kind.is_list())
            .map(|(name, _)| name.to_string())
            .collect();
        Ok(Some(FormEncoding { lists, deep }))
    })?;
    Ok(())
}

/// `.form_urlencoded(&body)?` → the same body, written by `encode_form`.
struct FormEncoding {
    lists: Vec<String>,
    /// The fields in bracket notation (`encoding`'s `deepObject` ones).
    deep: Vec<String>,
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
        let (receiver, body, lists, deep) = (&call.receiver, &call.args[0], &self.lists, &self.deep);
        *expr = syn::parse_quote! {
            #receiver
                .header(
                    ::reqwest::header::CONTENT_TYPE,
                    ::reqwest::header::HeaderValue::from_static("application/x-www-form-urlencoded"),
                )
                .body(::api_client_runtime::forms::encode_form(#body, &[#(#lists),*], &[#(#deep),*])?)
        };
    }
}
