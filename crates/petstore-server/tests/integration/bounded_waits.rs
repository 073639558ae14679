//! Every wait for the database is bounded: a lock held by another
//! connection (a row, the orders table, the change counters, SQLite's
//! write lock) gets 503 with the Error object within the wait limit, and
//! the service recovers by itself once the lock is released.

use crate::support;

use std::time::{Duration, Instant};

use crate::support::{ServerProcess, http};
use petstore_server::testing::PostgresTestDatabase;
use sqlx::{Connection, Executor, PgConnection, SqliteConnection};

/// The limit the servers here run with (`--db-wait-limit`).
const LIMIT: Duration = Duration::from_secs(1);
/// What the answer may take beyond the limit: the request itself, a
/// connection's setup, a loaded CI machine.
const SLACK: Duration = Duration::from_millis(2500);

fn start(database: &str) -> ServerProcess {
    ServerProcess::start(database, &["--db-wait-limit", &LIMIT.as_secs_f64().to_string()])
}

/// Sends the request and checks that it got 503 `service_unavailable`
/// within the limit (and the slack).
fn assert_503_within_the_limit(server: &ServerProcess, key: &str, method: &str, path: &str) {
    let started = Instant::now();
    let (status, body) = http(&format!("{}{path}", server.base_url), method, Some(key));
    let took = started.elapsed();
    assert_eq!(status, 503, "{method} {path}: {body}\n{}", server.logs());
    assert!(body.contains("\"service_unavailable\""), "{body}");
    assert!(took < LIMIT + SLACK, "{method} {path} took {took:?}");
    // The body names the request's id, which its log lines carry: a
    // user's report finds them.
    let id = body
        .split("(request id ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .unwrap_or_else(|| panic!("no request id in {body}"));
    assert!(server.logged(&format!("req_id: {id}")), "{id}: {}", server.logs());
    // The handler's own line of the failure too, though its logger knows
    // nothing of the request.
    let logs = server.logs();
    let failure = logs
        .lines()
        .find(|line| line.contains("storage failure") && line.contains(&format!("req_id: {id}")));
    assert!(failure.is_some(), "no storage failure line with {id}: {logs}");
}

async fn status_seen_elsewhere(conn: &mut PgConnection, id: i64) -> String {
    sqlx::query_scalar("SELECT status FROM orders WHERE id = $1")
        .bind(id)
        .fetch_one(conn)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_lock_waits_end_in_503_and_recover() {
    let Some(db) = PostgresTestDatabase::create("postgres_lock_waits_end_in_503_and_recover").await else {
        return;
    };
    let key = support::seed(&db.url, 20, 0, "locks").await;
    let server = start(&db.url);
    let mut other = PgConnection::connect(&db.url).await.unwrap();
    let list = "/store/orders";

    // A row lock on order 7: its cancel waits for it.
    other.execute("BEGIN").await.unwrap();
    other
        .execute("SELECT id FROM orders WHERE id = 7 FOR UPDATE")
        .await
        .unwrap();
    assert_503_within_the_limit(&server, &key, "DELETE", "/store/orders/7");
    other.execute("ROLLBACK").await.unwrap();
    assert_eq!(
        http(&format!("{}/store/orders/7", server.base_url), "DELETE", Some(&key)).0,
        204
    );
    // Acknowledged means committed: another connection sees it at once.
    assert_eq!(status_seen_elsewhere(&mut other, 7).await, "cancelled");

    // An open transaction that changed an order holds the change counter
    // too: a cancel of any other order waits for it.
    other.execute("BEGIN").await.unwrap();
    other
        .execute("UPDATE orders SET quantity = 3 WHERE id = 8")
        .await
        .unwrap();
    assert_503_within_the_limit(&server, &key, "DELETE", "/store/orders/9");
    other.execute("ROLLBACK").await.unwrap();
    assert_eq!(
        http(&format!("{}/store/orders/9", server.base_url), "DELETE", Some(&key)).0,
        204
    );
    assert_eq!(status_seen_elsewhere(&mut other, 9).await, "cancelled");

    // The orders table locked, as a migration would.
    other.execute("BEGIN").await.unwrap();
    other
        .execute("LOCK TABLE orders IN ACCESS EXCLUSIVE MODE")
        .await
        .unwrap();
    assert_503_within_the_limit(&server, &key, "DELETE", "/store/orders/10");
    other.execute("ROLLBACK").await.unwrap();
    assert_eq!(
        http(&format!("{}/store/orders/10", server.base_url), "DELETE", Some(&key)).0,
        204
    );

    // The change counters locked: every request reads them.
    other.execute("BEGIN").await.unwrap();
    other
        .execute("LOCK TABLE changes IN ACCESS EXCLUSIVE MODE")
        .await
        .unwrap();
    assert_503_within_the_limit(&server, &key, "GET", list);
    assert_503_within_the_limit(&server, &key, "DELETE", "/store/orders/11");
    other.execute("ROLLBACK").await.unwrap();
    let (status, body) = http(&format!("{}{list}", server.base_url), "GET", Some(&key));
    assert_eq!(status, 200, "{body}");
    assert!(!body.contains("\"id\":7,") && !body.contains("\"id\":10,"), "{body}");
    assert_eq!(
        http(&format!("{}/store/orders/11", server.base_url), "DELETE", Some(&key)).0,
        204
    );
    assert_eq!(status_seen_elsewhere(&mut other, 11).await, "cancelled");
    other.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_busy_waits_end_in_503_and_recover() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    let key = support::seed(&database, 5, 0, "locks").await;
    let server = start(&database);

    let mut other = SqliteConnection::connect(&format!("sqlite://{database}"))
        .await
        .unwrap();
    other.execute("BEGIN IMMEDIATE").await.unwrap();
    assert_503_within_the_limit(&server, &key, "DELETE", "/store/orders/2");
    // Reads go on beside the held write lock (WAL).
    assert_eq!(
        http(&format!("{}/store/orders", server.base_url), "GET", Some(&key)).0,
        200
    );
    other.execute("ROLLBACK").await.unwrap();
    assert_eq!(
        http(&format!("{}/store/orders/2", server.base_url), "DELETE", Some(&key)).0,
        204
    );
    let status: String = sqlx::query_scalar("SELECT status FROM orders WHERE id = 2")
        .fetch_one(&mut other)
        .await
        .unwrap();
    assert_eq!(status, "cancelled");
    other.close().await.unwrap();
}

#[test]
fn cancels_queued_behind_a_blocked_one_wait_no_longer_than_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let key = runtime.block_on(support::seed(&database, 20, 0, "queue"));
    let server = start(&database);
    let mut other = runtime.block_on(async {
        let mut conn = SqliteConnection::connect(&format!("sqlite://{database}"))
            .await
            .unwrap();
        conn.execute("BEGIN IMMEDIATE").await.unwrap();
        conn
    });
    // Ten cancels at once: the first batch waits for the lock, the rest
    // queue behind it; none may wait for two batches' limits.
    let started = Instant::now();
    let answers: Vec<_> = (1..=10)
        .map(|id| {
            let (url, key) = (format!("{}/store/orders/{id}", server.base_url), key.clone());
            std::thread::spawn(move || http(&url, "DELETE", Some(&key)).0)
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| t.join().unwrap())
        .collect();
    let took = started.elapsed();
    assert!(answers.iter().all(|s| *s == 503), "{answers:?}");
    assert!(took < LIMIT + SLACK, "ten queued cancels took {took:?}");
    runtime.block_on(async { other.execute("ROLLBACK").await.unwrap() });
    assert_eq!(
        http(&format!("{}/store/orders/1", server.base_url), "DELETE", Some(&key)).0,
        204
    );
}
