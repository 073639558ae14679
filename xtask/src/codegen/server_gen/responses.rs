//! Success and redirect responses: their model (status, body, documented
//! headers), read from the spec (their Rust is written in
//! `response_code.rs`).

use proc_macro2::TokenStream;
use quote::quote;
use serde_json::Value;

use super::context::{Context, range_variant, rust_field, status_variant};
use crate::codegen::document::media::{self, MediaKind, served_response};
use crate::codegen::document::{BodyShape, OperationRef, SpecError, body_shape, is_error_key};
use crate::codegen::namespace::Namespace;

pub(super) struct Success {
    /// The status, or the first of a range's (`2XX`: 200).
    pub(super) status: u16,
    /// The last status of a range (`2XX`: 299), whose status the handler
    /// chooses; `status` itself for one status.
    pub(super) last: u16,
    pub(super) variant: syn::Ident,
    pub(super) description: String,
    pub(super) content: Option<Content>,
    pub(super) headers: Vec<Header>,
    /// A `101`: the WebSocket upgrade, whose variant carries the
    /// handler's `runtime::Switching` (its content, if any, is what the
    /// connection carries afterwards, not a body).
    pub(super) upgrade: bool,
}

pub(super) struct Content {
    pub(super) media_type: String,
    /// The other media types written from the same value, chosen by the
    /// request's `Accept`.
    pub(super) alternatives: Vec<String>,
    /// Whether the spec lists more than one media type, so that the layer
    /// negotiates (and answers 406 for a request that accepts none).
    pub(super) negotiated: bool,
    /// `Json`, `Text`, `Binary`, `Range` (bytes of the handler's chosen
    /// type), `EventStream` or `JsonLines` (a stream of typed items): how
    /// the handler hands the body over.
    pub(super) kind: &'static str,
    pub(super) schema: syn::Ident,
    /// The type in the variant (`runtime::Json<T>`, `String`, `Bytes`).
    pub(super) ty: TokenStream,
    pub(super) doc_name: String,
}

pub(super) struct Header {
    pub(super) name: String,
    pub(super) field: syn::Ident,
    pub(super) description: Option<String>,
    pub(super) required: bool,
    pub(super) schema: syn::Ident,
    pub(super) ty: TokenStream,
    /// `Deprecation`/`Sunset` of a deprecated operation: the generated
    /// layer sends them, not the handler.
    pub(super) by_layer: bool,
}

impl Success {
    /// Whether the handler chooses the status, within a range.
    pub(super) fn is_range(&self) -> bool {
        self.last != self.status
    }

    /// The headers the handler provides.
    pub(super) fn handler_headers(&self) -> impl Iterator<Item = &Header> {
        self.headers.iter().filter(|h| !h.by_layer)
    }
}

