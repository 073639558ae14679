//! 405 for a method a path does not document, answered with the Error
//! object and `Allow`.
//!
//! dropshot's router answers such a request itself, with its own body.
//! The generated `api_description` registers, for every path, a hidden
//! endpoint (`ApiEndpoint::visible(false)`: not in the document) for each
//! method the path does not have, and these answer instead.

use dropshot::Body;
use http::header::{ALLOW, CONTENT_TYPE};
use http::{Method, StatusCode};
use serde::Serialize;

use crate::problem::Problem;

/// The methods a hidden 405 endpoint is registered for, unless the path
/// documents them.
const METHODS: [Method; 7] = [
    Method::GET,
    Method::HEAD,
    Method::POST,
    Method::PUT,
    Method::DELETE,
    Method::PATCH,
    Method::OPTIONS,
];

/// The methods of [`METHODS`] not in `allowed`.
pub fn methods_other_than(allowed: &[&str]) -> Vec<Method> {
    METHODS
        .into_iter()
        .filter(|method| !allowed.contains(&method.as_str()))
        .collect()
}

/// The 405 response: `Allow: <allowed>` and the Error object `to_body`
/// makes.
pub fn method_not_allowed<E: Serialize>(
    method: &Method,
    allowed: &'static str,
    to_body: fn(u16, Problem) -> E,
) -> Result<http::Response<Body>, dropshot::HttpError> {
    let problem = Problem::new(
        "method_not_allowed",
        format!("{method} is not allowed here; allowed: {allowed}"),
    );
    let body = serde_json::to_vec(&to_body(405, problem))
        .map_err(|e| dropshot::HttpError::for_internal_error(format!("serializing the error body: {e}")))?;
    Ok(http::Response::builder()
        .status(StatusCode::METHOD_NOT_ALLOWED)
        .header(ALLOW, allowed)
        .header(CONTENT_TYPE, dropshot::CONTENT_TYPE_JSON)
        .body(Body::from(body))?)
}

/// Why the API description could not be built.
#[derive(Debug)]
pub struct ApiDescriptionError(pub String);

impl std::fmt::Display for ApiDescriptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ApiDescriptionError {}

impl From<dropshot::ApiDescriptionBuildErrors> for ApiDescriptionError {
    fn from(errors: dropshot::ApiDescriptionBuildErrors) -> Self {
        ApiDescriptionError(errors.to_string())
    }
}

impl From<dropshot::ApiDescriptionRegisterError> for ApiDescriptionError {
    fn from(error: dropshot::ApiDescriptionRegisterError) -> Self {
        ApiDescriptionError(error.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_other_methods_and_the_answer() {
        assert_eq!(
            methods_other_than(&["GET"]),
            [
                Method::HEAD,
                Method::POST,
                Method::PUT,
                Method::DELETE,
                Method::PATCH,
                Method::OPTIONS
            ]
        );
        #[derive(Serialize)]
        struct Error {
            code: String,
            status: u16,
        }
        let response = method_not_allowed(&Method::PUT, "GET", |status, problem| Error {
            code: problem.code,
            status,
        })
        .unwrap();
        assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(response.headers()[ALLOW], "GET");
    }
}
