//! Running the real `petstore-server` binary from tests.

#![allow(dead_code)] // key_timing's binary (tests/key_timing.rs) uses a part of it.

use std::io::Read;
use std::process::{Command, Output};

use serving_checks::ServedProcess;
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_petstore-server");

/// Runs a subcommand to completion with `--database`.
pub fn run(database: &str, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .args(["--database", database])
        .output()
        .unwrap()
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Creates an API key through the CLI and gives it.
pub fn create_key(database: &str, name: &str) -> String {
    let output = run(database, &["keys", "create", "--name", name]);
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output).trim().to_string()
}

/// A `serve` process on an ephemeral port; killed when dropped. Its
/// stdout and stderr are drained on threads, so a full pipe never blocks
/// the server (serving-checks' `ServedProcess`, which every generated
/// service's tests run too).
pub struct ServerProcess(ServedProcess);

impl std::ops::Deref for ServerProcess {
    type Target = ServedProcess;
    fn deref(&self) -> &ServedProcess {
        &self.0
    }
}

impl std::ops::DerefMut for ServerProcess {
    fn deref_mut(&mut self) -> &mut ServedProcess {
        &mut self.0
    }
}

impl ServerProcess {
    pub fn start(database: &str, extra: &[&str]) -> ServerProcess {
        let mut command = Command::new(BIN);
        command
            .args(["serve", "--bind", "127.0.0.1:0", "--database", database])
            .args(extra);
        ServerProcess::spawn(command)
    }

    /// Runs `command`, which must start `serve` (through a shell, say).
    pub fn spawn(command: Command) -> ServerProcess {
        ServerProcess(ServedProcess::spawn(command))
    }

    /// Starts `DELETE /store/orders/{id}` on a thread of its own; its
    /// answer, if one comes, when joined.
    pub fn cancel_in_background(&self, key: &str, id: i64) -> std::thread::JoinHandle<Option<(u16, String)>> {
        let (url, key) = (format!("{}/store/orders/{id}", self.base_url), key.to_string());
        std::thread::spawn(move || try_http(&url, "DELETE", Some(&key)))
    }
}

/// One HTTP/1.1 request over a plain TCP connection (blocking): gives the
/// status and body. Enough for these tests without an HTTP client crate.
pub fn http(url: &str, method: &str, key: Option<&str>) -> (u16, String) {
    try_http(url, method, key).unwrap_or_else(|| panic!("no response to {method} {url}"))
}

/// Like [`http`], but `None` when the connection fails or closes without a
/// complete response (a server killed mid-request).
pub fn try_http(url: &str, method: &str, key: Option<&str>) -> Option<(u16, String)> {
    use std::io::Write;
    let rest = url.strip_prefix("http://")?;
    let (host, path) = rest.split_at(rest.find('/')?);
    let mut stream = std::net::TcpStream::connect(host).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(30))).ok()?;
    let auth = key
        .map(|k| format!("Authorization: Bearer {k}\r\n"))
        .unwrap_or_default();
    let request =
        format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\n{auth}Connection: close\r\nContent-Length: 0\r\n\r\n");
    stream.write_all(request.as_bytes()).ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    let status = response.get(9..12)?.parse().ok()?;
    let body = response.split_once("\r\n\r\n").map(|(_, b)| b.to_string())?;
    Some((status, body))
}

/// A connection of another process's that holds SQLite's write lock until
/// it is closed.
pub async fn hold_write_lock(database: &str) -> sqlx::SqliteConnection {
    use sqlx::{Connection, Executor};
    let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{database}"))
        .await
        .unwrap();
    conn.execute("BEGIN IMMEDIATE").await.unwrap();
    conn
}

/// One `GET /v1/store/orders` from `source` (an address of the loopback
/// range other than a test's flood), over a connection of its own; the
/// status, if an answer came within 10 s (a SYN dropped while an accept
/// queue is full is sent again after 1 s, then 3 s).
pub async fn get_from(source: &str, server: std::net::SocketAddr, key: &str) -> Option<u16> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let attempt = async {
        let socket = tokio::net::TcpSocket::new_v4().ok()?;
        socket.bind(format!("{source}:0").parse().ok()?).ok()?;
        let mut stream = socket.connect(server).await.ok()?;
        let request = format!(
            "GET /v1/store/orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\nConnection: close\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).await.ok()?;
        let mut response = Vec::new();
        stream.read_to_end(&mut response).await.ok()?;
        std::str::from_utf8(response.get(9..12)?).ok()?.parse().ok()
    };
    tokio::time::timeout(Duration::from_secs(10), attempt).await.ok()?
}

/// A flood of silent connections to `target`, from 127.0.0.1, on a thread
/// of its own: 20,000 attempts (or `budget`, whichever ends first), each
/// connection held open and never sent a byte; the newest 5,000 stay open
/// on this side, within the test's descriptors. When joined: how many
/// connected, and those held.
pub fn silent_flood(
    target: std::net::SocketAddr,
    budget: Duration,
) -> std::thread::JoinHandle<(usize, std::collections::VecDeque<std::net::TcpStream>)> {
    std::thread::spawn(move || {
        let (mut held, mut connected) = (std::collections::VecDeque::new(), 0);
        let started = Instant::now();
        for _ in 0..20_000 {
            if started.elapsed() > budget {
                break;
            }
            if let Ok(conn) = std::net::TcpStream::connect_timeout(&target, Duration::from_secs(1)) {
                connected += 1;
                held.push_back(conn);
                if held.len() > 5_000 {
                    held.pop_front();
                }
            }
        }
        (connected, held)
    })
}

/// Loads orders `1..=pending` as pending and the next `shipped` ids as
/// shipped into `database`, and gives a new API key for it.
pub async fn seed(database: &str, pending: i64, shipped: i64, key_name: &str) -> String {
    use petstore_server::storage::Storage;
    let storage = petstore_server::storage::sql::SqlStorage::open(database).await.unwrap();
    let orders: Vec<_> = (1..=pending + shipped)
        .map(|id| serde_json::json!({"id": id, "status": if id > pending { "shipped" } else { "pending" }}))
        .collect();
    let data = serde_json::from_value(serde_json::json!({ "orders": orders })).unwrap();
    storage.import(&data).await.unwrap();
    storage.close().await;
    create_key(database, key_name)
}

/// A free port on the loopback: bound, then released for a process that
/// takes its port on the command line (haproxy, Prometheus).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}
