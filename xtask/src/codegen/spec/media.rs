//! Media types as designers write them: with parameters
//! (`application/json; charset=utf-8`), in any case, as `+json` vendor
//! types, or as ranges (`*/*`, `image/*`). What a body is made of depends
//! on the essence (type and subtype) alone.

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
pub use api_runtime::payload::essence;

pub fn kind(media_type: &str) -> MediaKind {
    let essence = essence(media_type);
    match essence.split_once('/') {
        Some((_, "*")) | Some(("*", _)) => MediaKind::Range,
        Some(("application", "json")) => MediaKind::Json,
        Some(("application", subtype)) if subtype.ends_with("+json") => MediaKind::Json,
        Some(("text", _)) => MediaKind::Text,
        _ => MediaKind::Binary,
    }
}

/// Whether the text is a media type at all (`type/subtype`, parameters
/// allowed).
pub fn is_media_type(media_type: &str) -> bool {
    essence(media_type)
        .split_once('/')
        .is_some_and(|(ty, subtype)| !ty.is_empty() && !subtype.is_empty() && !subtype.contains('/'))
}

#[cfg(test)]
mod tests {
    use super::{MediaKind, is_media_type, kind};

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
}
