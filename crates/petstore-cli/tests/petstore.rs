//! The `petstore` command line against the real server.

use std::process::{Command, Output};

use petstore_tests::harness::TestServer;

fn petstore(server: &TestServer, key: Option<&str>, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_petstore"));
    command
        .env_remove("PETSTORE_API_KEY")
        .args(["--base-url", &server.base_url])
        .args(args);
    if let Some(key) = key {
        command.env("PETSTORE_API_KEY", key);
    }
    command.output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_and_cancels_orders() {
    let server = TestServer::sqlite().await;
    let key = server.key.clone();

    let listed = tokio::task::block_in_place(|| petstore(&server, Some(&key), &["orders", "list"]));
    assert!(listed.status.success(), "{}", text(&listed.stderr));
    let orders: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(orders.as_array().unwrap().len(), 20);
    assert_eq!(orders[0]["id"], 1);

    let cancelled = tokio::task::block_in_place(|| petstore(&server, Some(&key), &["orders", "cancel", "1"]));
    assert!(cancelled.status.success(), "{}", text(&cancelled.stderr));
    let body: serde_json::Value = serde_json::from_slice(&cancelled.stdout).unwrap();
    assert_eq!(body, serde_json::json!({"orderId": 1, "cancelled": true}));

    // The key from --api-key works as well as from the environment.
    let flagged = tokio::task::block_in_place(|| petstore(&server, None, &["--api-key", &key, "orders", "list"]));
    assert!(flagged.status.success(), "{}", text(&flagged.stderr));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_print_the_error_message_and_exit_non_zero() {
    let server = TestServer::sqlite().await;
    let key = server.key.clone();
    let cases: [(Option<&str>, &[&str], &str); 4] = [
        (
            Some(&key),
            &["orders", "cancel", "3"],
            "has already shipped and cannot be cancelled (order_already_shipped, HTTP 409)",
        ),
        (
            Some(&key),
            &["orders", "cancel", "999"],
            "order 999 not found (order_not_found, HTTP 404)",
        ),
        (
            Some("psk_1_wrong"),
            &["orders", "list"],
            "invalid API key (unauthorized, HTTP 401)",
        ),
        (None, &["orders", "list"], "--api-key"),
    ];
    for (key, args, message) in cases {
        let output = tokio::task::block_in_place(|| petstore(&server, key, args));
        assert!(!output.status.success(), "{args:?}");
        assert!(
            text(&output.stderr).contains(message),
            "{args:?}: {}",
            text(&output.stderr)
        );
        assert!(output.stdout.is_empty());
    }
    server.stop().await;
}
