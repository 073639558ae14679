//! Every error leaves as the spec's Error object, with `status` equal to
//! the HTTP status: the generated layer's own and dropshot's.

use dropshot::{HttpError, HttpResponse};
use petstore_api::runtime::Problem;
use petstore_api::{CancelOrderResponse, types};

#[test]
fn response_variants_carry_their_status() {
    let cases = [
        (
            CancelOrderResponse::BadRequest(Problem::new("invalid_parameter", "m")),
            400u16,
        ),
        (
            CancelOrderResponse::Unauthorized(Problem::new("unauthorized", "m")),
            401,
        ),
        (CancelOrderResponse::NotFound(Problem::new("order_not_found", "m")), 404),
        (
            CancelOrderResponse::Conflict(Problem::new("order_already_shipped", "m")),
            409,
        ),
        (
            CancelOrderResponse::InternalServerError(Problem::new("internal_error", "m")),
            500,
        ),
        (
            CancelOrderResponse::ServiceUnavailable(Problem::new("service_unavailable", "m")),
            503,
        ),
    ];
    for (response, status) in cases {
        let reply = response.into_http();
        assert_eq!(reply.status_code().as_u16(), status);
        let response = reply.to_result().unwrap();
        assert_eq!(response.status().as_u16(), status);
        assert_eq!(
            response.headers().contains_key("www-authenticate"),
            status == 401,
            "every 401, and only a 401, carries a challenge"
        );
    }
    let no_content = CancelOrderResponse::NoContent.into_http();
    assert_eq!(no_content.status_code().as_u16(), 204);
}

#[test]
fn dropshot_errors_become_error_objects() {
    let error = types::Error::from(HttpError::for_bad_request(None, "bad parameter".into()));
    assert_eq!(
        (error.status, error.code.as_str(), error.message.as_str()),
        (400, "bad_request", "bad parameter")
    );
    let error = types::Error::from(HttpError::for_internal_error("secret detail".into()));
    assert_eq!((error.status, error.code.as_str()), (500, "internal_error"));
    assert!(
        !error.message.contains("secret detail"),
        "internal messages stay internal"
    );
    let error = types::Error::from(HttpError::for_client_error(
        Some("too_big".into()),
        dropshot::ClientErrorStatusCode::PAYLOAD_TOO_LARGE,
        "too big".into(),
    ));
    assert_eq!(
        (error.status, error.code.as_str()),
        (413, "bad_request"),
        "only documented codes are sent"
    );
}
