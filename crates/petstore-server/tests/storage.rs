//! The storage interface, on SQLite and on PostgreSQL: the same behaviour
//! from one set of queries.

use petstore_server::storage::sql::SqlStorage;
use petstore_server::storage::{CancelOutcome, ImportData, OrderStatus, ShipOutcome, Storage, StorageError};
use petstore_server::testing::PostgresTestDatabase;

fn data(json: serde_json::Value) -> ImportData {
    serde_json::from_value(json).unwrap()
}

fn fixture() -> ImportData {
    data(serde_json::json!({
        "pets": [{"id": 1, "name": "Rex"}],
        "orders": [
            {"id": 1, "petId": 1, "quantity": 2, "shipDate": "2026-01-02T03:04:05Z", "complete": false, "status": "pending"},
            {"id": 2, "status": "pending"},
            {"id": 3, "petId": 1, "complete": true, "status": "shipped"},
        ]
    }))
}

async fn import_and_read_back(storage: &SqlStorage) {
    assert!(storage.is_empty().await.unwrap());
    storage.import(&fixture()).await.unwrap();
    assert!(!storage.is_empty().await.unwrap());
    let orders = storage.list_orders().await.unwrap();
    assert_eq!(orders.iter().map(|o| o.id).collect::<Vec<_>>(), [1, 2, 3]);
    let first = &orders[0];
    assert_eq!(
        (first.pet_id, first.quantity, first.complete),
        (Some(1), Some(2), Some(false))
    );
    assert_eq!(first.ship_date.unwrap().to_rfc3339(), "2026-01-02T03:04:05+00:00");
    assert_eq!(
        (
            orders[1].pet_id,
            orders[1].quantity,
            orders[1].complete,
            orders[1].ship_date
        ),
        (None, None, None, None)
    );
    assert_eq!(orders[2].status, OrderStatus::Shipped);
    assert_eq!(storage.get_pet(1).await.unwrap().unwrap().name, "Rex");
    assert!(storage.get_pet(2).await.unwrap().is_none());
}

async fn cancel_outcomes(storage: &SqlStorage) {
    storage.import(&fixture()).await.unwrap();
    assert_eq!(storage.cancel_order(1).await.unwrap(), CancelOutcome::Cancelled);
    assert_eq!(storage.cancel_order(1).await.unwrap(), CancelOutcome::NotFound);
    assert_eq!(storage.cancel_order(3).await.unwrap(), CancelOutcome::Shipped);
    assert_eq!(storage.cancel_order(99).await.unwrap(), CancelOutcome::NotFound);
    assert_eq!(
        storage.get_order(1).await.unwrap().unwrap().status,
        OrderStatus::Cancelled,
        "the row is kept"
    );
    assert_eq!(
        storage
            .list_orders()
            .await
            .unwrap()
            .iter()
            .map(|o| o.id)
            .collect::<Vec<_>>(),
        [2, 3]
    );
}

async fn ship_outcomes(storage: &SqlStorage) {
    storage.import(&fixture()).await.unwrap();
    assert_eq!(storage.ship_order(2).await.unwrap(), ShipOutcome::Shipped);
    let shipped = storage.get_order(2).await.unwrap().unwrap();
    assert_eq!((shipped.status, shipped.complete), (OrderStatus::Shipped, Some(true)));
    assert!(
        shipped.ship_date.is_some(),
        "shipping stamps a ship date where there was none"
    );
    assert_eq!(
        storage.ship_order(2).await.unwrap(),
        ShipOutcome::NotPending(OrderStatus::Shipped)
    );
    storage.cancel_order(1).await.unwrap();
    assert_eq!(
        storage.ship_order(1).await.unwrap(),
        ShipOutcome::NotPending(OrderStatus::Cancelled)
    );
    assert_eq!(storage.ship_order(99).await.unwrap(), ShipOutcome::NotFound);
}

