//! Starts the 3.1 kitchen sink on an ephemeral port with a fresh key, and
//! sends requests to it: typed (its client) or raw (what a client could
//! send that its types would not let it).

use kitchen_sink_31::client::{Client, Credentials};

/// Tests share one process, whose resident memory a test that measures
/// it must have to itself: every test's service holds this shared, and
/// such a test holds it alone ([`Sink31::start_alone`]).
static QUIET: tokio::sync::RwLock<()> = tokio::sync::RwLock::const_new(());

/// A place among the tests that do not measure the process's memory.
pub async fn shared() -> tokio::sync::RwLockReadGuard<'static, ()> {
    QUIET.read().await
}

/// What a running service holds of [`QUIET`] (held, never read: its
/// drop lets the others run).
#[allow(dead_code)]
enum Quiet {
    Shared(tokio::sync::RwLockReadGuard<'static, ()>),
    Alone(tokio::sync::RwLockWriteGuard<'static, ()>),
}

/// A running service, and its key.
pub struct Sink31 {
    pub base: String,
    pub key: String,
    pub http: reqwest::Client,
    _server: dropshot::HttpServer<kitchen_sink_31::service::Service>,
    _quiet: Quiet,
}

impl Sink31 {
    pub async fn start() -> Sink31 {
        let key = format!("sink31-{}", uuid::Uuid::new_v4().simple());
        Self::start_with(kitchen_sink_31::service::Service::new(key.clone()), &key).await
    }

    /// [`Sink31::start`], with no other test running beside it while it
    /// runs (for one that measures the process's memory).
    pub async fn start_alone() -> Sink31 {
        let alone = QUIET.write().await;
        let key = format!("sink31-{}", uuid::Uuid::new_v4().simple());
        Self::serve(
            kitchen_sink_31::service::Service::new(key.clone()),
            &key,
            Quiet::Alone(alone),
        )
    }

    /// Serves `service`, whose key is `key`.
    pub async fn start_with(service: kitchen_sink_31::service::Service, key: &str) -> Sink31 {
        let shared = Quiet::Shared(shared().await);
        Self::serve(service, key, shared)
    }

    fn serve(service: kitchen_sink_31::service::Service, key: &str, quiet: Quiet) -> Sink31 {
        let key = key.to_string();
        let log = slog::Logger::root(slog::Discard, slog::o!());
        let server = kitchen_sink_31::serve("127.0.0.1:0".parse().unwrap(), log, service).unwrap();
        let base = format!("http://{}{}", server.local_addr(), kitchen_sink_31::api::BASE_PATH);
        Sink31 {
            base,
            key,
            http: reqwest::Client::new(),
            _server: server,
            _quiet: quiet,
        }
    }

    /// The service itself (its streams' gauges).
    pub fn service(&self) -> &kitchen_sink_31::service::Service {
        self._server.app_private()
    }

    /// The generated client, with the key as its bearer token.
    pub fn client(&self) -> Client {
        Client::new(
            &self.base,
            Credentials {
                bearer: Some(self.key.clone()),
            },
        )
    }

    /// A client that sends no credentials.
    pub fn anonymous_client(&self) -> Client {
        Client::new(&self.base, Credentials { bearer: None })
    }

    /// Sends `body` as JSON with `method` to `path`, with the key: the
    /// status, and the body as JSON (null when there is none).
    pub async fn send(&self, method: reqwest::Method, path: &str, body: serde_json::Value) -> (u16, serde_json::Value) {
        let response = self
            .http
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(&self.key)
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        let text = response.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(serde_json::Value::Null))
    }

    /// A GET of `path`, with the key.
    pub async fn get(&self, path: &str) -> (u16, serde_json::Value) {
        let response = self
            .http
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.key)
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(serde_json::Value::Null))
    }
}
