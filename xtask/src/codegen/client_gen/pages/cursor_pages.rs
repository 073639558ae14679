//! An operation's declared cursor pattern (`x-pagination`), once checked
//! against the spec, and the refusal when progenitor's client does not
//! have what the stream reads.

use crate::codegen::document::SpecError;

/// The extension that declares an operation's cursor pattern.
pub const EXTENSION: &str = "x-pagination";

/// An operation's cursor pattern, checked against the spec.
pub(super) struct CursorPages {
    pub(super) operation_id: String,
    pub(super) location: String,
    /// The cursor query parameter, as named in the spec.
    pub(super) cursor: String,
    /// The page's next-cursor property, as named in the spec.
    pub(super) next_cursor: String,
    /// The page's items property, as named in the spec.
    pub(super) items: String,
}

/// The generated client is not what this module expects of progenitor:
/// reported at the declaration, never a panic.
pub(super) fn generated_mismatch(pages: &CursorPages, expected: &str) -> SpecError {
    SpecError::new(
        &pages.location,
        format!(
            "the client generated for `{}` has no {expected}: the stream cannot be generated",
            pages.operation_id
        ),
    )
}
