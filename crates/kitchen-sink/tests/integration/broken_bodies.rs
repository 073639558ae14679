//! The bodies' rules, each broken once: JSON at every depth, forms and
//! text, media types and size.

use reqwest::Method;
use serde_json::{Value, json};

use crate::broken_rules::{Case, json_body, new_order, query};

pub(crate) fn body_cases(order: i64, etag: &str) -> Vec<Case> {
    let patch = format!("/orders/{order}");
    let with_etag = |mut case: Case| {
        case.headers.push(("If-Match", etag.to_string()));
        case
    };
    vec![
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
