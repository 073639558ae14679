//! The database goes away: requests get 503 with the Error body
//! (`service_unavailable`) promptly, never a panic or a hung request, and
//! the service recovers without a restart when the database is back.

use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use petstore_tests::harness::{TestDatabase, TestServer};
use serde_json::Value;

async fn call(server: &TestServer, method: reqwest::Method, path: &str) -> (u16, Value) {
    let response = reqwest::Client::new()
        .request(method, format!("{}{path}", server.base_url))
        .bearer_auth(&server.key)
        .timeout(Duration::from_secs(30))
        .send()
        .await
        .expect("an answer, not a hung request");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[track_caller]
fn assert_unavailable((status, body): &(u16, Value)) {
    assert_eq!(*status, 503, "{body}");
    assert_eq!(body["code"], "service_unavailable", "{body}");
    assert_eq!(body["status"], 503, "{body}");
}

/// Retries `f` until it gives `want` or 20 s pass.
async fn eventually(server: &TestServer, method: reqwest::Method, path: &str, want: u16) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (status, body) = call(server, method.clone(), path).await;
        if status == want {
            return;
        }
        assert!(Instant::now() < deadline, "no recovery: still {status} {body}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// `chattr +i` on the database files until dropped: even root cannot
/// write them.
struct Immutable(Vec<String>);

impl Immutable {
    fn set(paths: Vec<String>) -> Option<Immutable> {
        let ok = Command::new("chattr")
            .arg("+i")
            .args(&paths)
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(Immutable(paths))
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        let _ = Command::new("chattr").arg("-i").args(&self.0).status();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_turned_read_only_gives_503_then_recovers() {
    let server = TestServer::sqlite().await;
    let db = server.database_url.clone();
    assert_eq!(call(&server, reqwest::Method::DELETE, "/store/orders/1").await.0, 204);
    let files = vec![db.clone(), format!("{db}-wal")];
    let Some(guard) = Immutable::set(files) else {
        serving_checks::tools::missing(
            "read-only files",
            "chattr +i is not available here (e2fsprogs, as root)",
        );
        return;
    };
    let started = Instant::now();
    assert_unavailable(&call(&server, reqwest::Method::DELETE, "/store/orders/2").await);
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "503 comes promptly: {:?}",
        started.elapsed()
    );
    drop(guard);
    eventually(&server, reqwest::Method::DELETE, "/store/orders/2", 204).await;
    assert_eq!(call(&server, reqwest::Method::GET, "/store/orders").await.0, 200);
    server.stop().await;
}

/// A TCP proxy in front of PostgreSQL that can cut every connection and
/// refuse new ones, then let them through again.
struct Proxy {
    port: u16,
    down: Arc<AtomicBool>,
    connections: Arc<Mutex<Vec<tokio::task::AbortHandle>>>,
}

impl Proxy {
    async fn start(upstream: String) -> Proxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let down = Arc::new(AtomicBool::new(false));
        let connections = Arc::new(Mutex::new(Vec::new()));
        let (is_down, tracked) = (down.clone(), connections.clone());
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                if is_down.load(Ordering::SeqCst) {
                    drop(client);
                    continue;
                }
                let upstream = upstream.clone();
                let task = tokio::spawn(async move {
                    if let Ok(mut server) = tokio::net::TcpStream::connect(upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                });
                tracked.lock().unwrap().push(task.abort_handle());
            }
        });
        Proxy {
            port,
            down,
            connections,
        }
    }

    /// PostgreSQL "goes away": open connections drop, new ones are refused.
    fn cut(&self) {
        self.down.store(true, Ordering::SeqCst);
        for task in self.connections.lock().unwrap().drain(..) {
            task.abort();
        }
    }

    fn restore(&self) {
        self.down.store(false, Ordering::SeqCst);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_dropping_connections_gives_503_then_recovers() {
    let Some(database) = TestDatabase::postgres("postgres_dropping_connections_gives_503_then_recovers").await else {
        return;
    };
    let direct: sqlx::postgres::PgConnectOptions = database.url().parse().unwrap();
    let proxy = Proxy::start(format!("{}:{}", direct.get_host(), direct.get_port())).await;
    let through_proxy = direct.clone().host("127.0.0.1").port(proxy.port);
    let url = sqlx::ConnectOptions::to_url_lossy(&through_proxy).to_string();
    let server = TestServer::start_at(database, &url).await;
    assert_eq!(call(&server, reqwest::Method::GET, "/store/orders").await.0, 200);

    proxy.cut();
    for (method, path) in [
        (reqwest::Method::GET, "/store/orders"),
        (reqwest::Method::DELETE, "/store/orders/1"),
    ] {
        let started = Instant::now();
        assert_unavailable(&call(&server, method, path).await);
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "503 comes promptly: {:?}",
            started.elapsed()
        );
    }

    proxy.restore();
    eventually(&server, reqwest::Method::GET, "/store/orders", 200).await;
    assert_eq!(call(&server, reqwest::Method::DELETE, "/store/orders/1").await.0, 204);
    server.stop().await;
}
