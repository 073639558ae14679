//! What the generated layer adds around every handler, over HTTP: the
//! `WWW-Authenticate` challenges of each scheme, public operations, 405
//! with `Allow`, the deprecation headers on every response of a
//! deprecated operation, documented headers and media types, and answers
//! that satisfy the spec's own schemas.

use crate::support;

use crate::support::{Answer, Sink, create_order, send};
use kitchen_sink::api::OPERATIONS;
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn each_scheme_has_its_challenge() {
    let sink = Sink::start().await;
    // Bearer only: no key, then a wrong one.
    let none = send(sink.anonymous(Method::GET, "/orders")).await;
    none.assert_error(401, "unauthorized", &["Bearer"]);
    assert_eq!(none.header("www-authenticate"), Some("Bearer"));
    let wrong = send(sink.anonymous(Method::GET, "/orders").bearer_auth("nope")).await;
    wrong.assert_error(401, "unauthorized", &[]);
    assert_eq!(wrong.header("www-authenticate"), Some("Bearer error=\"invalid_token\""));
    // The key in its own header or as a bearer: one challenge per scheme.
    let none = send(sink.anonymous(Method::GET, "/store/inventory")).await;
    none.assert_error(401, "unauthorized", &["X-API-Key"]);
    let challenges: Vec<&str> = none
        .headers
        .get_all("www-authenticate")
        .iter()
        .map(|v| v.to_str().unwrap())
        .collect();
    assert_eq!(challenges, ["ApiKey header=\"X-API-Key\"", "Bearer"]);
    let wrong = send(
        sink.anonymous(Method::GET, "/store/inventory")
            .header("X-API-Key", "nope"),
    )
    .await;
    wrong.assert_error(401, "unauthorized", &[]);
    let bearer = send(sink.request(Method::GET, "/store/inventory")).await;
    assert_eq!(bearer.status, 200);
    // A bearer-only operation does not read the API-key header.
    let by_header = send(sink.anonymous(Method::GET, "/orders").header("X-API-Key", &sink.key)).await;
    assert_eq!(by_header.status, 401);
    sink.stop().await;
}

#[tokio::test]
async fn public_operations_need_no_key() {
    let sink = Sink::start().await;
    let status = send(sink.anonymous(Method::GET, "/status")).await;
    assert_eq!((status.status, status.body["status"].as_str()), (200, Some("ok")));
    // A key that is not valid changes nothing where none is needed.
    let wrong = send(sink.anonymous(Method::GET, "/status").bearer_auth("nope")).await;
    assert_eq!(wrong.status, 200);
    let subscribed = send(
        sink.anonymous(Method::POST, "/newsletter")
            .header("content-type", "application/x-www-form-urlencoded")
            .body("email=x%40example.com"),
    )
    .await;
    assert_eq!(subscribed.status, 204);
    sink.stop().await;
}

#[tokio::test]
async fn undocumented_methods_get_405_with_allow() {
    let sink = Sink::start().await;
    for (method, path, allow) in [
        (Method::DELETE, "/status", "GET, TRACE"),
        (Method::PUT, "/orders", "GET, OPTIONS, POST"),
        (Method::POST, "/orders/1", "DELETE, GET, HEAD, PATCH"),
        (Method::GET, "/newsletter", "POST"),
        (Method::DELETE, "/labels/red", "PUT"),
        (Method::DELETE, "/labels/", "GET"),
        // Not `/labels/{name}` with an empty name: the spec writes `/labels/`.
        (Method::PUT, "/labels/", "GET"),
        (Method::POST, "/orders/1/photo", "GET, PUT"),
        (Method::PATCH, "/exports/orders.csv", "GET"),
    ] {
        for key in [true, false] {
            let request = match key {
                true => sink.request(method.clone(), path),
                false => sink.anonymous(method.clone(), path),
            };
            let answer = send(request).await;
            answer.assert_error(405, "method_not_allowed", &[method.as_str()]);
            assert_eq!(answer.header("allow"), Some(allow), "{method} {path}");
        }
    }
    sink.stop().await;
}

