//! Starts the 3.1 kitchen sink on an ephemeral port with a fresh key, and
//! sends requests to it: typed (its client) or raw (what a client could
//! send that its types would not let it).

use kitchen_sink_31::client::{Client, Credentials};

/// A running service, and its key.
pub struct Sink31 {
    pub base: String,
    pub key: String,
    pub http: reqwest::Client,
    _server: dropshot::HttpServer<kitchen_sink_31::service::Service>,
}

impl Sink31 {
    pub async fn start() -> Sink31 {
        let key = format!("sink31-{}", uuid::Uuid::new_v4().simple());
        let log = slog::Logger::root(slog::Discard, slog::o!());
        let server = kitchen_sink_31::start("127.0.0.1:0".parse().unwrap(), log, key.clone()).unwrap();
        let base = format!("http://{}{}", server.local_addr(), kitchen_sink_31::api::BASE_PATH);
        Sink31 {
            base,
            key,
            http: reqwest::Client::new(),
            _server: server,
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
