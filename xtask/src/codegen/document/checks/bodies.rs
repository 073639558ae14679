//! Request bodies: the media types progenitor's client can send (by
//! essence: parameters such as `charset` are allowed), several of them
//! when they carry one value.

use serde_json::{Map, Value};

use crate::codegen::document::errors::SpecError;
use crate::codegen::document::forms::{FormKind, form_fields};
use crate::codegen::document::media::{self, MediaKind, Served, essence, is_xml, served};
use crate::codegen::document::model::{OperationRef, Spec};
use crate::codegen::document::multipart::{Multipart, multipart};
use crate::codegen::schema;

/// The media types a request body may have, each read by the generated
/// layer, in words (for refusals and lint): progenitor's client sends all
/// but multipart (an operation with a multipart body is left out of the
/// client, `for_progenitor`), XML as text, and those it has no name for
/// in the one it has of their kind (`client_gen/media_types.rs`).
pub(crate) const BODY_MEDIA_TYPES: &str = "application/json or any `+json` type, \
     application/x-www-form-urlencoded, multipart/form-data, XML (read into its schema's value), \
     text/* (a string), or any other single type as bytes";

/// Whether the layer reads a request body of `media_type` (by its
/// essence), whatever its schema: a range only where the client can send
/// bytes in it (`*/*`, `application/*`: the handler gets the type sent);
/// in another, a client would have to choose the concrete type.
pub(crate) fn is_readable_body_type(media_type: &str) -> bool {
    // The client sends it as a header value as it is written.
    let header_value = media_type.bytes().all(|b| b.is_ascii_graphic() || b == b' ');
    let readable = media::kind(media_type) != MediaKind::Range || media::is_octet_range(media_type);
    readable && media::is_media_type(media_type) && header_value
}

pub(super) fn check_request_body(spec: &Spec, op: &OperationRef<'_>) -> Result<(), SpecError> {
    let Some((body, location)) = spec.request_body(op)? else {
        return Ok(());
    };
    let content = body.get("content").and_then(Value::as_object);
    let Some(content) = content.filter(|c| !c.is_empty()) else {
        return Err(SpecError::new(
            format!("{location}.content"),
            "a request body needs a content",
        ));
    };
    let check = |media_type: &str, media: &Value| {
        check_media(spec, &format!("{location}.content.{media_type}"), media_type, media)
    };
    if served_body(spec, content).is_none() {
        // Nothing the layer reads: the first media type's reason.
        let (media_type, media) = content.iter().next().expect("not empty");
        return check(media_type, media);
    }
    // Media types the layer reads that carry values of their own (another
    // schema) give the handler the body as bytes and its media type, each
    // checked against its own schema (`server_gen/bodies.rs`); multipart
    // beside another type is answered 415, as XML of another schema is:
    // lint names them.
    Ok(())
}

/// The media types of a request body the layer reads into the handler's
/// one value: JSON, forms and XML of one schema are read alike; any other
/// media type is answered 415. XML is the handler's own media type only
/// without JSON or a form (progenitor's client sends it as text).
pub fn served_body<'a>(spec: &Spec, content: &'a Map<String, Value>) -> Option<Served<'a>> {
    let structured = |media_type: &str| {
        media::kind(media_type) == MediaKind::Json || essence(media_type) == "application/x-www-form-urlencoded"
    };
    let mut served = served(
        content,
        |media_type, media| check_media(spec, "", media_type, media).is_ok(),
        |(a, a_media), (b, b_media)| structured(a) && structured(b) && a_media.get("schema") == b_media.get("schema"),
    )?;
    let (primary, primary_media) = served.primary;
    if structured(primary) {
        let same_xml = |media_type: &&str| {
            is_xml(media_type)
                && content[*media_type]
                    .get("schema")
                    .is_some_and(|s| Some(s) == primary_media.get("schema"))
        };
        let xml: Vec<&str> = served.unserved.iter().copied().filter(same_xml).collect();
        served.unserved.retain(|media_type| !xml.contains(media_type));
        served.alternatives.extend(xml);
    }
    Some(served)
}

/// Whether the layer reads a body of `media_type`, and progenitor's
/// client can send it; the reason otherwise, at `at`.
fn check_media(spec: &Spec, at: &str, media_type: &str, media: &Value) -> Result<(), SpecError> {
    // Parameters (`; charset=utf-8`) say how the same body is encoded.
    let essence = essence(media_type);
    if !is_readable_body_type(media_type) {
        return Err(SpecError::new(
            at,
            format!("`{media_type}` is not supported for a request body; supported: {BODY_MEDIA_TYPES}"),
        ));
    }
    // A multipart body's `encoding` names its parts' media types, which
    // the handler gets as sent.
    let schema = media
        .get("schema")
        .ok_or_else(|| SpecError::new(at, "a request body needs a schema"))?;
    // `encoding` applies to forms only (OpenAPI ignores it elsewhere).
    if let Some(encoding) = media.get("encoding")
        && essence == "application/x-www-form-urlencoded"
        && !encoding_is_the_reading(spec, schema, encoding, at)
    {
        return Err(SpecError::new(format!("{at}.encoding"), "`encoding` is not supported"));
    }
    schema::check(schema, &format!("{at}.schema"), spec.component_schemas())?;
    // Text is a string its schema checks; bytes are sent as they are,
    // whatever the schema says they encode (tolerated, with a warning);
    // progenitor's client sends either as it is given.
    match essence.as_str() {
        "application/x-www-form-urlencoded" => form_fields(spec, schema, &format!("{at}.schema")).map(|_| ()),
        "multipart/form-data" => match multipart(spec, schema, &format!("{at}.schema"))? {
            Multipart::Whole => Ok(()),
            Multipart::Fields { fields, .. } => form_fields(spec, &fields, &format!("{at}.schema")).map(|_| ()),
        },
        _ => Ok(()),
    }
}

/// Whether a form's `encoding` says no more than how the layer reads the
/// form anyway: no entries; `style: form` and `explode: true` (a form's
/// defaults); `style: deepObject` (bracket notation, which the layer reads
/// for any field, `runtime::brackets`); `contentType: application/json` for a field of an object
/// or of any type (read as JSON text). Stripe's documents carry `encoding: {}` on each.
fn encoding_is_the_reading(spec: &Spec, schema: &Value, encoding: &Value, at: &str) -> bool {
    let Some(entries) = encoding.as_object() else {
        return false;
    };
    if entries.is_empty() {
        return true;
    }
    let Ok(fields) = form_fields(spec, schema, &format!("{at}.schema")) else {
        return false;
    };
    entries.iter().all(|(name, entry)| {
        let Some(entry) = entry.as_object() else {
            return false;
        };
        entry.iter().all(|(key, value)| match key.as_str() {
            "style" => value == "form" || value == "deepObject",
            "explode" => value == true,
            "allowReserved" => value == false,
            "contentType" => {
                media::kind(value.as_str().unwrap_or_default()) == MediaKind::Json
                    && fields
                        .iter()
                        .any(|(field, kind)| field == name && matches!(kind, FormKind::Any | FormKind::Object(_)))
            }
            _ => key.starts_with("x-"),
        })
    })
}
