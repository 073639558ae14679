//! The `petstore-server` command line, run as a user would: the real
//! binary on a temporary SQLite file.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use crate::support;

use crate::support::{stderr, stdout};

use petstore_server::storage::sql::SqlStorage;
use petstore_server::storage::{OrderStatus, Storage};

struct Db {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl Db {
    fn new() -> Db {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("petstore.db");
        Db { _dir: dir, path }
    }

    fn run(&self, args: &[&str]) -> Output {
        support::run(self.path.to_str().unwrap(), args)
    }

    fn write(&self, name: &str, contents: &str) -> PathBuf {
        let path = self.path.with_file_name(name);
        std::fs::write(&path, contents).unwrap();
        path
    }

    async fn storage(&self) -> SqlStorage {
        SqlStorage::open(self.path.to_str().unwrap()).await.unwrap()
    }
}

const GOOD_IMPORT: &str = r#"{"pets":[{"id":1,"name":"Rex"}],"orders":[
  {"id":1,"petId":1,"quantity":2,"shipDate":"2026-01-02T03:04:05Z","complete":false,"status":"pending"},
  {"id":2,"petId":1,"quantity":1,"complete":true,"status":"shipped"}]}"#;

#[tokio::test]
async fn keys_create_list_revoke() {
    let db = Db::new();
    let created = db.run(&["keys", "create", "--name", "ci"]);
    assert!(created.status.success(), "{}", stderr(&created));
    let key = stdout(&created).trim().to_string();
    assert!(key.starts_with("psk_1_") && key.len() > 60, "{key}");

    let listed = db.run(&["keys", "list"]);
    let listing = stdout(&listed);
    assert!(
        listing.contains("ci") && !listing.contains(&key[6..]),
        "the list never shows a key: {listing}"
    );

    let revoked = db.run(&["keys", "revoke", "1"]);
    assert!(revoked.status.success(), "{}", stderr(&revoked));
    let storage = db.storage().await;
    assert!(!storage.active_api_keys().await.unwrap().hashes.contains_key(&1));
    assert!(storage.list_api_keys().await.unwrap()[0].revoked_at.is_some());

    let again = db.run(&["keys", "revoke", "1"]);
    assert!(!again.status.success());
    assert!(stderr(&again).contains("no active key with id 1"), "{}", stderr(&again));
}

#[tokio::test]
async fn keys_create_rejects_an_empty_name() {
    let db = Db::new();
    let output = db.run(&["keys", "create", "--name", " "]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("must not be empty"));
    assert!(db.storage().await.list_api_keys().await.unwrap().is_empty());
}

#[tokio::test]
async fn import_then_ship() {
    let db = Db::new();
    let file = db.write("data.json", GOOD_IMPORT);
    let output = db.run(&["import", file.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("imported 1 pets and 2 orders"));

    let shipped = db.run(&["ship", "1"]);
    assert!(shipped.status.success(), "{}", stderr(&shipped));
    let order = db.storage().await.get_order(1).await.unwrap().unwrap();
    assert_eq!(order.status, OrderStatus::Shipped);
    assert_eq!(order.complete, Some(true));

    for (id, reason) in [("2", "order 2 is shipped, not pending"), ("99", "order 99 not found")] {
        let output = db.run(&["ship", id]);
        assert!(!output.status.success());
        assert!(stderr(&output).contains(reason), "{}", stderr(&output));
    }
}

#[tokio::test]
async fn a_bad_import_file_is_rejected_with_the_reason_and_loads_nothing() {
    let cases = [
        ("not json", "{\"pets\": [", "not a valid import file"),
        (
            "unknown field",
            r#"{"pets":[{"id":1,"name":"Rex","age":3}]}"#,
            "unknown field `age`",
        ),
        (
            "bad status",
            r#"{"orders":[{"id":1,"status":"cancelled"}]}"#,
            "unknown variant `cancelled`",
        ),
        (
            "bad date",
            r#"{"orders":[{"id":1,"shipDate":"yesterday","status":"pending"}]}"#,
            "not a valid import file",
        ),
        (
            "duplicate id",
            r#"{"pets":[{"id":1,"name":"Rex"}],"orders":[{"id":1,"petId":1,"status":"pending"},{"id":1,"petId":1,"status":"pending"}]}"#,
            "orders[1] (id 1)",
        ),
        (
            "unknown pet",
            r#"{"pets":[{"id":1,"name":"Rex"}],"orders":[{"id":1,"petId":1,"status":"pending"},{"id":2,"petId":7,"status":"pending"}]}"#,
            "FOREIGN KEY",
        ),
    ];
    for (name, contents, reason) in cases {
        let db = Db::new();
        let file = db.write("data.json", contents);
        let output = db.run(&["import", file.to_str().unwrap()]);
        assert!(!output.status.success(), "{name}");
        assert!(stderr(&output).contains(reason), "{name}: {}", stderr(&output));
        if db.path.exists() {
            assert!(
                db.storage().await.is_empty().await.unwrap(),
                "{name}: nothing may be half-loaded"
            );
        }
    }
}

#[test]
fn a_missing_import_file_is_named() {
    let db = Db::new();
    let output = db.run(&["import", "/nonexistent/data.json"]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("cannot read /nonexistent/data.json"));
}

#[test]
fn bad_arguments_are_explained() {
    let db = Db::new();
    let output = db.run(&["ship", "abc"]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("invalid value 'abc'"), "{}", stderr(&output));
    assert!(!Path::new(&db.path).exists(), "a bad argument touches no database");
}

/// `serve --demo` prints a working key and curl line; SIGTERM stops it
/// cleanly; the key appears in no log line.
#[test]
fn serve_demo_answers_with_the_printed_key_and_stops_on_sigterm() {
    let db = Db::new();
    let mut server = support::ServerProcess::start(db.path.to_str().unwrap(), &["--demo"]);
    let (mut key, mut url) = (None, None);
    while key.is_none() || url.is_none() {
        let line = server.next_line().expect("serve --demo printed a curl line");
        let line = line.trim();
        if line.starts_with("psk_") {
            key = Some(line.to_string());
        }
        if let Some(rest) = line.strip_prefix("curl -H ") {
            url = rest.rsplit(' ').next().map(String::from);
        }
    }
    let (key, url) = (key.unwrap(), url.unwrap());
    assert_eq!(url, format!("{}/store/orders", server.base_url));

    let (status, body) = support::http(&url, "GET", Some(&key));
    assert_eq!(status, 200, "{body}");
    let orders: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(orders.as_array().unwrap().len(), 6);

    let (exit, elapsed) = server.signal_and_wait("TERM");
    assert!(exit.success(), "SIGTERM gives a clean exit: {exit:?}");
    assert!(elapsed < Duration::from_secs(10));
    let logs = server.logs();
    assert!(logs.contains("request completed"), "{logs}");
    assert!(!logs.contains(&key), "the key must never be logged");
}
