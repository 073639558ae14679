//! Request bodies in media types progenitor has no name for. progenitor
//! sends a body as `application/json`, `text/plain` or
//! `application/octet-stream` only, and refuses any other type
//! (`application/merge-patch+json`, `text/csv`, `image/png`). It gets
//! such a body under the name of its kind (`for_progenitor`), and the
//! method it writes is changed here to send the spec's type: its
//! `Content-Type` header's value is replaced, or, for JSON, set before
//! `.json(&body)` (which sets `application/json` only when none is set).

use syn::visit_mut::VisitMut;

use super::methods::rewrite_methods;
use crate::codegen::document::media::{self, MediaKind, essence};
use crate::codegen::document::{Spec, SpecError, served_body};

/// The name progenitor knows a body of `media_type` by, when it knows it
/// by another (or by the same in other letters: media types are
/// case-insensitive, progenitor's names are not): each kind's one type, and text for XML (which the client
/// sends as the text it is given). A form or multipart (which the client
/// leaves out) keeps its own.
pub fn progenitor_name(media_type: &str) -> Option<&'static str> {
    let essence = essence(media_type);
    let known = match media::kind(media_type) {
        _ if ["application/x-www-form-urlencoded", "multipart/form-data"].contains(&essence.as_str()) => return None,
        _ if crate::codegen::document::is_xml(media_type) => "text/plain",
        MediaKind::Json => "application/json",
        MediaKind::Text => "text/plain",
        MediaKind::Binary => "application/octet-stream",
        // Bytes as `application/octet-stream`, which the range takes.
        MediaKind::Range if media::is_octet_range(media_type) => return Some("application/octet-stream"),
        MediaKind::Range => return None,
    };
    // progenitor reads the type before any `;` as written, case and all
    // (`application/JSON` is unknown to it).
    let written = media_type.split(';').next().unwrap_or_default().trim();
    (written != known).then_some(known)
}

/// Rewrites the methods whose body has such a type.
pub fn send_media_types(spec: &Spec, file: &mut syn::File) -> Result<(), SpecError> {
    rewrite_methods(spec, file, |op| {
        let Some((body, _)) = spec.request_body(op)? else {
            return Ok(None);
        };
        let Some(served) = body["content"].as_object().and_then(|c| served_body(spec, c)) else {
            return Ok(None);
        };
        let media_type = served.primary.0;
        // A range is sent as the type progenitor sends, which is in it.
        if media::kind(media_type) == MediaKind::Range {
            return Ok(None);
        }
        Ok(progenitor_name(media_type).map(|known| ContentType {
            media_type: media_type.to_string(),
            json: known == "application/json",
        }))
    })?;
    Ok(())
}

struct ContentType {
    media_type: String,
    json: bool,
}

impl VisitMut for ContentType {
    fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
        syn::visit_mut::visit_expr_mut(self, expr);
        let syn::Expr::MethodCall(call) = expr else { return };
        let media_type = self.media_type.as_str();
        // .json(&body) → .header(CONTENT_TYPE, …).json(&body)
        if self.json && call.method == "json" && call.args.len() == 1 {
            let (receiver, body) = (&call.receiver, &call.args[0]);
            *expr = syn::parse_quote! {
                #receiver
                    .header(
                        ::reqwest::header::CONTENT_TYPE,
                        ::reqwest::header::HeaderValue::from_static(#media_type),
                    )
                    .json(#body)
            };
            return;
        }
        // .header(CONTENT_TYPE, HeaderValue::from_static("text/plain"))
        let is_content_type = |e: &syn::Expr| matches!(e, syn::Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "CONTENT_TYPE"));
        if !self.json
            && call.method == "header"
            && call.args.len() == 2
            && is_content_type(&call.args[0])
            && let syn::Expr::Call(value) = &mut call.args[1]
            && let Some(syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(literal),
                ..
            })) = value.args.first_mut()
        {
            *literal = syn::LitStr::new(media_type, literal.span());
        }
    }
}
