//! Request bodies: read within the server's size limit before the handler
//! runs (dropshot hands the body to one extractor only), and decoded,
//! checked against the spec's schema and typed after the caller is
//! authenticated, so that a request without a key gets 401 before any
//! 400, 413 or 415.

use std::marker::PhantomData;

use async_trait::async_trait;
use bytes::{Bytes, BytesMut};
use dropshot::{
    ApiEndpointBodyContentType, ExclusiveExtractor, ExtractorMetadata, HttpError, RequestContext, ServerContext,
};
use http_body_util::BodyExt;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::contract::{Body, BodyKind, Contract};
use crate::form::read_form;
use crate::multipart::{Multipart, read_multipart};
use crate::payload::Payload;
use crate::rejection::Rejection;
use crate::schema::Schema;
use crate::values::quote;
use crate::xml::read_xml;

/// How much of a body over the limit is read (and dropped) before the
/// connection is given up: enough for a client that sends its whole body
/// before it reads the 413 to see it, not so much that an endless body
/// holds the server.
const DRAIN_LIMIT: usize = 1 << 20;

/// The request body of the operation `C`, read but not yet decoded.
pub struct RequestBody<C> {
    read: Result<Option<Received>, Rejection>,
    contract: PhantomData<fn() -> C>,
}

struct Received {
    content_type: Option<http::HeaderValue>,
    bytes: Bytes,
}

/// A body whose media type is one the operation reads.
struct Checked {
    spec: &'static Body,
    /// How the media type is read.
    kind: BodyKind,
    /// The schema of the media type it is (the body's, or one of its
    /// `others`').
    schema: &'static Schema,
    /// As the request gave it (a multipart body's boundary is in it).
    content_type: String,
    bytes: Bytes,
}

#[async_trait]
impl<C: Contract> ExclusiveExtractor for RequestBody<C> {
    async fn from_request<Context: ServerContext>(
        rqctx: &RequestContext<Context>,
        request: http::Request<dropshot::Body>,
    ) -> Result<Self, HttpError> {
        let limit = rqctx.request_body_max_bytes();
        let (parts, body) = request.into_parts();
        let content_type = parts.headers.get(http::header::CONTENT_TYPE).cloned();
        let read = read_limited(body, limit)
            .await
            .map(|bytes| (!bytes.is_empty() || content_type.is_some()).then_some(Received { content_type, bytes }));
        Ok(RequestBody {
            read,
            contract: PhantomData,
        })
    }

    fn metadata(_body_content_type: ApiEndpointBodyContentType) -> ExtractorMetadata {
        crate::documentation::body::<C>()
    }
}

/// The whole body, or 413 once it passes `limit` bytes.
async fn read_limited(mut body: dropshot::Body, limit: usize) -> Result<Bytes, Rejection> {
    let mut buffer = BytesMut::new();
    let mut dropped = 0usize;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| Rejection::of(400, "bad_request", format!("reading the request body: {e}")))?;
        let Ok(data) = frame.into_data() else { continue };
        if buffer.len() + data.len() <= limit && dropped == 0 {
            buffer.extend_from_slice(&data);
            continue;
        }
        dropped += data.len();
        if dropped > DRAIN_LIMIT {
            break;
        }
    }
    match dropped {
        0 => Ok(buffer.freeze()),
        _ => Err(Rejection::of(
            413,
            "payload_too_large",
            format!("the request body is larger than the limit of {limit} bytes"),
        )),
    }
}

