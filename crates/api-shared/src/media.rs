//! Media types as both sides compare them.

/// A media type's type and subtype, lower-cased, without parameters
/// (`Application/JSON; charset=utf-8` → `application/json`).
pub fn essence(media_type: &str) -> String {
    media_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}
