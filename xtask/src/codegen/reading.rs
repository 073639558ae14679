//! A document as the generator reads it: a 3.1 document in its 3.0
//! rendering ([`spec::openapi31`]), its tolerated mistakes read as they
//! mean ([`spec::tolerate`]), without what a leave-out list names; and
//! the document the service serves.

use super::spec::leave_out::{self, LeftOut};
use super::spec::{self, SpecErrors};

/// A document as the generator reads it ([`apply_list`]).
pub(super) struct Read {
    /// The OpenAPI 3.0 text the generator reads.
    pub(super) text: String,
    /// What the designer's leave-out list kept out.
    pub(super) left_out: Vec<LeftOut>,
    /// The mistakes read as what they mean, and what a 3.1 document's
    /// rendering reads otherwise than written.
    pub(super) tolerated: Vec<spec::tolerate::Tolerated>,
    /// The document the service serves when it is not `text`: a 3.1
    /// document's own source, not its 3.0 rendering.
    pub(super) served: Option<String>,
}

/// The spec's text as 3.0 ([`spec::openapi31`]), with its tolerated
/// mistakes read as they mean ([`spec::tolerate`]), without what a
/// leave-out list names.
pub(super) fn apply_list(spec_text: &str, list: Option<(&str, &str)>) -> Result<Read, SpecErrors> {
    let (text, mut tolerated, served) = match spec::openapi31::render(spec_text)? {
        Some(rendered) => (rendered.text, rendered.notes, Some(spec_text.to_string())),
        None => (spec_text.to_string(), Vec::new(), None),
    };
    let (text, more) = spec::tolerate::tolerate(&text);
    tolerated.extend(more);
    let (text, left_out) = match list {
        Some((path, list_text)) => leave_out::leave_out(&text, path, &leave_out::parse_list(path, list_text)?)?,
        None => (text, Vec::new()),
    };
    Ok(Read {
        text,
        left_out,
        tolerated,
        served,
    })
}