impl<C: Contract> RequestBody<C> {
    fn spec() -> Result<&'static Body, Rejection> {
        C::operation()
            .body
            .as_ref()
            .ok_or_else(|| Rejection::of(500, "internal_error", "this operation takes no body"))
    }

    /// The body's bytes with its media type checked (and how that media
    /// type is read), or `None` when there is none and none is required.
    fn received(self) -> Result<Option<Checked>, Rejection> {
        let spec = Self::spec()?;
        match self.read? {
            None if spec.required => Err(Rejection::invalid_body(format!(
                "a request body ({}) is required",
                spec.media_type
            ))),
            None => Ok(None),
            Some(Received { content_type, bytes }) => {
                let content_type = content_type.map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
                let (kind, schema) = media_kind(spec, content_type.as_deref())?;
                Ok(Some(Checked {
                    spec,
                    kind,
                    schema,
                    content_type: content_type.unwrap_or_default(),
                    bytes,
                }))
            }
        }
    }

    /// A JSON or form body, checked against its schema and typed.
    pub fn decode<T: DeserializeOwned>(self) -> Result<Option<T>, Rejection> {
        let Some(Checked { spec, kind, bytes, .. }) = self.received()? else {
            return Ok(None);
        };
        let value = match kind {
            BodyKind::Json => serde_json::from_slice::<Value>(&bytes)
                .map_err(|e| Rejection::invalid_body(format!("the request body is not valid JSON: {e}")))?,
            BodyKind::Form => read_form(spec, &bytes)?,
            BodyKind::Xml => read_xml(spec.schema, &bytes)?,
            BodyKind::Binary | BodyKind::Text | BodyKind::Multipart => {
                return Err(Rejection::of(
                    500,
                    "internal_error",
                    "a raw body is read as bytes or text",
                ));
            }
        };
        spec.schema.validate(&value).map_err(breaks_schema)?;
        // Taken apart rather than read from: its strings move into the
        // typed value. Should serde refuse what the schema allowed, the
        // bytes are read again: with numbers like `4.0` as the integers
        // they are (JSON Schema's reading, off the path of every request
        // that has none), then, tracking where, for the reason.
        let typed = |value| crate::checked_strings::typed::<T>(spec.schema, value);
        let typed = typed(value).or_else(|first| match kind {
            BodyKind::Json => {
                let mut value: Value = serde_json::from_slice(&bytes).map_err(|_| first)?;
                crate::values::integral_numbers_as_integers(&mut value);
                typed(value)
            }
            _ => Err(first),
        });
        typed.map(Some).map_err(|_| {
            let read = match kind {
                BodyKind::Form | BodyKind::Xml => {
                    let value = match kind {
                        BodyKind::Form => read_form(spec, &bytes),
                        _ => read_xml(spec.schema, &bytes),
                    };
                    value.and_then(|v| {
                        crate::parameters::typed_value::<T>(&v)
                            .map_err(|(at, why)| Rejection::invalid_body(format!("`{at}`: {why}")))
                    })
                }
                _ => serde_path_to_error::deserialize::<_, T>(&mut serde_json::Deserializer::from_slice(&bytes))
                    .map_err(|e| Rejection::invalid_body(format!("`{}`: {}", e.path(), e.inner()))),
            };
            let detail = match read {
                Err(rejection) => rejection.problem.message,
                Ok(_) => "the body does not fit its type".into(),
            };
            Rejection::invalid_body(format!("request body at {detail}"))
        })
    }

    /// A multipart body: its text fields checked against the schema (its
    /// file properties aside) and typed, and its files.
    pub async fn multipart<T: DeserializeOwned>(self) -> Result<Option<Multipart<T>>, Rejection> {
        let Some(Checked {
            spec,
            content_type,
            bytes,
            ..
        }) = self.received()?
        else {
            return Ok(None);
        };
        let (fields, files) = read_multipart(spec, &content_type, bytes).await?;
        // A schema of the whole body as bytes says nothing of its parts.
        let validated = match spec.file_parts {
            crate::contract::FileParts::All => Ok(()),
            crate::contract::FileParts::Named(_) => spec.schema.validate(&fields),
        };
        validated.map_err(breaks_schema)?;
        let fields = crate::parameters::typed_value::<T>(&fields)
            .map_err(|(at, why)| Rejection::invalid_body(format!("request body at `{at}`: {why}")))?;
        Ok(Some(Multipart { fields, files }))
    }

    /// A raw body's bytes.
    pub fn bytes(self) -> Result<Option<Bytes>, Rejection> {
        Ok(self.received()?.map(|checked| checked.bytes))
    }

    /// A body in one of several media types that carry values of their
    /// own: its bytes and media type, checked against the schema of the
    /// media type it is (JSON parsed, XML read, text as UTF-8, each
    /// validated; other bytes as they are).
    pub fn payload(self) -> Result<Option<Payload>, Rejection> {
        let Some(Checked {
            spec,
            kind,
            schema,
            content_type,
            bytes,
        }) = self.received()?
        else {
            return Ok(None);
        };
        let value = match kind {
            BodyKind::Json => Some(
                serde_json::from_slice::<Value>(&bytes)
                    .map_err(|e| Rejection::invalid_body(format!("the request body is not valid JSON: {e}")))?,
            ),
            BodyKind::Xml => Some(read_xml(schema, &bytes)?),
            BodyKind::Form => Some(read_form(spec, &bytes)?),
            BodyKind::Text => {
                Some(Value::String(String::from_utf8(bytes.to_vec()).map_err(|e| {
                    Rejection::invalid_body(format!("the request body is not UTF-8: {e}"))
                })?))
            }
            BodyKind::Binary | BodyKind::Multipart => None,
        };
        if let Some(value) = value {
            schema.validate(&value).map_err(breaks_schema)?;
        }
        Ok(Some(Payload::new(content_type, bytes)))
    }

    /// A text body, which must be UTF-8.
    pub fn text(self) -> Result<Option<String>, Rejection> {
        let Some(Checked { schema, bytes, .. }) = self.received()? else {
            return Ok(None);
        };
        let text = String::from_utf8(bytes.to_vec())
            .map_err(|e| Rejection::invalid_body(format!("the request body is not UTF-8: {e}")))?;
        schema
            .validate(&Value::String(text.clone()))
            .map_err(|v| Rejection::invalid_body(format!("request body: {} ({})", v.message, v.keyword)))?;
        Ok(Some(text))
    }
}