async fn a_failed_import_loads_nothing(storage: &SqlStorage) {
    let duplicate = data(serde_json::json!({
        "pets": [{"id": 1, "name": "Rex"}],
        "orders": [{"id": 1, "petId": 1, "status": "pending"}, {"id": 1, "status": "pending"}]
    }));
    let Err(StorageError::Invalid(reason)) = storage.import(&duplicate).await else {
        panic!("a duplicate id is invalid")
    };
    assert!(reason.contains("orders[1] (id 1)"), "{reason}");
    let unknown_pet = data(serde_json::json!({"orders": [{"id": 5, "petId": 42, "status": "pending"}]}));
    assert!(matches!(
        storage.import(&unknown_pet).await,
        Err(StorageError::Invalid(_))
    ));
    assert!(storage.is_empty().await.unwrap(), "nothing half-loaded");
    // Imports insert many pets and orders a statement: a bad row in a
    // later statement is still named, and the earlier statements roll back.
    let pets_and_orders = |bad_pet: Option<usize>, bad_order: Option<usize>| {
        let pets: Vec<_> = (0..1_201)
            .map(|i| match Some(i) == bad_pet {
                true => serde_json::json!({"id": 1, "name": "Rex again"}),
                false => serde_json::json!({"id": i + 1, "name": format!("pet {}", i + 1)}),
            })
            .collect();
        let orders: Vec<_> = (0..1_201)
            .map(|i| match Some(i) == bad_order {
                true => serde_json::json!({"id": 1_000_000 + i, "petId": 4_242, "status": "pending"}),
                false => serde_json::json!({"id": i + 1, "petId": 1, "quantity": i % 5, "status": "pending"}),
            })
            .collect();
        data(serde_json::json!({"pets": pets, "orders": orders}))
    };
    let Err(StorageError::Invalid(reason)) = storage.import(&pets_and_orders(Some(1_100), None)).await else {
        panic!("a duplicate pet id is invalid")
    };
    assert!(reason.contains("pets[1100] (id 1)"), "{reason}");
    assert!(storage.is_empty().await.unwrap(), "nothing half-loaded");
    let Err(StorageError::Invalid(reason)) = storage.import(&pets_and_orders(None, Some(1_100))).await else {
        panic!("an order for an unknown pet is invalid")
    };
    assert!(reason.contains("orders[1100] (id 1001100)"), "{reason}");
    assert!(storage.is_empty().await.unwrap(), "nothing half-loaded");
    storage.import(&pets_and_orders(None, None)).await.unwrap();
    assert_eq!(storage.get_pet(1_201).await.unwrap().unwrap().name, "pet 1201");
    let mut loaded = Vec::new();
    storage
        .for_each_order(|order| {
            loaded.push((order.id, order.quantity));
            Ok(())
        })
        .await
        .unwrap();
    assert_eq!(loaded.len(), 1_201);
    assert_eq!(loaded[1_200], (1_201, Some(0)));
}

async fn api_keys(storage: &SqlStorage) {
    let first = storage.create_api_key("a", &[1; 32]).await.unwrap();
    let second = storage.create_api_key("b", &[2; 32]).await.unwrap();
    assert!(second > first);
    assert_eq!(storage.active_api_keys().await.unwrap().hashes[&first], vec![1; 32]);
    assert!(storage.revoke_api_key(first).await.unwrap());
    assert!(!storage.revoke_api_key(first).await.unwrap());
    assert!(!storage.active_api_keys().await.unwrap().hashes.contains_key(&first));
    let keys = storage.list_api_keys().await.unwrap();
    assert_eq!(
        keys.iter()
            .map(|k| (k.name.as_str(), k.revoked_at.is_some()))
            .collect::<Vec<_>>(),
        [("a", true), ("b", false)]
    );
}

/// Imports orders with these ids, each with the status `status` gives.
async fn import_orders(storage: &SqlStorage, ids: std::ops::RangeInclusive<i64>, status: fn(i64) -> &'static str) {
    let orders: Vec<_> = ids
        .map(|id| serde_json::json!({"id": id, "status": status(id)}))
        .collect();
    storage
        .import(&data(serde_json::json!({"orders": orders})))
        .await
        .unwrap();
}

/// Cancel and ship race on each of many orders: every order ends up either
/// cancelled (and the cancel won) or shipped (and the ship won), never both.
async fn concurrent_cancel_and_ship_never_both_win(storage: &SqlStorage) {
    import_orders(storage, 1..=40, |_| "pending").await;
    let mut tasks = Vec::new();
    for id in 1..=40 {
        let (a, b) = (storage.clone(), storage.clone());
        tasks.push(tokio::spawn(async move {
            let (cancel, ship) = tokio::join!(a.cancel_order(id), b.ship_order(id));
            (id, cancel.unwrap(), ship.unwrap())
        }));
    }
    for task in tasks {
        let (id, cancel, ship) = task.await.unwrap();
        let status = storage.get_order(id).await.unwrap().unwrap().status;
        match (cancel, ship, status) {
            (CancelOutcome::Cancelled, ShipOutcome::NotPending(OrderStatus::Cancelled), OrderStatus::Cancelled) => {}
            (CancelOutcome::Shipped, ShipOutcome::Shipped, OrderStatus::Shipped) => {}
            other => panic!("order {id}: {other:?}"),
        }
    }
}

