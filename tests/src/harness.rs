//! A real server for tests: the production code, a temporary SQLite file,
//! and an ephemeral port on loopback.

use dropshot::{ConfigLoggingLevel, HttpServer};
use petstore_server::service::Service;
use petstore_server::storage::sqlite::SqliteStorage;
use petstore_server::storage::{ImportData, Storage};
use petstore_server::{keys, server};

pub struct TestServer {
    /// `http://127.0.0.1:PORT/v1`
    pub base_url: String,
    /// A valid API key.
    pub key: String,
    pub key_id: i64,
    /// The same database the server uses, to check what it stored.
    pub storage: SqliteStorage,
    server: Option<HttpServer<Service<SqliteStorage>>>,
    _dir: tempfile::TempDir,
}

/// Pets 1 and 2; orders 1, 2, 4..=20 pending, 3 shipped.
pub fn fixture() -> ImportData {
    let mut orders = vec![
        serde_json::json!({"id": 1, "petId": 1, "quantity": 2, "shipDate": "2026-01-02T03:04:05Z", "complete": false, "status": "pending"}),
        serde_json::json!({"id": 2, "petId": 2, "quantity": 1, "complete": false, "status": "pending"}),
        serde_json::json!({"id": 3, "petId": 1, "quantity": 5, "shipDate": "2026-02-03T04:05:06Z", "complete": true, "status": "shipped"}),
    ];
    orders.extend((4..=20).map(|id| serde_json::json!({"id": id, "petId": 2, "status": "pending"})));
    serde_json::from_value(serde_json::json!({
        "pets": [{"id": 1, "name": "Rex"}, {"id": 2, "name": "Whiskers"}],
        "orders": orders,
    }))
    .unwrap()
}

impl TestServer {
    /// Starts a server over a fresh database loaded with [`fixture`].
    pub async fn start() -> TestServer {
        let dir = tempfile::tempdir().unwrap();
        let storage = SqliteStorage::open(&dir.path().join("petstore.db")).await.unwrap();
        storage.import(&fixture()).await.unwrap();
        let (key_id, key) = keys::issue(&storage, "test").await.unwrap();
        let log = server::stderr_logger(ConfigLoggingLevel::Warn).unwrap();
        let server = server::start(storage.clone(), "127.0.0.1:0".parse().unwrap(), log).unwrap();
        let base_url = format!("http://{}{}", server.local_addr(), petstore_api::BASE_PATH);
        TestServer {
            base_url,
            key,
            key_id,
            storage,
            server: Some(server),
            _dir: dir,
        }
    }

    /// A generated client with the valid key.
    pub fn client(&self) -> petstore_client::Client {
        self.client_with_key(&self.key)
    }

    pub fn client_with_key(&self, key: &str) -> petstore_client::Client {
        petstore_client::Client::new(&self.base_url, petstore_client::ApiKey::new(key))
    }

    pub async fn stop(mut self) {
        if let Some(server) = self.server.take() {
            server.close().await.unwrap();
        }
        self.storage.close().await;
    }
}
