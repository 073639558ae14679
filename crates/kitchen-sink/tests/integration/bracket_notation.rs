//! Structured parameters and fields in text: bracket notation
//! (`deepObject`), as Stripe's API writes its queries and
//! forms: a value of any structure (a choice of an object and a scalar, a
//! list, a list of objects, a map) written by the generated client and
//! read by the server, each text by its schema; and an object in a path
//! segment or a header (the `simple` style). A text that does not fit is
//! answered 400 naming where it is.

use crate::support::{Sink, send};
use kitchen_sink::client::types;
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn the_client_writes_and_the_server_reads_values_of_any_structure() {
    let sink = Sink::start().await;
    let client = sink.client();
    let range: types::SearchChargesCreated =
        serde_json::from_value(json!({"gt": 1_700_000_000, "lte": 1_800_000_000})).unwrap();
    let expand: Vec<types::SearchChargesExpandItem> = serde_json::from_value(json!(["customer", "invoice"])).unwrap();
    let body: types::ChargeCriteria = serde_json::from_value(json!({
        "card": {"last4": "4242", "exp_month": 12},
        "items": [{"price": "p_1", "quantity": 2}, {"price": "p_2"}],
        "metadata": {"order": "17", "note": "a b&c"},
    }))
    .unwrap();
    let echo = client
        .search_charges(Some(&range), Some(&expand), &body)
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        serde_json::Value::Object(echo),
        json!({
            "created": {"gt": 1_700_000_000, "lte": 1_800_000_000},
            "expand": ["customer", "invoice"],
            "body": {
                "card": {"last4": "4242", "exp_month": 12},
                "items": [{"price": "p_1", "quantity": 2}, {"price": "p_2"}],
                "metadata": {"order": "17", "note": "a b&c"},
            },
        })
    );

    // The other branch of each choice: a time, and the empty string.
    let time = types::SearchChargesCreated::from(5_i64);
    let cleared: types::ChargeCriteria = serde_json::from_value(json!({"metadata": ""})).unwrap();
    let echo = client
        .search_charges(Some(&time), None, &cleared)
        .await
        .unwrap()
        .into_inner();
    assert_eq!(echo["created"], json!(5));
    assert_eq!(echo["expand"], serde_json::Value::Null);
    assert_eq!(echo["body"]["metadata"], json!(""));
    sink.stop().await;
}

#[tokio::test]
async fn texts_that_do_not_fit_are_answered_400_naming_where() {
    let sink = Sink::start().await;
    let search = |query: &str, body: &str| {
        sink.anonymous(Method::POST, &format!("/charges/search?{query}"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body.to_string())
    };
    // As a client by hand writes them: `[]` unescaped, indexes in any order.
    let read = send(search(
        "created[gte]=3&expand[]=a",
        "items[1][price]=q&items[0][price]=p&card[exp_month]=1",
    ))
    .await;
    assert_eq!(read.status, 200, "{}", read.body);
    assert_eq!(read.body["created"], json!({"gte": 3}));
    assert_eq!(read.body["body"]["items"], json!([{"price": "p"}, {"price": "q"}]));

    let cases = [
        (
            "created[gt]=soon",
            "metadata=",
            vec!["query parameter `created` at `/gt`", "not an integer"],
        ),
        (
            "created[after]=1",
            "metadata=",
            vec!["query parameter `created`", "(anyOf)"],
        ),
        ("created=-1", "metadata=", vec!["query parameter `created`"]),
        (
            "created=1&created[gt]=2",
            "metadata=",
            vec!["both as a value and as properties"],
        ),
        (
            "expand[]=a&expand[]=b&expand[]=c&expand[]=d&expand[]=e",
            "metadata=",
            vec!["`expand`", "(maxItems)"],
        ),
        (
            "",
            "card[exp_month]=May",
            vec!["form field `card[exp_month]`", "not an integer"],
        ),
        ("", "card[exp_month]=13", vec!["(maximum)"]),
        ("", "items[0][quantity]=1", vec!["(required)"]),
        ("", "metadata=x", vec!["(anyOf)"]),
    ];
    for (query, body, parts) in cases {
        let answer = send(search(query, body)).await;
        let code = match query.is_empty() {
            true => "invalid_body",
            false => "invalid_parameter",
        };
        answer.assert_error(400, code, &parts);
    }
    sink.stop().await;
}

/// An object in a path segment or a header (the `simple` style): its
/// names and values joined by commas, `name=value` ones with `explode`.
#[tokio::test]
async fn objects_in_a_path_and_a_header_are_their_names_and_values_joined() {
    let sink = Sink::start().await;
    let client = sink.client();
    let version: types::PluginVersion = serde_json::from_value(json!({"major": 10, "minor": 8})).unwrap();
    let build: types::GetPluginVersionXBuild = serde_json::from_value(json!({"number": 7, "channel": "beta"})).unwrap();
    let read = client
        .get_plugin_version(&version, Some(&build))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        serde_json::Value::Object(read),
        json!({"version": {"major": 10, "minor": 8}, "build": {"number": 7, "channel": "beta"}})
    );

    let raw = send(
        sink.anonymous(Method::GET, "/plugins/major,2")
            .header("x-build", "number=3"),
    )
    .await;
    assert_eq!(raw.status, 200, "{}", raw.body);
    assert_eq!(raw.body, json!({"version": {"major": 2}, "build": {"number": 3}}));
    let cases = [
        (
            "/plugins/major,x",
            None,
            vec!["path parameter `version` property `major`", "not an integer"],
        ),
        ("/plugins/major,2,minor", None, vec!["`name,value` pairs"]),
        ("/plugins/minor,2", None, vec!["path parameter `version`", "(required)"]),
        (
            "/plugins/major,2",
            Some("number,3"),
            vec!["header parameter `X-Build`", "`name=value` pairs"],
        ),
        (
            "/plugins/major,2",
            Some("number=3,channel=nightly"),
            vec!["header parameter `X-Build`", "(enum)"],
        ),
        // Empty: an object of no property, which lacks the required one.
        (
            "/plugins/major,2",
            Some(""),
            vec!["header parameter `X-Build`", "(required)"],
        ),
    ];
    for (path, header, parts) in cases {
        let mut request = sink.anonymous(Method::GET, path);
        if let Some(header) = header {
            request = request.header("x-build", header);
        }
        send(request).await.assert_error(400, "invalid_parameter", &parts);
    }
    sink.stop().await;
}
