//! Defence in depth: the service closes silent connections itself
//! (`silent_connections.rs`), and a deployment can also put haproxy in
//! front, with `deploy/haproxy.cfg`, as the README suggests. This runs that
//! file as it is: the service stays reachable through the proxy while
//! 20,000 silent connections are attempted, and none of them reaches it.

mod support;

use std::io::Write;
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use support::ServerProcess;

const CONFIG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/haproxy.cfg");
const SILENT_CONNECTIONS: usize = 20_000;

fn address(server: &ServerProcess) -> SocketAddr {
    let rest = server.base_url.strip_prefix("http://").unwrap();
    rest[..rest.find('/').unwrap()].parse().unwrap()
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

struct Haproxy(Child);

impl Drop for Haproxy {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One request from `source` (an address of the loopback range other
/// than the silent clients'); the status, if an answer came within 5 s.
async fn get_from(source: &str, proxy: SocketAddr, path: &str, key: &str) -> Option<u16> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let attempt = async {
        let socket = tokio::net::TcpSocket::new_v4().ok()?;
        socket.bind(format!("{source}:0").parse().ok()?).ok()?;
        let mut stream = socket.connect(proxy).await.ok()?;
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: petstore\r\nAuthorization: Bearer {key}\r\nConnection: close\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).await.ok()?;
        let mut response = Vec::new();
        stream.read_to_end(&mut response).await.ok()?;
        std::str::from_utf8(response.get(9..12)?).ok()?.parse().ok()
    };
    tokio::time::timeout(Duration::from_secs(5), attempt).await.ok()?
}

fn open_connections(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .filter(|target| target.to_string_lossy().starts_with("socket:"))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_haproxy_the_service_stays_reachable_during_a_flood_of_silent_connections() {
    if Command::new("haproxy").arg("-v").output().is_err() {
        let _ = writeln!(std::io::stderr(), "skipped (reverse proxy): haproxy is not installed");
        return;
    }
    // Each silent connection takes a descriptor here too.
    petstore_server::process_limits::raise_open_files_limit().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    let key = support::seed(&database, 3, 0, "proxy").await;
    let server = ServerProcess::start(&database, &["--log-level", "warn"]);
    let proxy: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
    let _haproxy = Haproxy(
        Command::new("haproxy")
            .args(["-db", "-f", CONFIG])
            .env("PETSTORE_PROXY_BIND", proxy.to_string())
            .env("PETSTORE_SERVER", address(&server).to_string())
            .env("PETSTORE_PROXY_CONN_PER_CLIENT", "100")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let path = "/v1/store/orders";
    let ready_by = Instant::now() + Duration::from_secs(10);
    while get_from("127.0.0.2", proxy, path, &key).await != Some(200) {
        assert!(Instant::now() < ready_by, "haproxy did not come up");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // The flood, from 127.0.0.1, on a thread of its own: connections are
    // held (the newest 5,000, within this process's descriptors) and never
    // send a byte.
    let flood = std::thread::spawn(move || {
        let mut held = std::collections::VecDeque::new();
        let mut connected = 0;
        for _ in 0..SILENT_CONNECTIONS {
            if let Ok(conn) = TcpStream::connect_timeout(&proxy, Duration::from_secs(1)) {
                connected += 1;
                held.push_back(conn);
                if held.len() > 5_000 {
                    held.pop_front();
                }
            }
        }
        (connected, held)
    });
    // Meanwhile, another client is served, every time, promptly.
    let mut answers = Vec::new();
    let mut most_connections = 0;
    while !flood.is_finished() {
        answers.push(get_from("127.0.0.2", proxy, path, &key).await);
        most_connections = most_connections.max(open_connections(server.child.id()));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (connected, held) = flood.join().unwrap();
    assert!(connected > 0);
    assert!(!answers.is_empty());
    assert!(answers.iter().all(|a| *a == Some(200)), "{answers:?}");
    // Silent connections never reach the service: it holds only the few
    // haproxy opened for the real requests.
    assert!(most_connections < 50, "the service held {most_connections} sockets");

    // And a silent connection (from an address under its cap) is closed by
    // haproxy after `timeout http-request` (5 s).
    use tokio::io::AsyncReadExt;
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.3:0".parse().unwrap()).unwrap();
    let mut silent = socket.connect(proxy).await.unwrap();
    let started = Instant::now();
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(15), silent.read_to_end(&mut rest)).await;
    let took = started.elapsed();
    assert!(closed.is_ok(), "a silent connection was not closed");
    assert!(
        took > Duration::from_secs(4) && took < Duration::from_secs(10),
        "a silent connection lasted {took:?}"
    );
    drop(held);
}
