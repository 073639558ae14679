//! A kitchen-sink server on an ephemeral port for each test, with its
//! generated client and a plain HTTP client for what the generated one
//! cannot send (malformed input, other media types, no key).

use dropshot::HttpServer;
use kitchen_sink::service::Service;
use serde_json::Value;

pub struct Sink {
    /// `http://127.0.0.1:PORT/v1`
    pub base_url: String,
    pub key: String,
    server: Option<HttpServer<Service>>,
}

impl Sink {
    pub async fn start() -> Sink {
        let key = format!("sink-key-{}", uuid::Uuid::new_v4().simple());
        let server = kitchen_sink::server::start(
            Service::new(vec![key.clone()]),
            "127.0.0.1:0".parse().unwrap(),
            kitchen_sink::server::quiet_logger(),
        )
        .unwrap();
        let base_url = format!("http://{}{}", server.local_addr(), kitchen_sink::api::BASE_PATH);
        Sink {
            base_url,
            key,
            server: Some(server),
        }
    }

    /// The generated client, with the key as its bearer token.
    pub fn client(&self) -> kitchen_sink::client::Client {
        self.client_with(kitchen_sink::client::Credentials {
            bearer_auth: Some(self.key.clone()),
            ..Default::default()
        })
    }

    /// The generated client, with these credentials (none: anonymous).
    pub fn client_with(&self, credentials: kitchen_sink::client::Credentials) -> kitchen_sink::client::Client {
        kitchen_sink::client::Client::new(&self.base_url, credentials)
    }

    /// A plain request to `path` (under the base URL), with the key.
    pub fn request(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.anonymous(method, path).bearer_auth(&self.key)
    }

    /// A plain request without a key.
    pub fn anonymous(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        reqwest::Client::new().request(method, format!("{}{path}", self.base_url))
    }

    pub async fn stop(mut self) {
        if let Some(server) = self.server.take() {
            server.close().await.unwrap();
        }
    }
}

/// A response's status, headers and body (JSON when it is JSON, else a
/// string).
pub struct Answer {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
    pub bytes: Vec<u8>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Asserts the Error object with `status` and `code`, whose message
    /// contains each of `parts`; gives the message.
    #[track_caller]
    pub fn assert_error(&self, status: u16, code: &str, parts: &[&str]) -> String {
        assert_eq!(self.status, status, "{}", self.body);
        assert_eq!(self.body["status"], status, "{}", self.body);
        assert_eq!(self.body["code"], code, "{}", self.body);
        let message = self.body["message"].as_str().expect("a message").to_string();
        for part in parts {
            assert!(message.contains(part), "{message:?} lacks {part:?}");
        }
        assert_eq!(
            self.header("content-type"),
            Some("application/json"),
            "the Error object is JSON"
        );
        message
    }
}

pub async fn send(request: reqwest::RequestBuilder) -> Answer {
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let bytes = response.bytes().await.unwrap().to_vec();
    let body = serde_json::from_slice(&bytes).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
    Answer {
        status,
        headers,
        body,
        bytes,
    }
}

/// Creates an order with a raw request; gives its id and ETag.
pub async fn create_order(sink: &Sink, body: Value) -> (i64, String) {
    let answer = send(sink.request(reqwest::Method::POST, "/orders").json(&body)).await;
    assert_eq!(answer.status, 201, "{}", answer.body);
    let etag = answer.header("etag").unwrap().to_string();
    (answer.body["id"].as_i64().unwrap(), etag)
}
