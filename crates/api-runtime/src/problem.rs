//! The content of an error response, before the generated layer puts it
//! in the spec's Error object.

use crate::contract::Parameter;

/// What went wrong: the generated layer adds the status, so the body's
/// `status` always equals the HTTP status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Machine-readable, one of the codes the spec documents.
    pub code: String,
    /// For humans.
    pub message: String,
}

impl Problem {
    /// The problem that names `parameter` and what is wrong with it
    /// (`invalid_parameter`). Built only for a parameter that fails:
    /// reading runs for every parameter of every request.
    pub(crate) fn invalid_parameter(parameter: &Parameter, detail: String) -> Problem {
        Problem::new(
            "invalid_parameter",
            format!("{} parameter `{}`{detail}", parameter.location.as_str(), parameter.name),
        )
    }

    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        Problem {
            code: code.into(),
            message: message.into(),
        }
    }
}

/// dropshot's own error codes (`Internal`, `ObjectNotFound`, ...) are not
/// the ones the spec documents, so the code comes from the status.
impl From<dropshot::HttpError> for Problem {
    fn from(error: dropshot::HttpError) -> Self {
        Problem {
            code: default_code(error.status_code.as_u16()).to_string(),
            message: error.external_message,
        }
    }
}

/// The documented code for an error dropshot raised.
fn default_code(status: u16) -> &'static str {
    match status {
        400 => "bad_request",
        401 => "unauthorized",
        404 => "not_found",
        405 => "method_not_allowed",
        503 => "service_unavailable",
        500..=599 => "internal_error",
        _ => "bad_request",
    }
}