/// Many cancels at once share transactions (group commit): each still
/// gets its own outcome, an order cancelled twice gives exactly one
/// `Cancelled`, and every `Cancelled` is in the database afterwards.
async fn concurrent_cancels_each_get_their_outcome(storage: &SqlStorage) {
    import_orders(storage, 1..=100, |id| if id % 10 == 0 { "shipped" } else { "pending" }).await;
    let mut tasks = Vec::new();
    // Every order twice, plus ids that do not exist, all at once.
    for id in (1..=110).chain(1..=100) {
        let storage = storage.clone();
        tasks.push(tokio::spawn(
            async move { (id, storage.cancel_order(id).await.unwrap()) },
        ));
    }
    let mut cancelled = std::collections::HashMap::<i64, usize>::new();
    for task in tasks {
        let (id, outcome) = task.await.unwrap();
        match outcome {
            CancelOutcome::Cancelled => *cancelled.entry(id).or_default() += 1,
            CancelOutcome::Shipped => assert_eq!(id % 10, 0, "order {id}"),
            CancelOutcome::NotFound => assert!(id > 100 || id % 10 != 0, "order {id}"),
        }
    }
    for id in 1..=110 {
        let expected = usize::from(id <= 100 && id % 10 != 0);
        assert_eq!(cancelled.get(&id).copied().unwrap_or(0), expected, "order {id}");
        let status = storage.get_order(id).await.unwrap().map(|o| o.status);
        let want = match (id > 100, id % 10 == 0) {
            (true, _) => None,
            (false, true) => Some(OrderStatus::Shipped),
            (false, false) => Some(OrderStatus::Cancelled),
        };
        assert_eq!(status, want, "order {id}");
    }
}

/// The cancels a storage committed name the orders versions they went
/// between, so that the list cache can patch its list: exactly, whether a
/// batch cancelled one order or many, and never across a change that was
/// not a cancel of this storage's.
async fn cancels_name_the_versions_they_went_between(storage: &SqlStorage) {
    import_orders(storage, 1..=60, |id| if id % 10 == 0 { "shipped" } else { "pending" }).await;
    let start = storage.versions().await.unwrap().orders;
    assert_eq!(
        storage.cancelled_since(start, start).await,
        None,
        "nothing cancelled yet"
    );
    // Many at once: they share transactions.
    let tasks: Vec<_> = (1..=60)
        .map(|id| {
            let storage = storage.clone();
            tokio::spawn(async move { (id, storage.cancel_order(id).await.unwrap()) })
        })
        .collect();
    let mut cancelled = Vec::new();
    for task in tasks {
        if let (id, CancelOutcome::Cancelled) = task.await.unwrap() {
            cancelled.push(id);
        }
    }
    let after = storage.versions().await.unwrap().orders;
    let (at, mut ids) = storage
        .cancelled_since(start, after)
        .await
        .expect("only this storage's cancels since");
    ids.sort_unstable();
    assert_eq!((at, ids), (after, cancelled));
    // A change that is not a cancel ends the chain; the next cancel starts one.
    import_orders(storage, 100..=101, |_| "pending").await;
    let imported = storage.versions().await.unwrap().orders;
    assert_eq!(storage.cancelled_since(after, imported).await, None, "an import since");
    assert_eq!(storage.cancel_order(100).await.unwrap(), CancelOutcome::Cancelled);
    let last = storage.versions().await.unwrap().orders;
    assert_eq!(storage.cancelled_since(imported, last).await, Some((last, vec![100])));
    let (at, mut ids) = storage.cancelled_since(start, after).await.unwrap();
    ids.sort_unstable();
    assert_eq!((at, ids), (after, (1..=60).filter(|id| id % 10 != 0).collect()));
}

macro_rules! on_both_backends {
    ($($case:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let dir = tempfile::tempdir().unwrap();
                    let storage = petstore_server::storage::sql::SqlStorage::open(dir.path().join("t.db").to_str().unwrap()).await.unwrap();
                    super::$case(&storage).await;
                    assert_eq!(storage.integrity_check().await.unwrap(), "ok");
                    storage.close().await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let Some(db) = super::PostgresTestDatabase::create(stringify!($case)).await else { return };
                    let storage = petstore_server::storage::sql::SqlStorage::open(&db.url).await.unwrap();
                    super::$case(&storage).await;
                    storage.close().await;
                }
            )*
        }
    };
}

on_both_backends!(
    import_and_read_back,
    cancel_outcomes,
    ship_outcomes,
    a_failed_import_loads_nothing,
    api_keys,
    concurrent_cancel_and_ship_never_both_win,
    concurrent_cancels_each_get_their_outcome,
    cancels_name_the_versions_they_went_between,
);

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
