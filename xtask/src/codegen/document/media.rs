//! Media types as designers write them: with parameters
//! (`application/json; charset=utf-8`), in any case, as `+json` vendor
//! types, or as ranges (`*/*`, `image/*`). What a body is made of depends
//! on the essence (type and subtype) alone.

use serde_json::{Map, Value};

/// How a body of a media type is carried in the generated code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaKind {
    /// `application/json` or a `+json` type: a value of its schema's type.
    Json,
    /// `text/*`: a string.
    Text,
    /// One exact type of anything else: bytes.
    Binary,
    /// A range (`*/*`, `image/*`): bytes, with the concrete type the
    /// handler chooses.
    Range,
}

/// The type and subtype, lower-cased, without parameters: the runtime's
/// reading, so that the generator and the server agree.
pub use api_shared::media::essence;

pub fn kind(media_type: &str) -> MediaKind {
    let essence = essence(media_type);
    match essence.split_once('/') {
        Some((_, "*")) | Some(("*", _)) => MediaKind::Range,
        Some(("application", "json")) => MediaKind::Json,
        Some(("application", subtype)) if subtype.ends_with("+json") => MediaKind::Json,
        // What some servers call JSON (`text/json`, `text/x-json`).
        Some(("text", "json" | "x-json")) => MediaKind::Json,
        Some(("text", _)) => MediaKind::Text,
        _ => MediaKind::Binary,
    }
}

/// A request body range a client can send bytes in, as
/// `application/octet-stream` (the layer reads any type within it): `*/*`
/// and `application/*`. Other ranges (`image/*`) name no type a client
/// could choose for the caller.
pub fn is_octet_range(media_type: &str) -> bool {
    ["*/*", "application/*"].contains(&essence(media_type).as_str())
}

/// A response written as a stream of items, each validated against the
/// item schema (OpenAPI 3.2's `itemSchema`, or the response's `schema`):
/// `"EventStream"` (Server-Sent Events) or `"JsonLines"` (JSON Lines,
/// NDJSON, RFC 7464 JSON text sequences).
pub fn stream_kind(media_type: &str) -> Option<&'static str> {
    match essence(media_type).as_str() {
        "text/event-stream" => Some("EventStream"),
        "application/jsonl"
        | "application/x-jsonlines"
        | "application/x-ndjson"
        | "application/ndjson"
        | "application/json-seq" => Some("JsonLines"),
        _ => None,
    }
}

/// A streamed response's item schema: 3.2's `itemSchema`, or the
/// response's `schema`, in the media type object `media`.
pub fn stream_item_schema(media: &Value) -> Option<&Value> {
    media.get("itemSchema").or(media.get("schema"))
}

/// Whether the text is a media type at all (`type/subtype`, parameters
/// allowed).
pub fn is_media_type(media_type: &str) -> bool {
    essence(media_type)
        .split_once('/')
        .is_some_and(|(ty, subtype)| !ty.is_empty() && !subtype.is_empty() && !subtype.contains('/'))
}

/// Which of the media types a spec lists for one body or response the
/// generated layer serves: the handler's value is read or written as
/// `primary` (a JSON one when there is one) and as each of
/// `alternatives`; `unserved` ones get 415 (a request body) or 406 (a
/// response), and lint names them.
#[derive(Debug, PartialEq)]
pub struct Served<'a> {
    pub primary: (&'a str, &'a Value),
    pub alternatives: Vec<&'a str>,
    pub unserved: Vec<&'a str>,
}

/// `usable`: whether the layer can read or write a media type (with its
/// object) at all; `same_value`: whether two usable ones carry the same
/// value (the same schema, in encodings the layer converts between).
pub fn served<'a>(
    content: &'a Map<String, Value>,
    usable: impl Fn(&str, &Value) -> bool,
    same_value: impl Fn((&str, &Value), (&str, &Value)) -> bool,
) -> Option<Served<'a>> {
    let candidates: Vec<(&'a str, &'a Value)> = content
        .iter()
        .map(|(media_type, media)| (media_type.as_str(), media))
        .filter(|(media_type, media)| usable(media_type, media))
        .collect();
    let primary = *candidates
        .iter()
        .find(|(media_type, _)| kind(media_type) == MediaKind::Json)
        .or(candidates.first())?;
    let alternatives: Vec<&str> = candidates
        .iter()
        .filter(|candidate| candidate.0 != primary.0 && same_value(primary, **candidate))
        .map(|(media_type, _)| *media_type)
        .collect();
    let unserved = content
        .keys()
        .map(String::as_str)
        .filter(|media_type| *media_type != primary.0 && !alternatives.contains(media_type))
        .collect();
    Some(Served {
        primary,
        alternatives,
        unserved,
    })
}

/// The media types a response is written in: JSON ones of one schema are
/// written from one value; without JSON, the first one alone.
pub fn served_response(content: &Map<String, Value>) -> Option<Served<'_>> {
    served(
        content,
        |_, _| true,
        |(a, a_media), (b, b_media)| {
            kind(a) == MediaKind::Json && kind(b) == MediaKind::Json && a_media.get("schema") == b_media.get("schema")
        },
    )
}

/// `application/xml`, `text/xml` or an `application/*+xml` type.
pub fn is_xml(media_type: &str) -> bool {
    let essence = essence(media_type);
    essence == "application/xml"
        || essence == "text/xml"
        || (essence.starts_with("application/") && essence.ends_with("+xml"))
}

#[cfg(test)]
mod tests {
    use super::{MediaKind, is_media_type, kind, served_response};

    #[test]
    fn a_media_type_is_read_by_its_essence() {
        assert_eq!(kind("application/json"), MediaKind::Json);
        assert_eq!(kind("application/json; charset=utf-8"), MediaKind::Json);
        assert_eq!(kind("Application/JSON"), MediaKind::Json);
        assert_eq!(kind("application/problem+json"), MediaKind::Json);
        assert_eq!(kind("text/plain; charset=utf-8"), MediaKind::Text);
        assert_eq!(kind("text/csv"), MediaKind::Text);
        assert_eq!(kind("application/octet-stream"), MediaKind::Binary);
        assert_eq!(kind("image/png"), MediaKind::Binary);
        assert_eq!(kind("*/*"), MediaKind::Range);
        assert_eq!(kind("image/*"), MediaKind::Range);
        assert!(is_media_type("application/json; charset=utf-8"));
        assert!(!is_media_type("json"));
        assert!(!is_media_type("/json"));
    }

    #[test]
    fn a_response_is_written_in_its_json_types_of_one_schema() {
        let content = serde_json::json!({
            "application/xml": {"schema": {"$ref": "#/components/schemas/Pet"}},
            "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}},
            "application/vnd.pet+json": {"schema": {"$ref": "#/components/schemas/Pet"}},
            "application/problem+json": {"schema": {"type": "string"}},
        });
        let served = served_response(content.as_object().unwrap()).unwrap();
        assert_eq!(served.primary.0, "application/json");
        assert_eq!(served.alternatives, ["application/vnd.pet+json"]);
        assert_eq!(served.unserved, ["application/problem+json", "application/xml"]);
        let images = serde_json::json!({"image/png": {}, "image/jpeg": {}});
        let served = served_response(images.as_object().unwrap()).unwrap();
        assert_eq!((served.primary.0, served.unserved), ("image/jpeg", vec!["image/png"]));
    }
}
