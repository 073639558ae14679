//! A real server for tests: the production code, a fresh database (a
//! temporary SQLite file, or a new PostgreSQL database), and an ephemeral
//! port on loopback.

use dropshot::{ConfigLoggingLevel, HttpServer};
use petstore_server::service::Service;
use petstore_server::storage::sql::SqlStorage;
use petstore_server::storage::{ImportData, Storage};
use petstore_server::testing::PostgresTestDatabase;
use petstore_server::{keys, server};

/// Where a test's data lives; dropping it removes the data.
pub enum TestDatabase {
    Sqlite(tempfile::TempDir),
    Postgres(Box<PostgresTestDatabase>),
}

impl TestDatabase {
    pub fn sqlite() -> TestDatabase {
        TestDatabase::Sqlite(tempfile::tempdir().unwrap())
    }

    /// `None` (and a "skipped" line) where PostgreSQL is not configured.
    pub async fn postgres(test: &str) -> Option<TestDatabase> {
        PostgresTestDatabase::create(test)
            .await
            .map(|db| TestDatabase::Postgres(Box::new(db)))
    }

    /// What `--database` takes for it.
    pub fn url(&self) -> String {
        match self {
            TestDatabase::Sqlite(dir) => dir.path().join("petstore.db").display().to_string(),
            TestDatabase::Postgres(db) => db.url.clone(),
        }
    }
}

pub struct TestServer {
    /// `http://127.0.0.1:PORT/v1`
    pub base_url: String,
    /// `http://127.0.0.1:PORT/v2`
    pub v2_base_url: String,
    /// A valid API key.
    pub key: String,
    pub key_id: i64,
    /// The same database the server uses, to check what it stored.
    pub storage: SqlStorage,
    /// What `--database` takes for the server's database.
    pub database_url: String,
    server: Option<HttpServer<Service<SqlStorage>>>,
    // Last: the data goes after the server and the pool are closed.
    _database: TestDatabase,
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
    pub async fn sqlite() -> TestServer {
        TestServer::start(TestDatabase::sqlite()).await
    }

    pub async fn postgres(test: &str) -> Option<TestServer> {
        Some(TestServer::start(TestDatabase::postgres(test).await?).await)
    }

    /// Starts a server over `database`, loaded with [`fixture`].
    pub async fn start(database: TestDatabase) -> TestServer {
        let url = database.url();
        TestServer::start_at(database, &url).await
    }

    /// Starts a server that reaches `database` through `url` (a proxy's,
    /// say).
    pub async fn start_at(database: TestDatabase, url: &str) -> TestServer {
        let storage = SqlStorage::open(url).await.unwrap();
        storage.import(&fixture()).await.unwrap();
        let (key_id, key) = keys::issue(&storage, "test").await.unwrap();
        // Its flush dropped at once: the few warnings are written as they come.
        let log = api_runtime::serving::logging::stderr_logger(
            ConfigLoggingLevel::Warn,
            api_runtime::serving::LogFormat::Text,
        )
        .unwrap()
        .logger;
        let server = server::start(storage.clone(), "127.0.0.1:0".parse().unwrap(), log).unwrap();
        let base_url = format!("http://{}{}", server.local_addr(), petstore_api::BASE_PATH);
        let v2_base_url = format!("http://{}{}", server.local_addr(), petstore_api::v2::BASE_PATH);
        TestServer {
            base_url,
            v2_base_url,
            key,
            key_id,
            storage,
            database_url: url.to_string(),
            server: Some(server),
            _database: database,
        }
    }

    /// A generated client with the valid key.
    pub fn client(&self) -> petstore_client::Client {
        self.client_with_key(&self.key)
    }

    pub fn client_with_key(&self, key: &str) -> petstore_client::Client {
        petstore_client::Client::new(&self.base_url, petstore_client::ApiKey::new(key))
    }

    /// A generated version 2 client with the valid key.
    pub fn v2_client(&self) -> petstore_client::v2::Client {
        petstore_client::v2::Client::new(&self.v2_base_url, petstore_client::ApiKey::new(&self.key))
    }

    pub async fn stop(mut self) {
        if let Some(server) = self.server.take() {
            server.close().await.unwrap();
        }
        self.storage.close().await;
    }
}

/// Runs each named `async fn(&TestServer)` on SQLite and on PostgreSQL, as
/// `sqlite::NAME` and `postgres::NAME`.
#[macro_export]
macro_rules! on_both_backends {
    ($($case:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let server = $crate::harness::TestServer::sqlite().await;
                    super::$case(&server).await;
                    server.stop().await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let Some(server) = $crate::harness::TestServer::postgres(stringify!($case)).await else { return };
                    super::$case(&server).await;
                    server.stop().await;
                }
            )*
        }
    };
}

/// Sends `request`: its status, headers and JSON body (`Null` when it has
/// none).
pub async fn send(request: reqwest::RequestBuilder) -> (u16, reqwest::header::HeaderMap, serde_json::Value) {
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response.json().await.unwrap_or(serde_json::Value::Null);
    (status, headers, body)
}

/// `body` is the error object for `status` with `code`, and a message.
pub fn assert_error_body(body: &serde_json::Value, status: u16, code: &str) {
    assert_eq!(body["status"], status, "{body}");
    assert_eq!(body["code"], code, "{body}");
    assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()), "{body}");
}