#[tokio::test]
async fn a_deprecated_operation_says_so_on_every_response() {
    let sink = Sink::start().await;
    let (order, _) = create_order(&sink, json!({"petId": 1, "quantity": 1})).await;
    let deprecation = "@1767225600"; // 2026-01-01
    let sunset = "Fri, 01 Jan 2027 00:00:00 GMT";
    let answers = [
        (
            200,
            send(sink.request(Method::GET, &format!("/legacy/orders/{order}"))).await,
        ),
        (404, send(sink.request(Method::GET, "/legacy/orders/999")).await),
        (400, send(sink.request(Method::GET, "/legacy/orders/x")).await),
        (
            401,
            send(sink.anonymous(Method::GET, &format!("/legacy/orders/{order}"))).await,
        ),
    ];
    for (status, answer) in answers {
        assert_eq!(answer.status, status, "{}", answer.body);
        assert_eq!(answer.header("deprecation"), Some(deprecation), "{status}");
        assert_eq!(answer.header("sunset"), Some(sunset), "{status}");
    }
    let current = send(sink.request(Method::GET, &format!("/orders/{order}"))).await;
    assert_eq!(current.header("deprecation"), None, "only the deprecated operation");
    sink.stop().await;
}

/// Checks a success answer of `operation` against the table's documented
/// status, media type, required headers and body schema (the spec's own,
/// through the validator the generated layer uses for requests).
fn conforms(operation: &str, answer: &Answer) {
    let operation = OPERATIONS.iter().find(|o| o.id == operation).unwrap();
    let documented = operation
        .responses
        .iter()
        .find(|r| r.status == answer.status)
        .unwrap_or_else(|| panic!("{}: {} is not documented", operation.id, answer.status));
    for header in documented.headers.iter().filter(|h| h.required) {
        assert!(
            answer.header(header.name).is_some(),
            "{}: {} missing",
            operation.id,
            header.name
        );
    }
    match &documented.content {
        None => assert!(
            answer.bytes.is_empty(),
            "{}: a body where none is documented",
            operation.id
        ),
        Some(content) => {
            assert_eq!(
                answer.header("content-type"),
                Some(content.media_type),
                "{}",
                operation.id
            );
            let value = match content.media_type {
                "application/json" => answer.body.clone(),
                _ => serde_json::Value::String(String::from_utf8_lossy(&answer.bytes).into()),
            };
            if let Err(violation) = content.schema.validate(&value) {
                panic!("{}: the answer breaks its schema: {violation:?}\n{value}", operation.id);
            }
        }
    }
}

