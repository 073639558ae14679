//! 405 for a method a path does not document, answered with the Error
//! object and `Allow`.
//!
//! dropshot's router answers such a request itself, with its own body.
//! The generated `api_description` registers, for every path, a hidden
//! endpoint (`ApiEndpoint::visible(false)`: not in the document) for each
//! method the path does not have, and these answer instead.
//!
//! dropshot's router skips empty segments, so `DELETE /user/` reaches
//! `/user`'s hidden endpoint although it names `/user/{username}` with an
//! empty name, or nothing at all: never `/user`. Such a request gets 404,
//! not a 405 that would call `/user` a resource without DELETE.

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

/// The operation id of the hidden 405 endpoint for `method` on `path`;
/// the runtime's routing knows these endpoints by it.
pub fn not_allowed_id(method: &Method, path: &str) -> String {
    format!("{ID_PREFIX}{method} {path}")
}

const ID_PREFIX: &str = "405 ";

/// Whether an endpoint's operation id is a hidden 405 endpoint's.
pub(crate) fn is_not_allowed(operation_id: &str) -> bool {
    operation_id.starts_with(ID_PREFIX)
}

/// The methods of [`METHODS`] not in `allowed`.
pub fn methods_other_than(allowed: &[&str]) -> Vec<Method> {
    METHODS
        .into_iter()
        .filter(|method| !allowed.contains(&method.as_str()))
        .collect()
}

/// The 405 response: `Allow: <allowed>` and the Error object `to_body`
/// makes; 404 when the request's path has an empty segment (see above)
/// that `documented`, the spec's path of the endpoint, has not.
pub fn method_not_allowed<E: Serialize>(
    method: &Method,
    path: &str,
    documented: &str,
    allowed: &'static str,
    to_body: fn(u16, Problem) -> E,
) -> Result<http::Response<Body>, dropshot::HttpError> {
    let (status, problem) = if has_empty_segment(path, documented) {
        let detail = format!("no operation serves `{path}`: one of its segments is empty");
        (StatusCode::NOT_FOUND, Problem::new("not_found", detail))
    } else {
        let detail = format!("{} is not allowed here; allowed: {allowed}", method);
        (
            StatusCode::METHOD_NOT_ALLOWED,
            Problem::new("method_not_allowed", detail),
        )
    };
    let body = serde_json::to_vec(&to_body(status.as_u16(), problem))
        .map_err(|e| dropshot::HttpError::for_internal_error(format!("serializing the error body: {e}")))?;
    let mut response = http::Response::builder()
        .status(status)
        .header(CONTENT_TYPE, dropshot::CONTENT_TYPE_JSON);
    if status == StatusCode::METHOD_NOT_ALLOWED {
        response = response.header(ALLOW, allowed);
    }
    Ok(response.body(Body::from(body))?)
}

/// Whether `path` has a segment dropshot's router skipped: `//` inside, or
/// a `/` at the end of anything but the root, unless the documented path
/// (`/labels/`) ends so too.
fn has_empty_segment(path: &str, documented: &str) -> bool {
    path.contains("//") || (path.len() > 1 && path.ends_with('/') && !documented.ends_with('/'))
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
        let to_body = |status, problem: Problem| Error {
            code: problem.code,
            status,
        };
        let response = method_not_allowed(&Method::PUT, "/orders", "/orders", "GET", to_body).unwrap();
        assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(response.headers()[ALLOW], "GET");
        // `/orders/` and `//orders` reach `/orders`'s endpoints, but name
        // another path (an empty `{orderId}`, say).
        for path in ["/orders/", "//orders", "/orders//"] {
            let response = method_not_allowed(&Method::PUT, path, "/orders", "GET", to_body).unwrap();
            assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
            assert!(!response.headers().contains_key(ALLOW), "{path}");
        }
        // A path the spec writes with a trailing `/` is that path, with
        // the `/` or without.
        for path in ["/labels/", "/labels"] {
            let response = method_not_allowed(&Method::PUT, path, "/labels/", "GET", to_body).unwrap();
            assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED, "{path}");
        }
    }
}
