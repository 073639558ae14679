//! Health and readiness for a balancer, the drain period after SIGTERM, and
//! the JSON log format, against the real binary: the database taken away
//! (a read-only or deleted SQLite file, a PostgreSQL lock held from another
//! connection, its connections killed) and a shutdown.

use crate::support;

use std::time::{Duration, Instant};

use crate::support::{ServerProcess, http};
use petstore_server::testing::PostgresTestDatabase;
use sqlx::{Connection, Executor, PgConnection};

/// The server's root: its base URL without `/v1`.
fn root(server: &ServerProcess) -> String {
    server.base_url.trim_end_matches("/v1").to_string()
}

fn probe(server: &ServerProcess, path: &str) -> (u16, serde_json::Value) {
    let (status, body) = http(&format!("{}{path}", root(server)), "GET", None);
    let body = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"));
    (status, body)
}

/// Polls `path` until it answers `status` (up to `within`); its last body.
fn wait_for_probe(server: &ServerProcess, path: &str, status: u16, within: Duration) -> serde_json::Value {
    let deadline = Instant::now() + within;
    loop {
        let (now, body) = probe(server, path);
        if now == status {
            return body;
        }
        assert!(
            Instant::now() < deadline,
            "{path} still answers {now} ({body}), not {status}\n{}",
            server.logs()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_probes_answer_without_a_key_and_stay_out_of_the_info_log() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    let key = support::seed(&database, 5, 0, "probes").await;
    let server = ServerProcess::start(&database, &[]);
    assert_eq!(probe(&server, "/healthz"), (200, serde_json::json!({"status": "ok"})));
    assert_eq!(probe(&server, "/readyz"), (200, serde_json::json!({"status": "ok"})));
    // Not part of either version's contract.
    for version in ["/v1", "/v2"] {
        let (_, document) = http(&format!("{}{version}/openapi.json", root(&server)), "GET", None);
        assert!(
            !document.contains("healthz") && !document.contains("readyz"),
            "{version}"
        );
    }
    assert_eq!(
        http(&format!("{}/store/orders", server.base_url), "GET", Some(&key)).0,
        200
    );
    assert!(server.logged("uri: /v1/store/orders"), "{}", server.logs());
    assert!(!server.logs().contains("uri: /healthz") && !server.logs().contains("uri: /readyz"));

    // At debug they are logged like any request.
    let debug = ServerProcess::start(&database, &["--log-level", "debug"]);
    assert_eq!(probe(&debug, "/readyz").0, 200);
    assert!(debug.logged("uri: /readyz"), "{}", debug.logs());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_follows_the_sqlite_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    let key = support::seed(&database, 5, 0, "file").await;
    let server = ServerProcess::start(&database, &[]);
    assert_eq!(probe(&server, "/readyz").0, 200);

    // Read-only: lists are served, cancels refused; not ready.
    let mode = std::fs::metadata(&database).unwrap().permissions().mode();
    std::fs::set_permissions(&database, std::fs::Permissions::from_mode(0o444)).unwrap();
    let body = wait_for_probe(&server, "/readyz", 503, Duration::from_secs(2));
    assert!(body["reason"].as_str().unwrap().contains("read-only"), "{body}");
    assert_eq!(probe(&server, "/healthz").0, 200, "the process is up");
    assert_eq!(
        http(&format!("{}/store/orders", server.base_url), "GET", Some(&key)).0,
        200
    );
    // Writable again: ready again, by itself.
    std::fs::set_permissions(&database, std::fs::Permissions::from_mode(mode)).unwrap();
    wait_for_probe(&server, "/readyz", 200, Duration::from_secs(2));

    // Deleted: not ready; the process still answers /healthz.
    std::fs::remove_file(&database).unwrap();
    let body = wait_for_probe(&server, "/readyz", 503, Duration::from_secs(2));
    assert!(body["reason"].as_str().unwrap().contains("deleted"), "{body}");
    assert_eq!(probe(&server, "/healthz").0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_readiness_is_bounded_while_a_lock_is_held_and_recovers_after_its_connections_are_killed() {
    let Some(db) = PostgresTestDatabase::create("postgres_readiness").await else {
        return;
    };
    support::seed(&db.url, 5, 0, "ready").await;
    let server = ServerProcess::start(&db.url, &[]);
    assert_eq!(probe(&server, "/readyz").0, 200);

    // Every request reads the change counters: with them locked (for
    // longer than the 5 s wait limit), /readyz answers within its own bound.
    let mut other = PgConnection::connect(&db.url).await.unwrap();
    other.execute("BEGIN").await.unwrap();
    other
        .execute("LOCK TABLE changes IN ACCESS EXCLUSIVE MODE")
        .await
        .unwrap();
    let started = Instant::now();
    let (status, body) = probe(&server, "/readyz");
    let took = started.elapsed();
    assert_eq!(status, 503, "{body}");
    assert!(
        body["reason"].as_str().unwrap().contains("did not answer within"),
        "{body}"
    );
    assert!(took < Duration::from_millis(2500), "{took:?}");
    other.execute("ROLLBACK").await.unwrap();
    wait_for_probe(&server, "/readyz", 200, Duration::from_secs(10));

    // The server's connections killed: ready again by itself.
    let killed: i64 = sqlx::query_scalar(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .fetch_one(&mut other)
    .await
    .unwrap();
    assert!(killed > 0, "the server holds connections");
    wait_for_probe(&server, "/readyz", 200, Duration::from_secs(10));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drain_period_answers_503_on_readyz_while_everything_else_is_served() {
    const DRAIN: Duration = Duration::from_secs(2);
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    let key = support::seed(&database, 5, 0, "drain").await;
    let mut server = ServerProcess::start(&database, &["--drain-seconds", "2"]);
    assert_eq!(probe(&server, "/readyz").0, 200);
    let signalled = Instant::now();
    server.signal("TERM");
    let body = wait_for_probe(&server, "/readyz", 503, Duration::from_secs(1));
    assert!(body["reason"].as_str().unwrap().contains("draining"), "{body}");
    // Meanwhile the listener accepts and serves.
    assert_eq!(probe(&server, "/healthz").0, 200);
    assert_eq!(
        http(&format!("{}/store/orders", server.base_url), "GET", Some(&key)).0,
        200
    );
    assert_eq!(
        http(&format!("{}/store/orders/2", server.base_url), "DELETE", Some(&key)).0,
        204
    );
    let status = server.child.wait().unwrap();
    assert!(status.success(), "{status}\n{}", server.logs());
    assert!(
        signalled.elapsed() >= DRAIN,
        "the drain lasted {:?}",
        signalled.elapsed()
    );
    assert!(server.logged("draining"), "{}", server.logs());

    // Without --drain-seconds, SIGTERM stops at once, as before.
    let mut server = ServerProcess::start(&database, &[]);
    let (status, took) = server.signal_and_wait("TERM");
    assert!(status.success() && took < DRAIN, "{status} after {took:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_are_one_object_per_line_with_the_usual_fields_and_never_a_key() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    let key = support::seed(&database, 5, 0, "json").await;
    let mut server = ServerProcess::start(&database, &["--log-format", "json"]);
    let wrong = format!("{}x", &key[..key.len() - 1]);
    assert_eq!(
        http(&format!("{}/store/orders", server.base_url), "GET", Some(&key)).0,
        200
    );
    assert_eq!(
        http(&format!("{}/store/orders/1", server.base_url), "DELETE", Some(&key)).0,
        204
    );
    assert_eq!(
        http(&format!("{}/store/orders", server.base_url), "GET", Some(&wrong)).0,
        401
    );
    server.signal_and_wait("TERM");
    // stderr is read on a thread of its own, a moment behind the process:
    // wait for its last record before reading the whole.
    server.logged("\"msg\":\"stopped\"");
    let logs = server.logs();
    let records: Vec<serde_json::Value> = logs
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}")))
        .collect();
    for record in &records {
        for field in ["msg", "level", "ts"] {
            assert!(record[field].is_string(), "no {field}: {record}");
        }
    }
    let completed: Vec<_> = records.iter().filter(|r| r["msg"] == "request completed").collect();
    assert_eq!(completed.len(), 3, "{logs}");
    for record in &completed {
        assert!(record["uri"].is_string() && record["method"].is_string(), "{record}");
        assert!(
            record["response_code"].is_u64() && record["latency_us"].is_u64(),
            "{record}"
        );
    }
    assert!(
        records
            .iter()
            .any(|r| r["msg"] == "order cancelled" && r["order_id"] == 1),
        "{logs}"
    );
    assert!(records.iter().any(|r| r["msg"] == "stopped"), "{logs}");
    assert!(!logs.contains(&key) && !logs.contains(&wrong), "a key was logged");
}
