//! Connections that hold a descriptor without using it are closed by the
//! service itself (dropshot has no read timeout; see `connection_reaper`):
//! silent ones after `--silent-timeout`, idle keep-alive ones after
//! `--idle-timeout`, and one client's silent connections beyond
//! `--silent-per-client` at once. A flood of silent connections does not
//! lock other clients out, even with a low open-files limit.

use crate::support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::support::ServerProcess;

/// How long the flood below runs: long enough to open its connections
/// past the server's 1,024 descriptors several times over (it prints how
/// many it opened).
const FLOOD_BUDGET: Duration = Duration::from_secs(10);

async fn serving(extra: &[&str]) -> (tempfile::TempDir, ServerProcess, String) {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    let key = support::seed(&database, 3, 0, "silent").await;
    let server = ServerProcess::start(&database, extra);
    (dir, server, key)
}

/// How long until the server closes `conn` (reading nothing), at most 20 s.
fn time_until_closed(conn: &mut TcpStream) -> Duration {
    conn.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let started = Instant::now();
    let mut rest = Vec::new();
    let _ = conn.read_to_end(&mut rest);
    started.elapsed()
}

/// One keep-alive request on `conn`; its status.
fn get(conn: &mut TcpStream, key: &str) -> u16 {
    let request = format!("GET /v1/store/orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n\r\n");
    conn.write_all(request.as_bytes()).unwrap();
    conn.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        assert_eq!(conn.read(&mut byte).unwrap(), 1, "closed mid-answer");
        head.push(byte[0]);
    }
    let head = String::from_utf8(head).unwrap();
    let length: usize = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().parse().unwrap())
        })
        .unwrap();
    let mut body = vec![0; length];
    conn.read_exact(&mut body).unwrap();
    head[9..12].parse().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_and_idle_connections_are_closed_and_busy_ones_are_not() {
    let (_dir, server, key) = serving(&["--silent-timeout", "2", "--idle-timeout", "3"]).await;
    let mut silent = TcpStream::connect(server.address()).unwrap();
    let mut idle = TcpStream::connect(server.address()).unwrap();
    let mut busy = TcpStream::connect(server.address()).unwrap();
    assert_eq!(get(&mut idle, &key), 200);
    let busy_thread = std::thread::spawn(move || {
        // A request every half second for five seconds: never idle.
        for _ in 0..10 {
            assert_eq!(get(&mut busy, &key), 200);
            std::thread::sleep(Duration::from_millis(500));
        }
    });
    let silent_for = time_until_closed(&mut silent);
    assert!(
        silent_for > Duration::from_millis(1500) && silent_for < Duration::from_secs(5),
        "silent connection closed after {silent_for:?}"
    );
    let idle_for = time_until_closed(&mut idle);
    assert!(
        idle_for < Duration::from_secs(5),
        "idle connection closed after {idle_for:?} more"
    );
    busy_thread.join().expect("the busy connection was served throughout");
    assert!(server.logged("closed connections"), "{}", server.logs());
    // And counted, by reason, at /metrics.
    let root = server.base_url.trim_end_matches("/v1");
    let (_, metrics) = support::http(&format!("{root}/metrics"), "GET", None);
    for reason in ["silent", "idle"] {
        let series = format!("http_connections_closed_total{{reason=\"{reason}\"}} ");
        let count: Option<u64> = metrics
            .lines()
            .find_map(|line| line.strip_prefix(series.as_str())?.trim().parse().ok());
        assert!(count.is_some_and(|count| count >= 1), "{reason}: {metrics}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_clients_silent_connections_beyond_its_share_are_closed_at_once() {
    let (_dir, server, _key) = serving(&["--silent-per-client", "10"]).await;
    let mut conns: Vec<TcpStream> = (0..30).map(|_| TcpStream::connect(server.address()).unwrap()).collect();
    std::thread::sleep(Duration::from_secs(3));
    // Well before the 10 s silent timeout, 20 of the 30 are closed.
    let mut open = 0;
    for conn in &mut conns {
        conn.set_nonblocking(true).unwrap();
        let mut byte = [0u8; 1];
        if matches!(conn.read(&mut byte), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock) {
            open += 1;
        }
    }
    assert_eq!(open, 10, "{}", server.logs());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_silent_connections_does_not_lock_other_clients_out() {
    // The flood holds descriptors here too.
    petstore_api::runtime::serving::process_limits::raise_open_files_limit().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    let key = support::seed(&database, 3, 0, "flood").await;
    // A low open-files limit (soft and hard), so that the flood would
    // exhaust it many times over.
    let mut command = Command::new("sh");
    command.args(["-c", "ulimit -n 1024 && exec \"$0\" \"$@\"", support::BIN]);
    command.args([
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--database",
        &database,
        "--log-level",
        "warn",
    ]);
    let server = ServerProcess::spawn(command);
    let target = server.address();

    let flood = support::silent_flood(target, FLOOD_BUDGET);
    let mut answers = Vec::new();
    while !flood.is_finished() {
        answers.push(support::get_from("127.0.0.2", target, &key).await);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (connected, held) = flood.join().unwrap();
    // After the flood, with its newest connections still open, the
    // service answers at once.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = support::get_from("127.0.0.2", target, &key).await;
    drop(held);
    eprintln!("the flood opened {connected} connections in at most {FLOOD_BUDGET:?}");
    assert!(connected > 1024, "the flood opened only {connected} connections");
    let served = answers.iter().filter(|a| **a == Some(200)).count();
    assert_eq!(after, Some(200), "{}", server.logs());
    // Every request during the flood is answered.
    assert_eq!(served, answers.len(), "{answers:?}");
}
