//! Several `petstore-server serve` processes on one PostgreSQL database.

mod support;

use petstore_server::storage::sql::SqlStorage;
use petstore_server::storage::{OrderStatus, Storage};
use petstore_server::testing::PostgresTestDatabase;
use support::{ServerProcess, http};

const ORDERS: i64 = 60;

async fn prepare(test: &str) -> Option<(PostgresTestDatabase, String)> {
    let db = PostgresTestDatabase::create(test).await?;
    let key = support::seed(&db.url, ORDERS, 0, "instances").await;
    Some((db, key))
}

/// Both instances cancel every order at the same moment: exactly one 204
/// per order, the other 404, and both list the same orders afterwards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_cancel_each_order_exactly_once() {
    let Some((db, key)) = prepare("two_instances_cancel_each_order_exactly_once").await else {
        return;
    };
    let a = ServerProcess::start(&db.url, &[]);
    let b = ServerProcess::start(&db.url, &[]);

    let mut tasks = Vec::new();
    for id in 1..=ORDERS {
        for base in [a.base_url.clone(), b.base_url.clone()] {
            let key = key.clone();
            let url = format!("{base}/store/orders/{id}");
            tasks.push((
                id,
                tokio::task::spawn_blocking(move || http(&url, "DELETE", Some(&key)).0),
            ));
        }
    }
    let mut no_content = vec![0; ORDERS as usize + 1];
    for (id, task) in tasks {
        match task.await.unwrap() {
            204 => no_content[id as usize] += 1,
            404 => {}
            other => panic!("order {id}: unexpected status {other}"),
        }
    }
    assert!(
        no_content[1..].iter().all(|n| *n == 1),
        "one 204 per order: {no_content:?}"
    );

    let (status_a, list_a) = http(&format!("{}/store/orders", a.base_url), "GET", Some(&key));
    let (status_b, list_b) = http(&format!("{}/store/orders", b.base_url), "GET", Some(&key));
    assert_eq!((status_a, status_b), (200, 200));
    assert_eq!(list_a, list_b, "both instances list the same orders");
    assert_eq!(list_a, "[]");

    let storage = SqlStorage::open(&db.url).await.unwrap();
    for id in 1..=ORDERS {
        assert_eq!(
            storage.get_order(id).await.unwrap().unwrap().status,
            OrderStatus::Cancelled
        );
    }
    storage.close().await;
    for server in [&a, &b] {
        assert!(!server.logs().contains(&key), "the key must never be logged");
    }
}

/// A key revoked through the CLI stops working at once on every instance.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revoked_key_stops_working_at_once_everywhere() {
    let Some((db, key)) = prepare("a_revoked_key_stops_working_at_once_everywhere").await else {
        return;
    };
    let a = ServerProcess::start(&db.url, &[]);
    let b = ServerProcess::start(&db.url, &[]);
    for server in [&a, &b] {
        assert_eq!(
            http(&format!("{}/store/orders", server.base_url), "GET", Some(&key)).0,
            200
        );
    }
    let id = key.split('_').nth(1).unwrap();
    let output = support::run(&db.url, &["keys", "revoke", id]);
    assert!(output.status.success(), "{}", support::stderr(&output));
    for server in [&a, &b] {
        let (status, body) = http(&format!("{}/store/orders", server.base_url), "GET", Some(&key));
        assert_eq!(status, 401, "{body}");
        assert!(body.contains("\"code\":\"unauthorized\""), "{body}");
    }
}
