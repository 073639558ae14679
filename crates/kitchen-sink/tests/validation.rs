//! Every constraint the kitchen sink's spec puts on an input, broken once
//! over HTTP: each gets 400 with the Error object, whose message names the
//! parameter (or the body's JSON pointer) and the rule broken. The same
//! requests without a key get 401 first.

mod support;

use reqwest::Method;
use serde_json::{Value, json};
use support::{Sink, create_order, send};

/// One request that breaks one rule.
struct Case {
    what: &'static str,
    method: Method,
    path: String,
    headers: Vec<(&'static str, String)>,
    body: Option<(&'static str, Vec<u8>)>,
    status: u16,
    code: &'static str,
    /// What the message must name: the parameter or pointer, and the rule.
    message: Vec<&'static str>,
}

const ECHO: &str = "/echo/1/0.5/true/2026-01-01/2026-01-01T00:00:00Z/6f1c1f7e-8c1e-4e2b-9d61-7f5e5c9b2a10/alpha";

fn query(what: &'static str, path: &str, message: &[&'static str]) -> Case {
    Case {
        what,
        method: Method::GET,
        path: path.to_string(),
        headers: vec![],
        body: None,
        status: 400,
        code: "invalid_parameter",
        message: message.to_vec(),
    }
}

fn header(what: &'static str, name: &'static str, value: &str, message: &[&'static str]) -> Case {
    Case {
        headers: vec![(name, value.to_string())],
        ..query(what, &format!("{ECHO}?big=1"), message)
    }
}

fn json_body(what: &'static str, method: Method, path: &str, body: Value, message: &[&'static str]) -> Case {
    Case {
        what,
        method,
        path: path.to_string(),
        headers: vec![],
        body: Some(("application/json", serde_json::to_vec(&body).unwrap())),
        status: 400,
        code: "invalid_body",
        message: message.to_vec(),
    }
}

fn new_order(edit: impl FnOnce(&mut Value)) -> Value {
    let mut order = json!({"petId": 1, "quantity": 1});
    edit(&mut order);
    order
}

fn cases(order: i64, etag: &str) -> Vec<Case> {
    let echo = |q: &str| format!("{ECHO}?big=1&{q}");
    let patch = format!("/orders/{order}");
    let with_etag = |mut case: Case| {
        case.headers.push(("If-Match", etag.to_string()));
        case
    };
    vec![
        // Parameters: presence, type, format, range, enum, length, pattern, items.
        query(
            "required query",
            &format!("{ECHO}?small=1"),
            &["query parameter `big`", "is required"],
        ),
        Case {
            method: Method::PATCH,
            body: Some(("application/json", br#"{"quantity":2}"#.to_vec())),
            ..query(
                "required header",
                &patch,
                &["header parameter `If-Match`", "is required"],
            )
        },
        query(
            "integer",
            "/orders?limit=ten",
            &["query parameter `limit`", "\"ten\"", "not an integer"],
        ),
        query(
            "integer syntax",
            "/orders?limit=%2B5",
            &["query parameter `limit`", "not an integer"],
        ),
        query(
            "number",
            "/orders?minTotal=lots",
            &["query parameter `minTotal`", "not a number"],
        ),
        query(
            "boolean",
            "/orders?giftWrap=yes",
            &["query parameter `giftWrap`", "not a boolean"],
        ),
        query(
            "date",
            "/orders?deliverBy=2026-02-30",
            &["query parameter `deliverBy`", "(format)"],
        ),
        query(
            "date-time",
            "/orders?since=yesterday",
            &["query parameter `since`", "(format)"],
        ),
        query("uuid", &echo("id=not-a-uuid"), &["query parameter `id`", "(format)"]),
        query(
            "int64 range",
            &format!("{ECHO}?big=9223372036854775808"),
            &["query parameter `big`", "(maximum)"],
        ),
        query(
            "int32 range",
            "/echo/2147483648/0.5/true/2026-01-01/2026-01-01T00:00:00Z/6f1c1f7e-8c1e-4e2b-9d61-7f5e5c9b2a10/alpha?big=1",
            &["path parameter `count`", "(maximum)"],
        ),
        query(
            "number range",
            &echo("fraction=1e999"),
            &["query parameter `fraction`", "not a number in range"],
        ),
        query("enum", "/orders?sort=up", &["query parameter `sort`", "(enum)"]),
        query(
            "enum by $ref",
            "/orders?status=lost",
            &["query parameter `status`", "(enum)"],
        ),
        query(
            "path enum",
            &ECHO.replace("alpha", "gamma"),
            &["path parameter `kind`", "(enum)"],
        ),
        query(
            "path uuid",
            &ECHO.replace("6f1c1f7e", "zz1c1f7e"),
            &["path parameter `token`", "(format)"],
        ),
        query(
            "path boolean",
            &ECHO.replace("/true/", "/yes/"),
            &["path parameter `flag`", "not a boolean"],
        ),
        query("minimum", "/orders?limit=0", &["query parameter `limit`", "(minimum)"]),
        query(
            "maximum",
            "/orders?limit=1001",
            &["query parameter `limit`", "(maximum)"],
        ),
        query(
            "exclusiveMinimum",
            "/orders?minTotal=0",
            &["query parameter `minTotal`", "(exclusiveMinimum)"],
        ),
        query("path minimum", "/orders/0", &["path parameter `orderId`", "(minimum)"]),
        query(
            "maxLength",
            &echo("word=abcdefghijk"),
            &["query parameter `word`", "(maxLength)"],
        ),
        query("minLength", &echo("word="), &["query parameter `word`", "(minLength)"]),
        query("pattern", &echo("word=ABC"), &["query parameter `word`", "(pattern)"]),
        query(
            "item pattern",
            "/orders?tag=ok&tag=Not",
            &["query parameter `tag`", "`/1`", "(pattern)"],
        ),
        query(
            "item type",
            "/orders?ids=1,x",
            &["query parameter `ids`", "item 1", "not an integer"],
        ),
        query(
            "item minimum",
            "/orders?ids=1,0",
            &["query parameter `ids`", "`/1`", "(minimum)"],
        ),
        query("minItems", "/orders?ids=", &["query parameter `ids`", "(minItems)"]),
        query(
            "maxItems",
            "/orders?ids=1,2,3,4,5,6,7,8,9,10,11",
            &["query parameter `ids`", "(maxItems)"],
        ),
        query(
            "repeated scalar",
            "/orders?limit=1&limit=2",
            &["query parameter `limit`", "more than once"],
        ),
        header("header uuid", "X-Id", "nope", &["header parameter `X-Id`", "(format)"]),
        header(
            "header integer",
            "X-Big",
            "1.5",
            &["header parameter `X-Big`", "not an integer"],
        ),
        header(
            "header date-time",
            "X-Moment",
            "2026-01-01 00:00:00 UTC",
            &["header parameter `X-Moment`", "(format)"],
        ),
        header("header enum", "X-Pick", "z", &["header parameter `X-Pick`", "(enum)"]),
        // Objects in the query: a deepObject and a form's own pairs.
        query(
            "deepObject minimum",
            &echo("filter[size]=0"),
            &["query parameter `filter`", "(minimum)"],
        ),
        query(
            "deepObject type",
            &echo("filter[size]=two"),
            &["query parameter `filter` property `size`", "not an integer"],
        ),
        query(
            "deepObject unknown property",
            &echo("filter[shape]=round"),
            &["query parameter `filter`", "(additionalProperties)"],
        ),
        query(
            "form object required property",
            &echo("height=2"),
            &["query parameter `box`", "(required)"],
        ),
        // Cookies, read from the `Cookie` header's pairs.
        header(
            "cookie integer",
            "Cookie",
            "a=b; visits=many",
            &["cookie parameter `visits`", "not an integer"],
        ),
        header(
            "cookie minimum",
            "Cookie",
            "visits=-1",
            &["cookie parameter `visits`", "(minimum)"],
        ),
        header(
            "cookie enum",
            "Cookie",
            "theme=blue",
            &["cookie parameter `theme`", "(enum)"],
        ),
        Case {
            method: Method::PATCH,
            headers: vec![("If-Match", String::new())],
            body: Some(("application/json", br#"{"quantity":2}"#.to_vec())),
            ..query(
                "header minLength",
                &patch,
                &["header parameter `If-Match`", "(minLength)"],
            )
        },
        // JSON bodies, at every depth.
        json_body(
            "required property",
            Method::POST,
            "/orders",
            json!({"quantity": 1}),
            &["request body", "\"petId\"", "(required)"],
        ),
        json_body(
            "property type",
            Method::POST,
            "/orders",
            new_order(|o| o["quantity"] = json!("two")),
            &["`/quantity`", "(type)"],
        ),
        json_body(
            "property minimum",
            Method::POST,
            "/orders",
            new_order(|o| o["quantity"] = json!(0)),
            &["`/quantity`", "(minimum)"],
        ),
        json_body(
            "property maximum",
            Method::POST,
            "/orders",
            new_order(|o| o["quantity"] = json!(101)),
            &["`/quantity`", "(maximum)"],
        ),
        json_body(
            "int32 property range",
            Method::POST,
            "/orders",
            new_order(|o| o["quantity"] = json!(4294967297u64)),
            &["`/quantity`", "(maximum)"],
        ),
        json_body(
            "exclusiveMaximum",
            Method::POST,
            "/orders",
            new_order(|o| o["discount"] = json!(1)),
            &["`/discount`", "(exclusiveMaximum)"],
        ),
        json_body(
            "exclusiveMinimum",
            Method::POST,
            "/orders",
            new_order(|o| o["weightKg"] = json!(0)),
            &["`/weightKg`", "(exclusiveMinimum)"],
        ),
        json_body(
            "maxLength",
            Method::POST,
            "/orders",
            new_order(|o| o["note"] = json!("x".repeat(201))),
            &["`/note`", "(maxLength)"],
        ),
        json_body(
            "nested minLength",
            Method::POST,
            "/orders",
            new_order(|o| o["address"] = json!({"street": "", "city": "x"})),
            &["`/address/street`", "(minLength)"],
        ),
        json_body(
            "nested required",
            Method::POST,
            "/orders",
            new_order(|o| o["address"] = json!({"street": "x"})),
            &["`/address`", "\"city\"", "(required)"],
        ),
        json_body(
            "nested pattern",
            Method::POST,
            "/orders",
            new_order(|o| o["address"] = json!({"street": "x", "city": "y", "postcode": "abc"})),
            &["`/address/postcode`", "(pattern)"],
        ),
        json_body(
            "item pattern",
            Method::POST,
            "/orders",
            new_order(|o| o["tags"] = json!(["ok", "NO"])),
            &["`/tags/1`", "(pattern)"],
        ),
        json_body(
            "maxItems",
            Method::POST,
            "/orders",
            new_order(|o| o["tags"] = json!(["a", "b", "c", "d", "e", "f"])),
            &["`/tags`", "(maxItems)"],
        ),
        json_body(
            "uniqueItems",
            Method::POST,
            "/orders",
            new_order(|o| o["tags"] = json!(["a", "a"])),
            &["`/tags`", "(uniqueItems)"],
        ),
        json_body(
            "enum",
            Method::POST,
            "/orders",
            new_order(|o| o["channel"] = json!("fax")),
            &["`/channel`", "(enum)"],
        ),
        json_body(
            "date",
            Method::POST,
            "/orders",
            new_order(|o| o["deliverBy"] = json!("5 May")),
            &["`/deliverBy`", "(format)"],
        ),
        json_body(
            "date-time",
            Method::POST,
            "/orders",
            new_order(|o| o["shipDate"] = json!("2026-01-01")),
            &["`/shipDate`", "(format)"],
        ),
        json_body(
            "not null",
            Method::POST,
            "/orders",
            new_order(|o| o["quantity"] = Value::Null),
            &["`/quantity`", "(type)"],
        ),
        json_body(
            "oneOf",
            Method::POST,
            &format!("/orders/{order}/payment"),
            json!({"kind": "card", "iban": "DE89370400440532013000"}),
            &["request body", "(oneOf)"],
        ),
        json_body(
            "oneOf member's rule",
            Method::POST,
            &format!("/orders/{order}/payment"),
            json!({"kind": "bank", "iban": "short"}),
            &["request body", "(oneOf)"],
        ),
        json_body(
            "not an object",
            Method::POST,
            "/orders",
            json!([1, 2]),
            &["request body", "(type)"],
        ),
        with_etag(json_body(
            "additionalProperties",
            Method::PATCH,
            &patch,
            json!({"quantity": 2, "extra": 1}),
            &["request body", "extra", "(additionalProperties)"],
        )),
        with_etag(json_body(
            "minProperties",
            Method::PATCH,
            &patch,
            json!({}),
            &["request body", "(minProperties)"],
        )),
        json_body(
            "inline body enum",
            Method::POST,
            &format!("/orders/{order}/shipment"),
            json!({"carrier": "fedex"}),
            &["`/carrier`", "(enum)"],
        ),
        json_body(
            "map value",
            Method::PUT,
            "/labels/red",
            json!({"text": ""}),
            &["`/text`", "(minLength)"],
        ),
        Case {
            method: Method::PUT,
            body: Some(("application/json", br#"{"text":"x"}"#.to_vec())),
            ..query("path pattern", "/labels/Red", &["path parameter `name`", "(pattern)"])
        },
        Case {
            body: Some(("application/json", b"{\"petId\": 1,".to_vec())),
            ..json_body(
                "invalid JSON",
                Method::POST,
                "/orders",
                Value::Null,
                &["not valid JSON"],
            )
        },
        Case {
            body: None,
            ..json_body(
                "missing body",
                Method::POST,
                "/orders",
                Value::Null,
                &["request body", "required"],
            )
        },
        // Forms and text.
        Case {
            body: Some(("application/x-www-form-urlencoded", b"email=nope".to_vec())),
            ..json_body(
                "form format",
                Method::POST,
                "/newsletter",
                Value::Null,
                &["`/email`", "(format)"],
            )
        },
        Case {
            body: Some(("application/x-www-form-urlencoded", b"email=a%40b.co&age=12".to_vec())),
            ..json_body(
                "form minimum",
                Method::POST,
                "/newsletter",
                Value::Null,
                &["`/age`", "(minimum)"],
            )
        },
        Case {
            body: Some(("application/x-www-form-urlencoded", b"email=a%40b.co&age=old".to_vec())),
            ..json_body(
                "form type",
                Method::POST,
                "/newsletter",
                Value::Null,
                &["form field `age`", "not an integer"],
            )
        },
        Case {
            body: Some(("application/x-www-form-urlencoded", b"age=20".to_vec())),
            ..json_body(
                "form required",
                Method::POST,
                "/newsletter",
                Value::Null,
                &["\"email\"", "(required)"],
            )
        },
        Case {
            body: Some(("application/x-www-form-urlencoded", b"email=a%40b.co&spam=1".to_vec())),
            ..json_body(
                "form additionalProperties",
                Method::POST,
                "/newsletter",
                Value::Null,
                &["spam", "(additionalProperties)"],
            )
        },
        Case {
            body: Some(("text/plain", vec![0xff, 0xfe])),
            ..json_body(
                "text not UTF-8",
                Method::POST,
                &format!("/orders/{order}/notes"),
                Value::Null,
                &["not UTF-8"],
            )
        },
        // Media types and size.
        Case {
            body: Some(("text/plain", b"{\"petId\":1,\"quantity\":1}".to_vec())),
            status: 415,
            code: "unsupported_media_type",
            ..json_body(
                "media type",
                Method::POST,
                "/orders",
                Value::Null,
                &["application/json", "text/plain"],
            )
        },
        Case {
            body: Some(("application/json", br#"{"text":"x"}"#.to_vec())),
            status: 415,
            code: "unsupported_media_type",
            ..json_body(
                "raw body media type",
                Method::PUT,
                &format!("/orders/{order}/photo"),
                Value::Null,
                &["application/octet-stream"],
            )
        },
        Case {
            body: Some((
                "application/octet-stream",
                vec![7; kitchen_sink::server::BODY_LIMIT + 1],
            )),
            status: 413,
            code: "payload_too_large",
            ..json_body(
                "too large",
                Method::PUT,
                &format!("/orders/{order}/photo"),
                Value::Null,
                &["65536 bytes"],
            )
        },
    ]
}

fn build(sink: &Sink, case: &Case, with_key: bool) -> reqwest::RequestBuilder {
    let mut request = match with_key {
        true => sink.request(case.method.clone(), &case.path),
        false => sink.anonymous(case.method.clone(), &case.path),
    };
    for (name, value) in &case.headers {
        request = request.header(*name, value);
    }
    if let Some((media_type, bytes)) = &case.body {
        request = request.header("content-type", *media_type).body(bytes.clone());
    }
    request
}

#[tokio::test]
async fn every_broken_rule_gets_400_naming_the_input_and_the_rule() {
    let sink = Sink::start().await;
    let (order, etag) = create_order(&sink, json!({"petId": 1, "quantity": 1})).await;
    let cases = cases(order, &etag);
    assert!(cases.len() > 70, "{}", cases.len());
    for case in &cases {
        let answer = send(build(&sink, case, true)).await;
        assert_eq!(answer.status, case.status, "{}: {}", case.what, answer.body);
        answer.assert_error(case.status, case.code, &case.message);
    }
    // Nothing broken reached a handler: the order is as it was.
    let read = send(sink.request(Method::GET, &format!("/orders/{order}"))).await;
    assert_eq!(
        (read.body["quantity"].as_i64(), read.header("etag")),
        (Some(1), Some(etag.as_str()))
    );
    sink.stop().await;
}

#[tokio::test]
async fn a_missing_key_gets_401_before_any_400() {
    let sink = Sink::start().await;
    let (order, etag) = create_order(&sink, json!({"petId": 1, "quantity": 1})).await;
    for case in cases(order, &etag)
        .iter()
        .filter(|c| !c.path.starts_with("/newsletter"))
    {
        let answer = send(build(&sink, case, false)).await;
        answer.assert_error(401, "unauthorized", &[]);
        assert!(answer.header("www-authenticate").is_some(), "{}", case.what);
    }
    sink.stop().await;
}

#[tokio::test]
async fn valid_edge_values_are_accepted() {
    let sink = Sink::start().await;
    let accepted = [
        "/orders?limit=1",
        "/orders?limit=1000",
        "/orders?minTotal=0.0001",
        "/orders?maxWeight=1000",
        "/orders?ids=1,2,3,4,5,6,7,8,9,10",
        "/orders?tag=a&tag=b&tag=c&tag=d&tag=e",
        "/orders?since=2026-01-01T00:00:00%2B05:30",
        "/orders?deliverBy=2024-02-29",
    ];
    for path in accepted {
        let answer = send(sink.request(Method::GET, path)).await;
        assert_eq!(answer.status, 200, "{path}: {}", answer.body);
    }
    let edges = json!({"petId": 1, "quantity": 100, "discount": 0.999, "weightKg": 0.001, "note": null, "tags": []});
    let answer = send(sink.request(Method::POST, "/orders").json(&edges)).await;
    assert_eq!(answer.status, 201, "{}", answer.body);
    // A media type's parameters and the `+json` suffix.
    let suffixed = send(
        sink.request(Method::POST, "/orders")
            .header("content-type", "application/vnd.sink+json; charset=UTF-8")
            .body(r#"{"petId": 2, "quantity": 1}"#),
    )
    .await;
    assert_eq!(suffixed.status, 201, "{}", suffixed.body);
    sink.stop().await;
}
