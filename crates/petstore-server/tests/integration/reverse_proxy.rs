//! Defence in depth: the service closes silent connections itself
//! (`silent_connections.rs`), and a deployment can also put haproxy in
//! front, with `deploy/haproxy.cfg`, as docs/operating.md suggests. This runs that
//! file as it is: the service stays reachable through the proxy while
//! 20,000 silent connections are attempted, and none of them reaches it.

use crate::support;

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::ServerProcess;

const CONFIG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/haproxy.cfg");

struct Haproxy(Child);

impl Drop for Haproxy {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
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
        serving_checks::tools::missing("reverse proxy", "haproxy is not installed (apt-get install haproxy)");
        return;
    }
    // Each silent connection takes a descriptor here too.
    petstore_api::runtime::serving::process_limits::raise_open_files_limit().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    let key = support::seed(&database, 3, 0, "proxy").await;
    let server = ServerProcess::start(&database, &["--log-level", "warn"]);
    let proxy: SocketAddr = format!("127.0.0.1:{}", support::free_port()).parse().unwrap();
    let _haproxy = Haproxy(
        Command::new("haproxy")
            .args(["-db", "-f", CONFIG])
            .env("PETSTORE_PROXY_BIND", proxy.to_string())
            .env("PETSTORE_SERVER", server.address().to_string())
            .env("PETSTORE_PROXY_CONN_PER_CLIENT", "100")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let ready_by = Instant::now() + Duration::from_secs(10);
    while support::get_from("127.0.0.2", proxy, &key).await != Some(200) {
        assert!(Instant::now() < ready_by, "haproxy did not come up");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // The flood: 20,000 silent connections attempted from 127.0.0.1.
    let flood = support::silent_flood(proxy, Duration::from_secs(30));
    // Meanwhile, another client is served, every time, promptly.
    let mut answers = Vec::new();
    let mut most_connections = 0;
    while !flood.is_finished() {
        answers.push(support::get_from("127.0.0.2", proxy, &key).await);
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