pub(super) fn describe_successes(cx: &mut Context<'_>, op: &OperationRef<'_>) -> Result<Vec<Success>, SpecError> {
    let id = op.operation_id();
    let deprecated = op.operation.deprecated;
    let mut out = Vec::new();
    // 2xx statuses with the first one's body share its type; any other
    // body has its own.
    let mut body_type: Option<(BodyShape, (&'static str, TokenStream))> = None;
    for (key, response, location) in cx.spec.responses(op)? {
        if is_error_key(&key) {
            continue;
        }
        // `2XX`: any status of its class, the handler's to choose.
        let (status, last) = match key.as_bytes() {
            [class @ b'1'..=b'3', b'X', b'X'] => {
                let first = u16::from(class - b'0') * 100;
                (first, first + 99)
            }
            _ => {
                let status = key.parse().unwrap_or(200);
                (status, status)
            }
        };
        let shape = body_shape(&response);
        let shared = match (200..300).contains(&status) {
            true => body_type
                .as_ref()
                .filter(|(first, _)| *first == shape)
                .map(|(_, known)| known.clone()),
            false => None,
        };
        let upgrade = status == 101;
        // 204 and 205 have no body (RFC 9110 §15.3.5): content a spec
        // gives them is not sent (lint says so).
        let bodiless = matches!(status, 204 | 205);
        let listed = response["content"].as_object();
        let content = match listed.and_then(served_response) {
            _ if upgrade || bodiless => None,
            None => None,
            Some(served) => {
                let (media_type, media) = served.primary;
                let at = format!("{location}.content.{media_type}.schema");
                // Without a schema, any body. A stream's schema is its
                // items' (3.2's `itemSchema`, or the response's `schema`).
                let any = Value::Object(Default::default());
                let stream = media::stream_kind(media_type);
                let schema = match stream {
                    Some(_) => media::stream_item_schema(media).unwrap_or(&any),
                    None => media.get("schema").unwrap_or(&any),
                };
                let first_success = (200..300).contains(&status) && body_type.is_none();
                let name = match first_success {
                    true => format!("{id}-response-body"),
                    false => format!("{id}-{key}-response-body"),
                };
                let (kind, ty) = match (shared, stream) {
                    (Some(known), _) => known,
                    (None, Some(stream)) => {
                        let item = cx.types.add(schema, &format!("{name}-item"), &at)?;
                        let ty = match stream {
                            "EventStream" => quote!(runtime::EventStream<#item>),
                            _ => quote!(runtime::JsonLines<#item>),
                        };
                        (stream, ty)
                    }
                    (None, None) => match media::kind(media_type) {
                        MediaKind::Json => {
                            let ty = cx.types.add(schema, &name, &at)?;
                            ("Json", quote!(runtime::Json<#ty>))
                        }
                        MediaKind::Text => ("Text", quote!(::std::string::String)),
                        MediaKind::Binary => ("Binary", quote!(runtime::Bytes)),
                        MediaKind::Range => ("Range", quote!(runtime::Payload)),
                    },
                };
                if first_success {
                    body_type = Some((shape.clone(), (kind, ty.clone())));
                }
                let schema = cx
                    .schemas
                    .add(&mut cx.names, &format!("{id}_response_{key}"), schema, &at)?;
                Some(Content {
                    media_type: media_type.to_string(),
                    alternatives: served.alternatives.iter().map(|m| m.to_string()).collect(),
                    negotiated: listed.is_some_and(|c| c.len() > 1),
                    kind,
                    schema,
                    ty,
                    doc_name: heck::ToPascalCase::to_pascal_case(name.as_str()),
                })
            }
        };
        let mut headers = Vec::new();
        // Header names differ in ways a field's cannot (`X-Rate`, `x_rate`).
        let mut fields = Namespace::reserving([]);
        for name in response["headers"].as_object().into_iter().flat_map(|h| h.keys()) {
            let (header, at) = cx.spec.follow(
                &response["headers"][name.as_str()],
                "headers",
                format!("{location}.headers.{name}"),
            )?;
            let schema = &header["schema"];
            let ty = cx
                .types
                .add(schema, &format!("{id}-{key}-{name}-header"), &format!("{at}.schema"))?;
            headers.push(Header {
                field: fields.claim(&rust_field(name).to_string()),
                description: header["description"].as_str().map(str::to_string),
                required: header["required"].as_bool().unwrap_or(false),
                schema: cx.schemas.add(
                    &mut cx.names,
                    &format!("{id}_response_{key}_header_{name}"),
                    schema,
                    &format!("{at}.schema"),
                )?,
                ty,
                by_layer: deprecated
                    && (name.eq_ignore_ascii_case("deprecation") || name.eq_ignore_ascii_case("sunset")),
                name: name.clone(),
            });
        }
        out.push(Success {
            status,
            last,
            variant: match last == status {
                true => status_variant(status),
                false => range_variant(status),
            },
            description: response["description"].as_str().unwrap_or_default().trim().to_string(),
            content,
            headers,
            upgrade,
        });
    }
    Ok(out)
}
