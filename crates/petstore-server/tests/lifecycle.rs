//! Shutdown: SIGTERM or SIGINT stops accepting, finishes the requests in
//! flight, closes the database cleanly and exits 0 within 10 s.

mod support;

use std::time::{Duration, Instant};

use petstore_server::storage::sql::SqlStorage;
use petstore_server::storage::{OrderStatus, Storage};
use petstore_server::testing::PostgresTestDatabase;
use sqlx::{Connection, Executor};
use support::{ServerProcess, http, try_http};

async fn prepare(database: &str) -> String {
    support::seed(database, 3, 0, "lifecycle").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_finishes_the_request_in_flight_then_exits_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("petstore.db");
    let database = path.to_str().unwrap().to_string();
    let key = prepare(&database).await;
    let mut server = ServerProcess::start(&database, &[]);
    assert_eq!(
        http(&format!("{}/store/orders", server.base_url), "GET", Some(&key)).0,
        200
    );

    // Hold SQLite's write lock, so that a cancel waits inside the server.
    let mut blocker = sqlx::SqliteConnection::connect(&format!("sqlite://{database}"))
        .await
        .unwrap();
    blocker.execute("BEGIN IMMEDIATE").await.unwrap();
    let cancel_url = format!("{}/store/orders/1", server.base_url);
    let in_flight = {
        let key = key.clone();
        std::thread::spawn(move || try_http(&cancel_url, "DELETE", Some(&key)))
    };
    std::thread::sleep(Duration::from_millis(300));

    let started = Instant::now();
    server.signal("TERM");
    std::thread::sleep(Duration::from_millis(300));
    // A request that arrives after SIGTERM is not served.
    let late = {
        let (url, key) = (format!("{}/store/orders", server.base_url), key.clone());
        std::thread::spawn(move || try_http(&url, "GET", Some(&key)))
    };
    std::thread::sleep(Duration::from_millis(200));
    // Closing the blocker ends its (empty) transaction and lets the cancel
    // go on. It must be closed, not only committed: SQLite removes the WAL
    // only when the last connection of any process closes, and the server
    // may be closing its own before this test would get to close it.
    blocker.close().await.unwrap();

    let answer = in_flight.join().unwrap();
    assert_eq!(
        answer.as_ref().map(|(status, _)| *status),
        Some(204),
        "the request in flight is finished: {answer:?}"
    );
    let status = server.child.wait().unwrap();
    assert!(status.success(), "{status:?}: {}", server.logs());
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(
        late.join().unwrap(),
        None,
        "after SIGTERM, new requests are not accepted"
    );

    // Closed cleanly: the WAL was checkpointed and removed, and the cancel is there.
    assert!(
        !dir.path().join("petstore.db-wal").exists(),
        "the WAL is checkpointed at close"
    );
    let storage = SqlStorage::open(&database).await.unwrap();
    assert_eq!(
        storage.get_order(1).await.unwrap().unwrap().status,
        OrderStatus::Cancelled
    );
    assert_eq!(storage.integrity_check().await.unwrap(), "ok");
    storage.close().await;
}

#[tokio::test]
async fn sigint_exits_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    let key = prepare(&database).await;
    let mut server = ServerProcess::start(&database, &[]);
    assert_eq!(
        http(&format!("{}/store/orders", server.base_url), "GET", Some(&key)).0,
        200
    );
    let (status, elapsed) = server.signal_and_wait("INT");
    assert!(status.success(), "{status:?}: {}", server.logs());
    assert!(elapsed < Duration::from_secs(10));
    assert!(server.logs().contains("SIGINT"), "{}", server.logs());
}

#[tokio::test]
async fn sigterm_on_postgres_exits_cleanly() {
    let Some(db) = PostgresTestDatabase::create("sigterm_on_postgres_exits_cleanly").await else {
        return;
    };
    let key = prepare(&db.url).await;
    let mut server = ServerProcess::start(&db.url, &[]);
    assert_eq!(
        http(&format!("{}/store/orders/2", server.base_url), "DELETE", Some(&key)).0,
        204
    );
    let (status, elapsed) = server.signal_and_wait("TERM");
    assert!(status.success(), "{status:?}: {}", server.logs());
    assert!(elapsed < Duration::from_secs(10));
}
