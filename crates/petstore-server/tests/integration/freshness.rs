//! No request misses a commit made before it, whoever made it: the server
//! reads the change counters only when SQLite's WAL-index header moved
//! (`storage/wal_index.rs`), so these change the database from other
//! processes and other connections, in every way that moves it, and ask
//! the running server at once.

use crate::support;

use crate::support::{ServerProcess, http};

fn ids(body: &str) -> Vec<i64> {
    let orders: Vec<serde_json::Value> = serde_json::from_str(body).unwrap();
    orders.iter().map(|o| o["id"].as_i64().unwrap()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_commit_from_elsewhere_is_seen_by_the_next_request() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    let key = support::seed(&database, 20, 0, "freshness").await;
    let server = ServerProcess::start(&database, &[]);
    let list = || {
        let (status, body) = http(&format!("{}/store/orders", server.base_url), "GET", Some(&key));
        assert_eq!(status, 200, "{body}");
        body
    };
    let v2 = server.base_url.replace("/v1", "/v2");
    let page = || {
        let (status, body) = http(&format!("{v2}/store/orders?limit=100"), "GET", Some(&key));
        assert_eq!(status, 200, "{body}");
        serde_json::from_str::<serde_json::Value>(&body).unwrap()
    };
    // Served from the caches from now on, unless something was committed.
    for _ in 0..3 {
        assert_eq!(ids(&list()).len(), 20);
    }

    // Another process: the CLI ships order 1.
    let output = support::run(&database, &["ship", "1"]);
    assert!(output.status.success(), "{}", support::stderr(&output));
    let orders: Vec<serde_json::Value> = serde_json::from_str(&list()).unwrap();
    assert_eq!(orders[0]["complete"], true, "the CLI's ship");
    assert_eq!(page()["items"][0]["status"], "shipped", "the CLI's ship, in v2");

    // Another connection, here, restarting the WAL after a checkpoint
    // before each change: the frame count starts again from the same
    // place, only the salts differ. Each change is seen.
    let other = rusqlite::Connection::open(&database).unwrap();
    other.busy_timeout(std::time::Duration::from_secs(5)).unwrap();
    for id in 2..=5 {
        let (busy, _, _): (i64, i64, i64) = other
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| {
                Ok((row.get(0)?, row.get(1)?, row.get(2)?))
            })
            .unwrap();
        assert_eq!(busy, 0, "the checkpoint ran to the end and restarted the WAL");
        other
            .execute("UPDATE orders SET status = 'cancelled' WHERE id = ?1", [id])
            .unwrap();
        assert!(!ids(&list()).contains(&id), "order {id}, cancelled after a WAL restart");
    }
    assert_eq!(ids(&list()).len(), 16);

    // The server's own cancel: never served after its 204.
    assert_eq!(
        http(&format!("{}/store/orders/6", server.base_url), "DELETE", Some(&key)).0,
        204
    );
    assert!(!ids(&list()).contains(&6));

    // A revocation by the CLI stops the key at once.
    let id = key.split('_').nth(1).unwrap();
    let output = support::run(&database, &["keys", "revoke", id]);
    assert!(output.status.success(), "{}", support::stderr(&output));
    let (status, body) = http(&format!("{}/store/orders", server.base_url), "GET", Some(&key));
    assert_eq!(status, 401, "{body}");
}
