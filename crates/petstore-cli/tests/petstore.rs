//! The `petstore` command line against the real server.

use std::process::{Command, Output};

use petstore_tests::harness::TestServer;
use serving_checks::scripted_server::{ScriptedServer, answer};

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

/// Version 2 by default: pages followed to the end, filters, `--limit`;
/// `--api v1` for version 1.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_through_pages_with_filters_and_talks_v1_when_asked() {
    let server = TestServer::sqlite().await;
    let key = server.key.clone();
    let list = |args: &[&str]| {
        let output = tokio::task::block_in_place(|| petstore(&server, Some(&key), args));
        assert!(output.status.success(), "{args:?}: {}", text(&output.stderr));
        let orders: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        orders.as_array().unwrap().clone()
    };
    let ids = |orders: &[serde_json::Value]| orders.iter().map(|o| o["id"].as_i64().unwrap()).collect::<Vec<_>>();

    // Pages of 3, followed through all 7 of them.
    let all = list(&["orders", "list", "--page-size", "3"]);
    assert_eq!(ids(&all), (1..=20).collect::<Vec<_>>());
    assert_eq!(all[2]["status"], "shipped", "version 2's orders carry their status");
    assert_eq!(ids(&list(&["orders", "list", "--all", "--page-size", "7"])).len(), 20);
    assert_eq!(
        ids(&list(&["orders", "list", "--limit", "5", "--page-size", "2"])),
        [1, 2, 3, 4, 5]
    );
    assert_eq!(ids(&list(&["orders", "list", "--status", "shipped"])), [3]);
    assert_eq!(
        ids(&list(&["orders", "list", "--pet-id", "1", "--page-size", "1"])),
        [1, 3]
    );
    assert_eq!(ids(&list(&["orders", "list", "--complete", "false"])), [1, 2]);
    assert_eq!(
        ids(&list(&[
            "orders",
            "list",
            "--ship-date-from",
            "2026-01-02T03:04:05Z",
            "--ship-date-to",
            "2026-02-01T00:00:00Z"
        ])),
        [1]
    );

    // Version 1: the same orders, without a status.
    let v1 = list(&["--api", "v1", "orders", "list"]);
    assert_eq!(ids(&v1), (1..=20).collect::<Vec<_>>());
    assert!(v1[0].get("status").is_none());

    // What version 1 does not have is refused before any request.
    let output = tokio::task::block_in_place(|| {
        petstore(
            &server,
            Some(&key),
            &["--api", "v1", "orders", "list", "--status", "pending"],
        )
    });
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).contains("--status needs version 2"),
        "{}",
        text(&output.stderr)
    );
    server.stop().await;
}

/// A deploy's 503s: the command sends the list again (3 sends by default)
/// and prints it; `--attempts 1` fails on the first. Against a real server
/// that fails on cue.
#[test]
fn a_transient_503_is_sent_again_and_attempts_1_turns_that_off() {
    let unavailable =
        answer(503).with_body(r#"{"code":"service_unavailable","message":"storage unreachable","status":503}"#);
    let script = || vec![unavailable.clone(), unavailable.clone(), answer(200).with_body("[]")];
    let run = |server: &ScriptedServer, extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_petstore"))
            .env("PETSTORE_API_KEY", "psk_1_0123456789abcdef")
            .args(["--base-url", &server.url, "--api", "v1"])
            .args(extra)
            .args(["orders", "list"])
            .output()
            .unwrap()
    };

    let server = ScriptedServer::start(script());
    let retried = run(&server, &[]);
    assert!(retried.status.success(), "{}", text(&retried.stderr));
    assert_eq!(text(&retried.stdout).trim(), "[]");
    assert_eq!(server.requests(), 3);

    let server = ScriptedServer::start(script());
    let once = run(&server, &["--attempts", "1"]);
    assert!(!once.status.success());
    assert!(
        text(&once.stderr).contains("storage unreachable (service_unavailable, HTTP 503)"),
        "{}",
        text(&once.stderr)
    );
    assert_eq!(server.requests(), 1);
}

#[test]
fn help_states_the_retry_defaults() {
    let help = Command::new(env!("CARGO_BIN_EXE_petstore"))
        .arg("--help")
        .output()
        .unwrap();
    let help = text(&help.stdout);
    assert!(help.contains("--attempts <ATTEMPTS>"), "{help}");
    assert!(help.contains("Retry-After"), "{help}");
    assert!(help.contains("[default: 3]"), "{help}");
}
