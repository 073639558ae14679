//! RFC 9457 problem details (`application/problem+json`): the body of an
//! error the generated layer sends on its own (400, 401, 413, 415, 5XX...)
//! when the spec gives that status no Error object the layer can fill.
//!
//! A spec need not declare an error schema at all; its operations then
//! answer these errors in the standard form, which any HTTP client can
//! read, and `cargo xtask lint` tells our own specs' designers to document
//! them.

use schemars::JsonSchema;
use schemars::r#gen::SchemaGenerator;
use schemars::schema::Schema;
use serde::Serialize;

use crate::problem::Problem;

/// The media type RFC 9457 registers.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// An RFC 9457 problem: `type`, `title`, `status` and `detail`, with the
/// machine-readable `code` the layer uses as an extension member.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProblemDetails {
    /// `about:blank`: the status says what kind of problem this is.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The status's reason phrase.
    pub title: String,
    pub status: u16,
    pub detail: String,
    pub code: String,
}

impl ProblemDetails {
    pub fn from_problem(status: u16, problem: Problem) -> Self {
        let title = http::StatusCode::from_u16(status)
            .ok()
            .and_then(|s| s.canonical_reason())
            .unwrap_or("Error")
            .to_string();
        ProblemDetails {
            kind: "about:blank",
            title,
            status,
            detail: problem.message,
            code: problem.code,
        }
    }
}

impl std::fmt::Display for ProblemDetails {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.status, self.code, self.detail)
    }
}

/// dropshot's own errors (a request it cannot route or read).
impl From<dropshot::HttpError> for ProblemDetails {
    fn from(error: dropshot::HttpError) -> Self {
        let status = error.status_code.as_u16();
        ProblemDetails::from_problem(status, Problem::from(error))
    }
}

impl dropshot::HttpResponseError for ProblemDetails {
    fn status_code(&self) -> dropshot::ErrorStatusCode {
        dropshot::ErrorStatusCode::from_u16(self.status).unwrap_or(dropshot::ErrorStatusCode::INTERNAL_SERVER_ERROR)
    }
}

/// dropshot documents an API's error responses by this schema when the
/// spec has no Error object of its own.
impl JsonSchema for ProblemDetails {
    fn schema_name() -> String {
        "ProblemDetails".to_string()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        serde_json::from_value(serde_json::json!({
            "description": "RFC 9457 problem details.",
            "type": "object",
            "required": ["type", "title", "status", "detail", "code"],
            "properties": {
                "type": {"type": "string"},
                "title": {"type": "string"},
                "status": {"type": "integer", "format": "uint16", "minimum": 0},
                "detail": {"type": "string"},
                "code": {"type": "string"},
            },
        }))
        .expect("a valid schema")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_as_rfc_9457() {
        let details = ProblemDetails::from_problem(413, Problem::new("payload_too_large", "over 1 MiB"));
        assert_eq!(
            serde_json::to_value(&details).unwrap(),
            serde_json::json!({"type": "about:blank", "title": "Payload Too Large", "status": 413, "detail": "over 1 MiB", "code": "payload_too_large"})
        );
    }
}