/// The 400 for a body that breaks its schema: where, and which rule.
fn breaks_schema(violation: crate::schema::Violation) -> Rejection {
    let at = match violation.pointer.as_str() {
        "" => String::new(),
        pointer => format!(" at `{pointer}`"),
    };
    Rejection::invalid_body(format!(
        "request body{at}: {} ({})",
        violation.message, violation.keyword
    ))
}

/// A required body is there: `decode`, `bytes` and `text` reject a
/// missing one already, so `None` cannot reach this, but the type says so.
pub fn required<T>(body: Option<T>) -> Result<T, Rejection> {
    body.ok_or_else(|| Rejection::invalid_body("a request body is required"))
}

/// How the request's body is read: by the media type the spec documents
/// that it matches (its parameters, such as `charset`, aside; JSON also as
/// `application/*+json`), or 415 when it matches none the layer reads.
fn media_kind(spec: &Body, content_type: Option<&str>) -> Result<(BodyKind, &'static Schema), Rejection> {
    let unsupported = |got: &str| {
        let readable: Vec<&str> = std::iter::once(spec.media_type)
            .chain(spec.alternatives.iter().map(|(media_type, _)| *media_type))
            .chain(spec.others.iter().map(|(media_type, _, _)| *media_type))
            .collect();
        Rejection::of(
            415,
            "unsupported_media_type",
            format!(
                "the request body must be {} (Content-Type), not {got}",
                readable.join(" or ")
            ),
        )
    };
    let Some(content_type) = content_type else {
        return Err(unsupported("absent"));
    };
    let mut parts = content_type.split(';');
    let essence = parts.next().unwrap_or_default().trim();
    let has_prefix = |s: &str, prefix: &str| s.get(..prefix.len()).is_some_and(|p| p.eq_ignore_ascii_case(prefix));
    let has_suffix = |s: &str, suffix: &str| {
        s.len() >= suffix.len()
            && s.get(s.len() - suffix.len()..)
                .is_some_and(|p| p.eq_ignore_ascii_case(suffix))
    };
    let documented = std::iter::once((spec.media_type, spec.kind, spec.schema))
        .chain(
            spec.alternatives
                .iter()
                .map(|(media_type, kind)| (*media_type, *kind, spec.schema)),
        )
        .chain(spec.others.iter().copied());
    let exact = |(media_type, _, _): &(&str, BodyKind, &Schema)| {
        essence.eq_ignore_ascii_case(media_type.split(';').next().unwrap_or_default().trim())
    };
    let json_suffix = has_prefix(essence, "application/") && has_suffix(essence, "+json");
    // A documented range (`*/*`, `application/*`) takes any type in it.
    let within = |(media_type, _, _): &(&str, BodyKind, &Schema)| match media_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .split_once('/')
    {
        Some(("*", "*")) => true,
        Some((major, "*")) => essence
            .split_once('/')
            .is_some_and(|(got, _)| got.eq_ignore_ascii_case(major)),
        _ => false,
    };
    let (kind, schema) = match documented
        .clone()
        .find(exact)
        .or_else(|| documented.clone().find(within))
    {
        Some((_, kind, schema)) => (kind, schema),
        // A `+json` type stands for the documented JSON.
        None => match documented
            .map(|(_, kind, schema)| (kind, schema))
            .find(|(k, _)| *k == BodyKind::Json)
        {
            Some(found) if json_suffix => found,
            _ => return Err(unsupported(&quote(content_type))),
        },
    };
    if matches!(kind, BodyKind::Text | BodyKind::Json | BodyKind::Xml) {
        for parameter in parts {
            if let Some((name, value)) = parameter.split_once('=')
                && name.trim().eq_ignore_ascii_case("charset")
                && !value.trim().trim_matches('"').eq_ignore_ascii_case("utf-8")
            {
                return Err(unsupported(&quote(content_type)));
            }
        }
    }
    Ok((kind, schema))
}

#[cfg(test)]
mod tests;
