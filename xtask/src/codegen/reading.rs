//! A document as the generator reads it: a 3.1 document in its 3.0
//! rendering ([`document::openapi31`]), its tolerated mistakes read as they
//! mean ([`document::tolerate`]), without what a leave-out list names
//! ([`read_list`] finds it beside the spec); and the document the service
//! serves, as JSON ([`document_json`]).

use super::document::leave_out::{self, LeftOut};
use std::path::Path;

use super::document::{self, SpecError, SpecErrors};

/// A document as the generator reads it ([`apply_list`]).
pub(super) struct Read {
    /// The OpenAPI 3.0 text the generator reads.
    pub(super) text: String,
    /// What the designer's leave-out list kept out.
    pub(super) left_out: Vec<LeftOut>,
    /// The mistakes read as what they mean, and what a 3.1 document's
    /// rendering reads otherwise than written.
    pub(super) tolerated: Vec<document::tolerate::Tolerated>,
    /// The document the service serves when it is not `text`: a 3.1
    /// document's own source, not its 3.0 rendering.
    pub(super) served: Option<String>,
}

/// The spec's text as 3.0 ([`document::openapi31`]), with its tolerated
/// mistakes read as they mean ([`document::tolerate`]), without what a
/// leave-out list names.
pub(super) fn apply_list(spec_text: &str, list: Option<(&str, &str)>) -> Result<Read, SpecErrors> {
    let (spec_text, unreadable) = readable(spec_text);
    let spec_text = spec_text.as_ref();
    let (text, mut tolerated, served) = match document::openapi31::render(spec_text)? {
        Some(rendered) => (rendered.text, rendered.notes, Some(spec_text.to_string())),
        None => (spec_text.to_string(), Vec::new(), None),
    };
    let (text, more) = document::tolerate::tolerate(&text);
    tolerated.extend(unreadable);
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

/// A JSON document the YAML reader refuses (a number beyond 64 bits,
/// which JSON allows: chaingateway's example timestamps) read by the JSON
/// reader instead, where such a number is a float, and written as YAML
/// for the rest to read; with the note that says so.
fn readable(text: &str) -> (std::borrow::Cow<'_, str>, Option<document::tolerate::Tolerated>) {
    if serde_norway::from_str::<serde_norway::Value>(text).is_ok() {
        return (text.into(), None);
    }
    let Some(yaml) = serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|json| serde_norway::to_string(&json).ok())
    else {
        return (text.into(), None);
    };
    let note = document::tolerate::Tolerated {
        location: "document".to_string(),
        message: "JSON the YAML reader refuses (a number beyond 64 bits): read as JSON, such a number as a float, \
                  the keys in alphabetical order"
            .to_string(),
    };
    (yaml.into(), Some(note))
}

/// The leave-out list beside a spec under `root`, if there is one:
/// `(its path, its text)`.
pub fn read_list(root: &Path, spec_path: &str) -> Result<Option<(String, String)>, String> {
    let path = leave_out::list_path(spec_path);
    match std::fs::read_to_string(root.join(&path)) {
        Ok(text) => Ok(Some((path, text))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {path}: {e}")),
    }
}

/// The spec as compact JSON, keys in the document's order. Not through
/// openapiv3's types: their serialization depends on cargo features that
/// other crates of the workspace turn on, and the output must be the same
/// however the xtask is built.
pub(super) fn document_json(spec_text: &str) -> Result<String, SpecError> {
    let value: serde_norway::Value =
        serde_norway::from_str(spec_text).map_err(|e| SpecError::new("document", format!("invalid YAML: {e}")))?;
    serde_json::to_string(&value).map_err(|e| SpecError::new("document", format!("cannot write the spec as JSON: {e}")))
}
