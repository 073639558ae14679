//! listOrders' cached body, through the service as the generated layer
//! calls it (authenticate, then the handler) on a real database, with
//! changes made through another handle: what another instance or the CLI
//! does. No request after a change committed may miss it: not a list, and
//! not a key's revocation.

use petstore_api::runtime::{self, Json};
use petstore_api::{ListOrdersResponse, PetStoreHandlers, types};
use petstore_server::keys;
use petstore_server::service::{Caller, Service};
use petstore_server::storage::sql::SqlStorage;
use petstore_server::storage::{CancelOutcome, ImportData, Storage};
use petstore_server::testing::PostgresTestDatabase;

fn data(json: serde_json::Value) -> ImportData {
    serde_json::from_value(json).unwrap()
}

/// The key checked as the generated layer checks it for listOrders (which
/// reads the orders' version).
async fn authenticate(service: &Service<SqlStorage>, key: &str) -> Result<Caller, runtime::Rejection> {
    let request = http::Request::builder()
        .uri("/v1/store/orders")
        .header(http::header::AUTHORIZATION, format!("Bearer {key}"))
        .body(())
        .unwrap();
    let info = dropshot::RequestInfo::new(&request, "127.0.0.1:9".parse().unwrap());
    let security = <petstore_api::ListOrders as runtime::Contract>::operation().security;
    runtime::authenticate_with(service, &info, security).await
}

/// One listOrders request: the key is checked (reading the orders'
/// version), then the handler runs. Gives the body's bytes.
async fn list(service: &Service<SqlStorage>, key: &str) -> bytes::Bytes {
    let caller = authenticate(service, key).await.unwrap();
    match service.list_orders(&caller).await {
        ListOrdersResponse::Ok(body) => body.to_bytes().unwrap(),
        other => panic!("{other:?}"),
    }
}

fn ids(body: &[u8]) -> Vec<i64> {
    let orders: Vec<types::Order> = serde_json::from_slice(body).unwrap();
    orders.iter().map(|o| o.id.unwrap()).collect()
}

async fn every_change_is_seen_at_once(storage: SqlStorage, other: SqlStorage) {
    other
        .import(&data(serde_json::json!({
            "pets": [{"id": 1, "name": "Rex"}],
            "orders": [
                {"id": 1, "petId": 1, "quantity": 2, "shipDate": "2026-01-02T03:04:05Z", "status": "pending"},
                {"id": 2, "status": "pending"},
                {"id": 3, "complete": true, "status": "shipped"},
            ]
        })))
        .await
        .unwrap();
    let (key_id, key) = keys::issue(&storage, "test").await.unwrap();
    let service = Service::new(storage, slog::Logger::root(slog::Discard, slog::o!()));

    let first = list(&service, &key).await;
    assert_eq!(ids(&first), [1, 2, 3]);
    let typed: Vec<types::Order> = serde_json::from_slice(&first).unwrap();
    assert_eq!(
        first,
        Json::serialized(&typed).unwrap().to_bytes().unwrap(),
        "the body is the typed list, serialized"
    );
    let second = list(&service, &key).await;
    assert_eq!(
        first.as_ptr(),
        second.as_ptr(),
        "nothing changed: the same bytes are sent again"
    );

    assert_eq!(other.cancel_order(1).await.unwrap(), CancelOutcome::Cancelled);
    assert_eq!(ids(&list(&service, &key).await), [2, 3], "a cancel elsewhere");

    other.ship_order(2).await.unwrap();
    let shipped: Vec<types::Order> = serde_json::from_slice(&list(&service, &key).await).unwrap();
    assert_eq!(shipped[0].complete, Some(true), "a ship elsewhere");

    other
        .import(&data(serde_json::json!({"orders": [{"id": 9, "status": "pending"}]})))
        .await
        .unwrap();
    assert_eq!(ids(&list(&service, &key).await), [2, 3, 9], "an import elsewhere");

    // The service's own cancel, through the handler: the next list (as
    // after the 204 was sent) does not hold it.
    let caller = authenticate(&service, &key).await.unwrap();
    assert!(matches!(
        service.cancel_order(&caller, 9).await,
        petstore_api::CancelOrderResponse::NoContent
    ));
    assert_eq!(ids(&list(&service, &key).await), [2, 3], "its own cancel");

    // The key was checked (and cached) many times; revoked elsewhere, it
    // stops working at once.
    assert!(other.revoke_api_key(key_id).await.unwrap());
    let revoked = authenticate(&service, &key).await;
    assert_eq!(
        revoked.err().map(|rejection| rejection.status),
        Some(401),
        "a revocation elsewhere"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_every_change_is_seen_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    let storage = SqlStorage::open(path.to_str().unwrap()).await.unwrap();
    let other = SqlStorage::open(path.to_str().unwrap()).await.unwrap();
    every_change_is_seen_at_once(storage, other).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_every_change_is_seen_at_once() {
    let Some(db) = PostgresTestDatabase::create("postgres_every_change_is_seen_at_once").await else {
        return;
    };
    let storage = SqlStorage::open(&db.url).await.unwrap();
    let other = SqlStorage::open(&db.url).await.unwrap();
    every_change_is_seen_at_once(storage.clone(), other.clone()).await;
    storage.close().await;
    other.close().await;
}
