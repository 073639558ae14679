//! The storage interface, on SQLite and on PostgreSQL: the same behaviour
//! from one set of queries.

use petstore_server::storage::sql::SqlStorage;
use petstore_server::storage::{CancelOutcome, ImportData, OrderStatus, ShipOutcome, Storage, StorageError};
use petstore_server::testing::PostgresTestDatabase;

pub(crate) fn data(json: serde_json::Value) -> ImportData {
    serde_json::from_value(json).unwrap()
}

pub(crate) fn fixture() -> ImportData {
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
