//! What an endpoint sends: its success response or the Error object, with
//! headers that both carry.
//!
//! dropshot's error path cannot add headers to our error bodies, yet some
//! headers belong on errors too: `WWW-Authenticate` on every 401 (RFC 6750
//! §3), and `Deprecation`/`Sunset` on every response of a deprecated
//! operation. So an endpoint answers [`Reply<S>`] for both: its success
//! arm is `S` (dropshot's typed response, which documents the operation),
//! its error arm a status and a serialized Error object. The document
//! dropshot emits is unchanged: [`Reply`]'s `response_metadata()` is `S`'s,
//! and errors are documented by the endpoint's error type as before.

use bytes::Bytes;
use dropshot::{ApiEndpointResponse, Body, HttpError, HttpResponse};
use http::StatusCode;
use http::header::{CONTENT_TYPE, HeaderMap, HeaderValue, WWW_AUTHENTICATE};
use serde::Serialize;

use super::json::add_headers;

/// The challenge of a 401 whose request had no usable key (RFC 6750 §3: no
/// error code when no credentials were sent).
const CHALLENGE: &str = "Bearer";
/// The challenge of a 401 for a key that was sent but is not valid.
const INVALID_TOKEN_CHALLENGE: &str = "Bearer error=\"invalid_token\"";

pub struct Reply<S> {
    outcome: Outcome<S>,
    headers: HeaderMap,
}

enum Outcome<S> {
    Success(S),
    Error {
        status: StatusCode,
        body: Result<Bytes, String>,
    },
}

impl<S> Reply<S> {
    pub fn success(response: S) -> Self {
        Reply {
            outcome: Outcome::Success(response),
            headers: HeaderMap::new(),
        }
    }

    /// An error response: `status` with `body` (the Error object) as JSON.
    /// A 401 carries `WWW-Authenticate: Bearer`.
    pub fn error<E: Serialize>(status: u16, body: &E) -> Self {
        let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = serde_json::to_vec(body)
            .map(Bytes::from)
            .map_err(|e| format!("serializing the error body: {e}"));
        let mut reply = Reply {
            outcome: Outcome::Error { status, body },
            headers: HeaderMap::new(),
        };
        if status == StatusCode::UNAUTHORIZED {
            reply
                .headers
                .insert(WWW_AUTHENTICATE, HeaderValue::from_static(CHALLENGE));
        }
        reply
    }

    /// A 401 for a key that was sent but is not valid: the challenge says
    /// `error="invalid_token"`.
    pub(crate) fn invalid_token(mut self) -> Self {
        self.headers
            .insert(WWW_AUTHENTICATE, HeaderValue::from_static(INVALID_TOKEN_CHALLENGE));
        self
    }

    /// Adds each field of `headers` (a struct of strings, as dropshot's
    /// `HttpResponseHeaders` takes) to whichever response is sent.
    pub fn with_headers<H: Serialize>(mut self, headers: &H) -> Self {
        if let Err(e) = add_headers(&mut self.headers, headers) {
            self.outcome = Outcome::Error {
                status: StatusCode::INTERNAL_SERVER_ERROR,
                body: Err(e.internal_message),
            };
        }
        self
    }
}

impl<S: HttpResponse + Send + Sync + 'static> HttpResponse for Reply<S> {
    fn to_result(self) -> Result<http::Response<Body>, HttpError> {
        let mut response = match self.outcome {
            Outcome::Success(success) => success.to_result()?,
            Outcome::Error { status, body } => http::Response::builder()
                .status(status)
                .header(CONTENT_TYPE, dropshot::CONTENT_TYPE_JSON)
                .body(Body::from(body.map_err(HttpError::for_internal_error)?))?,
        };
        // The response's own headers win: these only add.
        for (name, value) in &self.headers {
            response.headers_mut().entry(name).or_insert_with(|| value.clone());
        }
        Ok(response)
    }

    fn response_metadata() -> ApiEndpointResponse {
        S::response_metadata()
    }

    fn status_code(&self) -> StatusCode {
        match &self.outcome {
            Outcome::Success(success) => success.status_code(),
            Outcome::Error { status, .. } => *status,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Problem {
        code: &'static str,
    }

    #[derive(Serialize)]
    struct Deprecated {
        #[serde(rename = "Deprecation")]
        deprecation: String,
    }

    #[test]
    fn both_arms_carry_the_headers_and_the_metadata_is_the_success_types() {
        let headers = Deprecated {
            deprecation: "@1".into(),
        };
        let ok: Reply<dropshot::HttpResponseDeleted> =
            Reply::success(dropshot::HttpResponseDeleted()).with_headers(&headers);
        let ok = ok.to_result().unwrap();
        assert_eq!(ok.status(), StatusCode::NO_CONTENT);
        assert_eq!(ok.headers()["deprecation"], "@1");

        let error: Reply<dropshot::HttpResponseDeleted> =
            Reply::error(404, &Problem { code: "not_found" }).with_headers(&headers);
        let error = error.to_result().unwrap();
        assert_eq!(error.status(), StatusCode::NOT_FOUND);
        assert_eq!(error.headers()["deprecation"], "@1");
        assert_eq!(error.headers()[CONTENT_TYPE], "application/json");
        assert!(!error.headers().contains_key(WWW_AUTHENTICATE));

        let ours = <Reply<dropshot::HttpResponseDeleted> as HttpResponse>::response_metadata();
        let typed = <dropshot::HttpResponseDeleted as HttpResponse>::response_metadata();
        assert_eq!(format!("{ours:?}"), format!("{typed:?}"));
    }

    #[test]
    fn a_401_carries_a_bearer_challenge() {
        let missing: Reply<dropshot::HttpResponseDeleted> = Reply::error(401, &Problem { code: "unauthorized" });
        assert_eq!(missing.to_result().unwrap().headers()[WWW_AUTHENTICATE], "Bearer");
        let invalid: Reply<dropshot::HttpResponseDeleted> =
            Reply::error(401, &Problem { code: "unauthorized" }).invalid_token();
        assert_eq!(
            invalid.to_result().unwrap().headers()[WWW_AUTHENTICATE],
            "Bearer error=\"invalid_token\""
        );
    }
}
