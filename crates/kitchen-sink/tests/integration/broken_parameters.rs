//! The parameters' rules, each broken once: presence, type, format,
//! range, enum, length, pattern and items; objects in the query; cookies.

use reqwest::Method;

use crate::broken_rules::{Case, ECHO, header, query};

pub(crate) fn parameter_cases(order: i64) -> Vec<Case> {
    let echo = |q: &str| format!("{ECHO}?big=1&{q}");
    let patch = format!("/orders/{order}");
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
    ]
}
