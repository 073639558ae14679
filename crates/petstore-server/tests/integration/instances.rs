//! Several `petstore-server serve` processes on one PostgreSQL database.

use crate::support;

use crate::support::{ServerProcess, http};
use petstore_server::storage::sql::SqlStorage;
use petstore_server::storage::{OrderStatus, Storage};
use petstore_server::testing::PostgresTestDatabase;

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

/// Version 2 beside version 1 on two instances of one database: a cursor
/// one instance issued pages on the other (the signing key is the
/// database's), and a cancel through either version on either instance is
/// seen at once through the other version on the other instance.
async fn versions_agree_across_instances(database: &str, key: &str) {
    let a = ServerProcess::start(database, &[]);
    let b = ServerProcess::start(database, &[]);
    let v2 = |server: &ServerProcess| format!("{}/v2", server.base_url.trim_end_matches("/v1"));
    let page = |server: &ServerProcess, query: &str| {
        let (status, body) = http(&format!("{}/store/orders?{query}", v2(server)), "GET", Some(key));
        assert_eq!(status, 200, "{body}");
        serde_json::from_str::<serde_json::Value>(&body).unwrap()
    };
    let ids = |page: &serde_json::Value| {
        page["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["id"].as_i64().unwrap())
            .collect::<Vec<_>>()
    };
    let v1_ids = |server: &ServerProcess| {
        let (status, body) = http(&format!("{}/store/orders", server.base_url), "GET", Some(key));
        assert_eq!(status, 200, "{body}");
        let orders: Vec<serde_json::Value> = serde_json::from_str(&body).unwrap();
        orders.iter().map(|o| o["id"].as_i64().unwrap()).collect::<Vec<_>>()
    };

    let first = page(&a, "limit=5");
    assert_eq!(ids(&first), [1, 2, 3, 4, 5]);
    let cursor = first["nextCursor"].as_str().unwrap();
    assert_eq!(ids(&page(&b, &format!("limit=5&cursor={cursor}"))), [6, 7, 8, 9, 10]);

    // Both versions' answers read (and kept: v1's list, v2's pages) on
    // both instances before the cancels.
    assert!(v1_ids(&a).contains(&3) && v1_ids(&b).contains(&4));
    for server in [&a, &b] {
        assert_eq!(ids(&page(server, "limit=10")), (1..=10).collect::<Vec<_>>());
    }
    assert_eq!(http(&format!("{}/store/orders/3", v2(&a)), "DELETE", Some(key)).0, 204);
    assert!(
        !v1_ids(&b).contains(&3),
        "b's v1 list must not serve order 3 after its 204"
    );
    assert!(!ids(&page(&b, "limit=10")).contains(&3));
    assert_eq!(
        http(&format!("{}/store/orders/4", b.base_url), "DELETE", Some(key)).0,
        204
    );
    assert!(!ids(&page(&a, "limit=10")).contains(&4));
    assert!(!v1_ids(&a).contains(&4));
    let (status, body) = http(&format!("{}/store/orders/4", v2(&a)), "DELETE", Some(key));
    assert_eq!(status, 404, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn versions_agree_across_instances_on_postgres() {
    let Some((db, key)) = prepare("versions_agree_across_instances_on_postgres").await else {
        return;
    };
    versions_agree_across_instances(&db.url, &key).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn versions_agree_across_instances_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").display().to_string();
    let key = support::seed(&database, ORDERS, 0, "instances").await;
    versions_agree_across_instances(&database, &key).await;
}