#[tokio::test]
async fn answers_satisfy_the_spec() {
    let sink = Sink::start().await;
    let full = json!({
        "petId": 3, "quantity": 2, "shipDate": "2026-12-01T09:00:00Z", "deliverBy": "2026-12-05", "note": "n",
        "tags": ["x"], "giftWrap": true, "discount": 0.5, "weightKg": 2.5, "channel": "phone",
        "address": {"street": "1 Main St", "city": "Springfield", "postcode": "12345", "country": "FR"}
    });
    let created = send(sink.request(Method::POST, "/orders").json(&full)).await;
    conforms("createOrder", &created);
    let id = created.body["id"].as_i64().unwrap();
    let etag = created.header("etag").unwrap().to_string();
    create_order(&sink, json!({"petId": 4, "quantity": 1})).await;
    let calls: Vec<(&str, reqwest::RequestBuilder)> = vec![
        ("searchOrders", sink.request(Method::GET, "/orders?limit=1")),
        ("getOrder", sink.request(Method::GET, &format!("/orders/{id}"))),
        (
            "updateOrder",
            sink.request(Method::PATCH, &format!("/orders/{id}"))
                .header("If-Match", &etag)
                .json(&json!({"status": "delivered", "note": null})),
        ),
        (
            "payOrder",
            sink.request(Method::POST, &format!("/orders/{id}/payment"))
                .json(&json!({"kind": "card", "number": "4111111111111111", "expires": "01/30"})),
        ),
        (
            "uploadPhoto",
            sink.request(Method::PUT, &format!("/orders/{id}/photo"))
                .header("content-type", "application/octet-stream")
                .body(vec![1u8, 2, 3]),
        ),
        ("getPhoto", sink.request(Method::GET, &format!("/orders/{id}/photo"))),
        (
            "addNote",
            sink.request(Method::POST, &format!("/orders/{id}/notes"))
                .header("content-type", "text/plain")
                .body("a note"),
        ),
        (
            "listOrderLines",
            sink.request(Method::GET, &format!("/orders/{id}/lines")),
        ),
        ("exportOrders", sink.request(Method::GET, "/exports/orders.csv")),
        ("getInventory", sink.request(Method::GET, "/store/inventory")),
        ("countOrders", sink.request(Method::GET, "/store/order-count")),
        ("getStatus", sink.anonymous(Method::GET, "/status")),
        ("quoteOrder", sink.anonymous(Method::POST, "/quotes").json(&full)),
        (
            "putLabel",
            sink.request(Method::PUT, "/labels/blue").json(&json!({"text": "Blue"})),
        ),
        (
            "putLabel",
            sink.request(Method::PUT, "/labels/blue")
                .json(&json!({"text": "Blue", "color": "#0000ff"})),
        ),
        ("getReport", sink.request(Method::GET, "/reports/week/2026-11-16")),
        (
            "getLegacyOrder",
            sink.request(Method::GET, &format!("/legacy/orders/{id}")),
        ),
        ("shipOrder", sink.request(Method::POST, "/orders/2/shipment")),
        ("deleteOrder", sink.request(Method::DELETE, "/orders/2")),
    ];
    for (operation, request) in calls {
        let answer = send(request).await;
        assert!(answer.status < 300, "{operation}: {}", answer.body);
        conforms(operation, &answer);
    }
    sink.stop().await;
}

#[tokio::test]
async fn head_options_and_trace_are_served() {
    let sink = Sink::start().await;
    let client = sink.client();
    let (id, etag) = support::create_order(&sink, serde_json::json!({"petId": 1, "quantity": 1})).await;
    let id = std::num::NonZeroU64::new(id as u64).unwrap();
    // HEAD through the generated client, and raw: the ETag, no body.
    let head = client.head_order(id).await.unwrap();
    assert_eq!(head.status().as_u16(), 200);
    assert_eq!(head.headers()["etag"], etag.as_str());
    let raw = send(sink.request(Method::HEAD, &format!("/orders/{id}"))).await;
    assert_eq!((raw.status, raw.bytes.len()), (200, 0));
    let missing = send(sink.request(Method::HEAD, "/orders/999999")).await;
    assert_eq!(
        (missing.status, missing.bytes.len()),
        (404, 0),
        "HEAD has no body, even for an error"
    );
    let anonymous = send(sink.anonymous(Method::HEAD, &format!("/orders/{id}"))).await;
    assert_eq!(anonymous.status, 401);
    // OPTIONS: public, with its documented Allow.
    let options = sink.client_with(Default::default()).order_options().await.unwrap();
    assert_eq!(options.status().as_u16(), 204);
    assert_eq!(options.headers()["allow"], "GET, POST, OPTIONS");
    // TRACE: served by the runtime's dispatch (dropshot's endpoint macro
    // has no TRACE), with its media type.
    let trace = send(sink.anonymous(Method::TRACE, "/status")).await;
    assert_eq!(trace.status, 200);
    assert_eq!(trace.header("content-type"), Some("message/http"));
    assert!(String::from_utf8_lossy(&trace.bytes).starts_with("TRACE /v1/status"));
    let traced = sink.client_with(Default::default()).trace_status().await.unwrap();
    assert_eq!(traced.status().as_u16(), 200);
    sink.stop().await;
}
