//! Opening by URL, an unreachable PostgreSQL, the change counters following
//! every change, and ship dates written before migration 4 filtered by
//! instant, on both backends.

use petstore_server::storage::sql::SqlStorage;
use petstore_server::storage::{CancelOutcome, Storage, StorageError};
use petstore_server::testing::PostgresTestDatabase;

use super::storage::{data, fixture};

#[tokio::test]
async fn sqlite_url_and_in_memory_refusal() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("u.db").display());
    let storage = SqlStorage::open(&url).await.unwrap();
    assert!(storage.is_empty().await.unwrap());
    storage.close().await;
    assert!(matches!(
        SqlStorage::open("sqlite::memory:").await,
        Err(StorageError::Invalid(_))
    ));
}

#[tokio::test]
async fn an_unreachable_postgres_is_unavailable() {
    // Nothing listens on port 9 of loopback here.
    let result = SqlStorage::open("postgres://nobody@127.0.0.1:9/none").await;
    assert!(
        matches!(result, Err(StorageError::Unavailable(_))),
        "{:?}",
        result.err()
    );
}

/// The change counters (what the service's caches are checked against)
/// grow with every committed change, whoever makes it (this handle, or
/// another: another instance, the CLI), and not otherwise: the orders'
/// with orders, the keys' with keys.
async fn versions_follow_every_change(storage: &SqlStorage, other: &SqlStorage) {
    let versions = || async { storage.versions().await.unwrap() };
    let start = versions().await;
    other.import(&fixture()).await.unwrap();
    let imported = versions().await;
    assert!(imported.orders > start.orders, "an import elsewhere");
    assert_eq!(imported.keys, start.keys);
    assert_eq!(versions().await, imported, "reading changes nothing");
    other.list_orders().await.unwrap();
    assert_eq!(versions().await, imported);

    assert_eq!(other.cancel_order(1).await.unwrap(), CancelOutcome::Cancelled);
    let cancelled = versions().await;
    assert!(cancelled.orders > imported.orders, "a cancel elsewhere");
    assert_eq!(other.cancel_order(1).await.unwrap(), CancelOutcome::NotFound);
    assert_eq!(other.cancel_order(3).await.unwrap(), CancelOutcome::Shipped);
    assert_eq!(versions().await, cancelled, "cancels that change nothing");
    other.ship_order(2).await.unwrap();
    let shipped = versions().await;
    assert!(shipped.orders > cancelled.orders, "a ship elsewhere");

    let key = other.create_api_key("k", &[7; 32]).await.unwrap();
    let created = versions().await;
    assert!(created.keys > shipped.keys, "a key created elsewhere");
    assert_eq!(created.orders, shipped.orders);
    let active = storage.active_api_keys().await.unwrap();
    assert_eq!(active.hashes[&key], vec![7; 32]);
    assert_eq!(active.keys_version, created.keys, "read with the keys");
    assert!(!active.hashes.contains_key(&(key + 100)), "no such key");
    assert!(!other.revoke_api_key(key + 100).await.unwrap());
    assert_eq!(versions().await, created, "a revocation that changes nothing");
    other.revoke_api_key(key).await.unwrap();
    let revoked = storage.active_api_keys().await.unwrap();
    assert!(!revoked.hashes.contains_key(&key), "revoked");
    assert!(revoked.keys_version > created.keys, "a revocation elsewhere");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_versions_follow_every_change() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    let storage = SqlStorage::open(path.to_str().unwrap()).await.unwrap();
    let other = SqlStorage::open(path.to_str().unwrap()).await.unwrap();
    versions_follow_every_change(&storage, &other).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_versions_follow_every_change() {
    let Some(db) = PostgresTestDatabase::create("postgres_versions_follow_every_change").await else {
        return;
    };
    let storage = SqlStorage::open(&db.url).await.unwrap();
    let other = SqlStorage::open(&db.url).await.unwrap();
    versions_follow_every_change(&storage, &other).await;
    storage.close().await;
    other.close().await;
}

/// Migration 0004 on a database written before it: ship dates stored with
/// 0, 3, 6 or 9 fraction digits become fixed-width, so that version 2's
/// date filters, which compare the text, compare the instants.
async fn ship_dates_written_before_migration_4_filter_by_instant(database: &str, sqlx_url: &str) {
    use petstore_server::storage::{OrderFilters, PageQuery};
    use sqlx::Connection;
    let instant = |s: &str| s.parse::<chrono::DateTime<chrono::Utc>>().unwrap();
    let storage = SqlStorage::open(database).await.unwrap();
    let orders: Vec<_> = (1..=5)
        .map(|id| serde_json::json!({"id": id, "status": "pending"}))
        .collect();
    storage
        .import(&data(serde_json::json!({ "orders": orders })))
        .await
        .unwrap();
    storage.close().await;
    // As the import before 0004 wrote them (chrono's AutoSi), and the
    // schema as it was.
    sqlx::any::install_default_drivers();
    let mut raw = sqlx::AnyConnection::connect(sqlx_url).await.unwrap();
    for statement in [
        "UPDATE orders SET ship_date = CASE id \
           WHEN 1 THEN '2026-01-02T03:04:05Z' WHEN 2 THEN '2026-01-02T03:04:05.500Z' \
           WHEN 3 THEN '2026-01-02T03:04:05.000001Z' WHEN 4 THEN '2026-01-02T03:04:05.000000001Z' END",
        "DELETE FROM _sqlx_migrations WHERE version = 4",
        "DROP TABLE secrets",
        "DROP INDEX orders_by_pet",
    ] {
        sqlx::query(statement).execute(&mut raw).await.unwrap();
    }
    raw.close().await.unwrap();

    let storage = SqlStorage::open(database).await.unwrap();
    let page = |filters: OrderFilters| {
        let storage = storage.clone();
        async move {
            let query = PageQuery {
                filters: &filters,
                after: None,
                limit: 10,
            };
            storage
                .order_page(query)
                .await
                .unwrap()
                .iter()
                .map(|o| o.id)
                .collect::<Vec<_>>()
        }
    };
    let from = |s| OrderFilters {
        ship_date_from: Some(instant(s)),
        ..OrderFilters::default()
    };
    let to = |s| OrderFilters {
        ship_date_to: Some(instant(s)),
        ..OrderFilters::default()
    };
    // 1 (…05) < 4 (…05.000000001) < 3 (…05.000001) < 2 (…05.5); 5 has none.
    assert_eq!(page(from("2026-01-02T03:04:05.000001Z")).await, [2, 3]);
    assert_eq!(page(to("2026-01-02T03:04:05.5Z")).await, [1, 3, 4]);
    assert_eq!(page(from("2026-01-02T03:04:05Z")).await, [1, 2, 3, 4]);
    assert_eq!(page(to("2026-01-02T03:04:05.000000001Z")).await, [1]);
    assert_eq!(page(OrderFilters::default()).await, [1, 2, 3, 4, 5]);
    // The instants themselves are unchanged.
    let stored = storage.get_order(4).await.unwrap().unwrap();
    assert_eq!(stored.ship_date, Some(instant("2026-01-02T03:04:05.000000001Z")));
    // And the secrets table is back.
    assert_eq!(storage.shared_secret("t", b"fresh").await.unwrap(), b"fresh");
    assert_eq!(storage.shared_secret("t", b"other").await.unwrap(), b"fresh");
    storage.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_ship_dates_written_before_migration_4_filter_by_instant() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db").display().to_string();
    ship_dates_written_before_migration_4_filter_by_instant(&path, &format!("sqlite://{path}")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_ship_dates_written_before_migration_4_filter_by_instant() {
    let Some(db) = PostgresTestDatabase::create("ship_dates_before_migration_4").await else {
        return;
    };
    ship_dates_written_before_migration_4_filter_by_instant(&db.url, &db.url).await;
}
