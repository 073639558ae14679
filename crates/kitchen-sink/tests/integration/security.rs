//! Every security scheme the generator maps, over HTTP: the generated
//! client's `Credentials` send each (a bearer token, HTTP basic, API keys
//! in a header, the query and a cookie, an OAuth2 token with scopes), and
//! the generated layer reads each, with optional authentication (`{}`) and
//! a requirement that combines two schemes.

use std::num::NonZeroU64;

use crate::support::{Sink, create_order, send};
use kitchen_sink::client::{BasicCredentials, Credentials, Error as ClientError};
use kitchen_sink::service::{BASIC_USER, READ_ONLY_PREFIX};
use reqwest::Method;
use serde_json::json;

fn basic(password: &str) -> Option<BasicCredentials> {
    Some(BasicCredentials {
        user: BASIC_USER.into(),
        password: password.into(),
    })
}

#[tokio::test]
async fn the_client_sends_each_scheme_and_the_layer_reads_it() {
    let sink = Sink::start().await;
    let key = || Some(sink.key.clone());
    let by = [
        (Credentials::default(), "anonymous"),
        (
            Credentials {
                bearer_auth: key(),
                ..Default::default()
            },
            "bearerAuth",
        ),
        (
            Credentials {
                basic_auth: basic(&sink.key),
                ..Default::default()
            },
            "basicAuth",
        ),
        (
            Credentials {
                query_key: key(),
                ..Default::default()
            },
            "queryKey",
        ),
        (
            Credentials {
                cookie_key: key(),
                ..Default::default()
            },
            "cookieKey",
        ),
    ];
    for (credentials, scheme) in by {
        let who = sink.client_with(credentials).who_am_i().await.unwrap().into_inner();
        assert_eq!(who.scheme, scheme);
    }
    // What the client holds but the operation does not take is not sent:
    // an OAuth2 token alone leaves `whoAmI` anonymous.
    let oauth_only = Credentials {
        oauth: key(),
        ..Default::default()
    };
    let who = sink.client_with(oauth_only).who_am_i().await.unwrap().into_inner();
    assert_eq!(who.scheme, "anonymous");
    sink.stop().await;
}

#[tokio::test]
async fn credentials_that_are_sent_must_be_valid_even_where_they_are_optional() {
    let sink = Sink::start().await;
    let wrong = [
        sink.anonymous(Method::GET, "/whoami").bearer_auth("nope"),
        sink.anonymous(Method::GET, "/whoami")
            .basic_auth(BASIC_USER, Some("nope")),
        sink.anonymous(Method::GET, "/whoami")
            .basic_auth("someone", Some(&sink.key)),
        sink.anonymous(Method::GET, "/whoami?api_key=nope"),
        sink.anonymous(Method::GET, "/whoami")
            .header("cookie", "theme=dark; session=nope"),
    ];
    for request in wrong {
        let answer = send(request).await;
        answer.assert_error(401, "unauthorized", &["invalid"]);
    }
    // Every scheme's challenge, each once.
    let answer = send(sink.anonymous(Method::GET, "/whoami?api_key=nope")).await;
    let challenges: Vec<&str> = answer
        .headers
        .get_all("www-authenticate")
        .iter()
        .map(|v| v.to_str().unwrap())
        .collect();
    assert_eq!(
        challenges,
        [
            "Bearer",
            "Basic realm=\"basicAuth\", charset=\"UTF-8\"",
            "ApiKey query=\"api_key\"",
            "ApiKey cookie=\"session\"",
        ]
    );
    let malformed = send(
        sink.anonymous(Method::GET, "/whoami")
            .header("authorization", "Basic !!!"),
    )
    .await;
    malformed.assert_error(401, "unauthorized", &["Basic"]);
    let twice = send(sink.anonymous(Method::GET, &format!("/whoami?api_key={0}&api_key={0}", sink.key))).await;
    twice.assert_error(401, "unauthorized", &["more than one"]);
    sink.stop().await;
}

#[tokio::test]
async fn scopes_go_to_the_authenticator_and_combined_schemes_all_must_pass() {
    let sink = Sink::start().await;
    let (id, _) = create_order(&sink, json!({"petId": 1, "quantity": 1})).await;
    let id = NonZeroU64::new(id as u64).unwrap();
    // An OAuth2 token that grants `orders:write`.
    let full = sink.client_with(Credentials {
        oauth: Some(sink.key.clone()),
        ..Default::default()
    });
    assert_eq!(full.refund_order(id).await.unwrap().status().as_u16(), 204);
    // One that grants `orders:read` alone: 403, with RFC 6750's challenge.
    let read_only = send(
        sink.anonymous(Method::POST, &format!("/orders/{id}/refund"))
            .bearer_auth(format!("{READ_ONLY_PREFIX}{}", sink.key)),
    )
    .await;
    read_only.assert_error(403, "insufficient_scope", &["orders:write"]);
    assert_eq!(
        read_only.header("www-authenticate"),
        Some("Bearer error=\"insufficient_scope\", scope=\"orders:write\"")
    );
    let client = sink.client_with(Credentials {
        oauth: Some(format!("{READ_ONLY_PREFIX}{}", sink.key)),
        ..Default::default()
    });
    match client.refund_order(id).await {
        Err(ClientError::ErrorResponse(e)) => assert_eq!(e.status().as_u16(), 403),
        other => panic!("expected 403, got {other:?}"),
    }
    // HTTP basic and the API-key header together: both are sent.
    let both = sink.client_with(Credentials {
        basic_auth: basic(&sink.key),
        api_key_auth: Some(sink.key.clone()),
        ..Default::default()
    });
    assert_eq!(both.refund_order(id).await.unwrap().status().as_u16(), 204);
    // Either alone is not enough.
    let basic_alone = send(
        sink.anonymous(Method::POST, &format!("/orders/{id}/refund"))
            .basic_auth(BASIC_USER, Some(&sink.key)),
    )
    .await;
    basic_alone.assert_error(401, "unauthorized", &["X-API-Key"]);
    let key_alone = send(
        sink.anonymous(Method::POST, &format!("/orders/{id}/refund"))
            .header("X-API-Key", &sink.key),
    )
    .await;
    key_alone.assert_error(401, "unauthorized", &["Basic"]);
    // Both sent, one of them wrong.
    let one_wrong = send(
        sink.anonymous(Method::POST, &format!("/orders/{id}/refund"))
            .basic_auth(BASIC_USER, Some(&sink.key))
            .header("X-API-Key", "nope"),
    )
    .await;
    one_wrong.assert_error(401, "unauthorized", &["invalid"]);
    sink.stop().await;
}

#[tokio::test]
async fn credentials_never_show_in_debug() {
    let credentials = Credentials {
        bearer_auth: Some("s3cret-token".into()),
        basic_auth: basic("s3cret-password"),
        cookie_key: Some("s3cret-cookie".into()),
        ..Default::default()
    };
    let shown = format!("{credentials:?}");
    assert!(!shown.contains("s3cret"), "{shown}");
    assert!(shown.contains("bearer_auth"), "{shown}");
}
