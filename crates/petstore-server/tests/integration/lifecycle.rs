//! Shutdown: SIGTERM or SIGINT stops accepting, finishes the requests in
//! flight, closes the database cleanly and exits 0 within 10 s.

use crate::support;

use std::time::{Duration, Instant};

use crate::support::{ServerProcess, http, try_http};
use petstore_server::storage::sql::SqlStorage;
use petstore_server::storage::{OrderStatus, Storage};
use petstore_server::testing::PostgresTestDatabase;
use sqlx::{Connection, Executor};

async fn prepare(database: &str) -> String {
    support::seed(database, 3, 0, "lifecycle").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_finishes_the_request_in_flight_then_exits_cleanly() {
    // The server removes the WAL when its connections are the last to
    // close. The test's own blocker ends its close while the server is
    // closing, and SQLite's last-connection check can then see it still
    // there (seen once in CI): neither removes the WAL. Everything else
    // is asserted on every attempt; the WAL's removal on one of three (a
    // server that never checkpoints fails all three).
    for attempt in 1..=3 {
        if sigterm_in_flight_attempt().await {
            return;
        }
        eprintln!("attempt {attempt}: the WAL remained (the blocker's close raced the server's)");
    }
    panic!("the WAL is checkpointed at close: it remained after three clean stops");
}

/// One SIGTERM with a request in flight; whether the server removed the
/// WAL at close.
async fn sigterm_in_flight_attempt() -> bool {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("petstore.db");
    let database = path.to_str().unwrap().to_string();
    let key = prepare(&database).await;
    let mut server = ServerProcess::start(&database, &[]);
    assert_eq!(
        http(&format!("{}/store/orders", server.base_url), "GET", Some(&key)).0,
        200
    );

    // Hold SQLite's write lock, so that a cancel waits inside the server.
    let mut blocker = sqlx::SqliteConnection::connect(&format!("sqlite://{database}"))
        .await
        .unwrap();
    blocker.execute("BEGIN IMMEDIATE").await.unwrap();
    let cancel_url = format!("{}/store/orders/1", server.base_url);
    let in_flight = {
        let key = key.clone();
        std::thread::spawn(move || try_http(&cancel_url, "DELETE", Some(&key)))
    };
    std::thread::sleep(Duration::from_millis(300));

    let started = Instant::now();
    server.signal("TERM");
    std::thread::sleep(Duration::from_millis(300));
    // A request that arrives after SIGTERM is not served.
    let late = {
        let (url, key) = (format!("{}/store/orders", server.base_url), key.clone());
        std::thread::spawn(move || try_http(&url, "GET", Some(&key)))
    };
    std::thread::sleep(Duration::from_millis(200));
    // Closing the blocker ends its (empty) transaction and lets the cancel
    // go on. It must be closed, not only committed: SQLite removes the WAL
    // only when the last connection of any process closes, and the server
    // may be closing its own before this test would get to close it.
    blocker.close().await.unwrap();

    let answer = in_flight.join().unwrap();
    assert_eq!(
        answer.as_ref().map(|(status, _)| *status),
        Some(204),
        "the request in flight is finished: {answer:?}"
    );
    let status = server.child.wait().unwrap();
    assert!(status.success(), "{status:?}: {}", server.logs());
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(
        late.join().unwrap(),
        None,
        "after SIGTERM, new requests are not accepted"
    );

    // Closed cleanly: the WAL was checkpointed and removed, and the cancel is there.
    let removed = !dir.path().join("petstore.db-wal").exists();
    let storage = SqlStorage::open(&database).await.unwrap();
    assert_eq!(
        storage.get_order(1).await.unwrap().unwrap().status,
        OrderStatus::Cancelled
    );
    assert_eq!(storage.integrity_check().await.unwrap(), "ok");
    storage.close().await;
    removed
}

#[tokio::test]
async fn sigint_exits_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    let key = prepare(&database).await;
    let mut server = ServerProcess::start(&database, &[]);
    assert_eq!(
        http(&format!("{}/store/orders", server.base_url), "GET", Some(&key)).0,
        200
    );
    let (status, elapsed) = server.signal_and_wait("INT");
    assert!(status.success(), "{status:?}: {}", server.logs());
    assert!(elapsed < Duration::from_secs(10));
    assert!(server.logged("SIGINT"), "{}", server.logs());
}

/// The moment the service says where it listens, SIGTERM is a graceful
/// stop: the handlers are installed before that line is written, so a
/// supervisor that signals at once never gets the default action (killed
/// by the signal, the database not closed). The window was small (a CI
/// run under load hit it); this runs it several times but cannot force
/// it.
#[tokio::test]
async fn sigterm_as_soon_as_it_serves_is_a_clean_stop() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    prepare(&database).await;
    for _ in 0..5 {
        let mut server = ServerProcess::start(&database, &[]);
        let (status, _) = server.signal_and_wait("TERM");
        assert!(status.success(), "{status:?}: {}", server.logs());
    }
}

#[tokio::test]
async fn sigterm_on_postgres_exits_cleanly() {
    let Some(db) = PostgresTestDatabase::create("sigterm_on_postgres_exits_cleanly").await else {
        return;
    };
    let key = prepare(&db.url).await;
    let mut server = ServerProcess::start(&db.url, &[]);
    assert_eq!(
        http(&format!("{}/store/orders/2", server.base_url), "DELETE", Some(&key)).0,
        204
    );
    let (status, elapsed) = server.signal_and_wait("TERM");
    assert!(status.success(), "{status:?}: {}", server.logs());
    assert!(elapsed < Duration::from_secs(10));
}

/// A server over a fresh SQLite database with a few orders, and its key.
async fn serving(dir: &tempfile::TempDir, extra: &[&str]) -> (ServerProcess, String, String) {
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    let key = prepare(&database).await;
    let server = ServerProcess::start(&database, extra);
    assert_eq!(
        http(&format!("{}/store/orders", server.base_url), "GET", Some(&key)).0,
        200
    );
    (server, key, database)
}

/// SIGTERM, then the exit: it must be clean and come well before the
/// 10 s default deadline (the deadline is for requests in flight, and these
/// tests have none).
fn assert_prompt_clean_exit(server: &mut ServerProcess) {
    let (status, elapsed) = server.signal_and_wait("TERM");
    assert!(status.success(), "{status:?}: {}", server.logs());
    assert!(
        elapsed < Duration::from_secs(5),
        "shutdown took {elapsed:?}: {}",
        server.logs()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_http2_connection_that_never_answers_does_not_hold_shutdown() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let (mut server, _key, _) = serving(&dir, &[]).await;
    // HTTP/2 over cleartext with prior knowledge: the preface and an empty
    // SETTINGS frame, then silence. The server's GOAWAY and PING are never
    // read, let alone answered.
    let mut h2c = std::net::TcpStream::connect(server.address()).unwrap();
    h2c.write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00")
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert_prompt_clean_exit(&mut server);
    drop(h2c);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_requests_do_not_hold_shutdown() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let (mut server, _key, _) = serving(&dir, &[]).await;
    let half_sent: Vec<_> = (0..50)
        .map(|_| {
            let mut conn = std::net::TcpStream::connect(server.address()).unwrap();
            conn.write_all(b"GET /v1/store/orders HTTP/1.1\r\nHost: x\r\n").unwrap();
            conn
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    assert_prompt_clean_exit(&mut server);
    drop(half_sent);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn during_shutdown_new_clients_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, key, database) = serving(&dir, &[]).await;
    // A request in flight keeps the process in its shutdown.
    let blocker = support::hold_write_lock(&database).await;
    let in_flight = server.cancel_in_background(&key, 1);
    std::thread::sleep(Duration::from_millis(300));
    server.signal("TERM");
    std::thread::sleep(Duration::from_millis(300));

    let started = Instant::now();
    let refused = std::net::TcpStream::connect(server.address());
    assert_eq!(
        refused.as_ref().map_err(|e| e.kind()).err(),
        Some(std::io::ErrorKind::ConnectionRefused),
        "a new client during shutdown: {refused:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(1));

    blocker.close().await.unwrap();
    let answer = in_flight.join().unwrap();
    assert_eq!(answer.map(|(status, _)| status), Some(204), "{}", server.logs());
    let status = server.child.wait().unwrap();
    assert!(status.success(), "{status:?}: {}", server.logs());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_shutdown_deadline_holds_against_a_request_that_cannot_finish() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, key, database) = serving(&dir, &["--shutdown-timeout", "1", "--db-wait-limit", "30"]).await;
    let blocker = support::hold_write_lock(&database).await;
    let _in_flight = server.cancel_in_background(&key, 1);
    std::thread::sleep(Duration::from_millis(300));
    let (status, elapsed) = server.signal_and_wait("TERM");
    assert!(status.success(), "{status:?}: {}", server.logs());
    assert!(elapsed < Duration::from_secs(3), "shutdown took {elapsed:?}");
    assert!(server.logged("deadline"), "{}", server.logs());
    blocker.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sighup_is_ignored_and_never_kills_requests_in_flight() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, key, database) = serving(&dir, &[]).await;
    let blocker = support::hold_write_lock(&database).await;
    let in_flight = server.cancel_in_background(&key, 1);
    std::thread::sleep(Duration::from_millis(300));
    server.signal("HUP");
    std::thread::sleep(Duration::from_millis(300));
    blocker.close().await.unwrap();
    assert_eq!(in_flight.join().unwrap().map(|(status, _)| status), Some(204));
    assert_eq!(
        http(&format!("{}/store/orders/2", server.base_url), "DELETE", Some(&key)).0,
        204,
        "still serving after SIGHUP"
    );
    assert!(server.logged("SIGHUP ignored"), "{}", server.logs());
    assert_prompt_clean_exit(&mut server);
}

#[tokio::test]
async fn the_open_files_limit_is_raised_and_logged() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    prepare(&database).await;
    // Started with a soft limit below the hard one, as many systems do.
    let mut command = std::process::Command::new("sh");
    command.args(["-c", "ulimit -Sn 256 && exec \"$0\" \"$@\"", support::BIN]);
    command.args(["serve", "--bind", "127.0.0.1:0", "--database", &database]);
    let mut server = ServerProcess::spawn(command);
    assert!(server.logged("open files limit"), "{}", server.logs());
    let logs = server.logs();
    let line = logs
        .lines()
        .find(|l| l.contains("open files limit"))
        .unwrap_or_else(|| panic!("{logs}"));
    let field = |name: &str| {
        let at = line.find(&format!("{name}: ")).unwrap_or_else(|| panic!("{line}")) + name.len() + 2;
        line[at..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse::<u64>()
            .unwrap()
    };
    assert_eq!(field("soft"), field("hard"), "{line}");
    assert!(field("soft") > 256, "{line}");
    // The running process has it too.
    let limits = std::fs::read_to_string(format!("/proc/{}/limits", server.child.id())).unwrap();
    let open_files = limits.lines().find(|l| l.starts_with("Max open files")).unwrap();
    let numbers: Vec<&str> = open_files.split_whitespace().skip(3).take(2).collect();
    assert_eq!(numbers[0], numbers[1], "{open_files}");
    assert_prompt_clean_exit(&mut server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_hangs_up_mid_cancel_leaves_nothing_behind() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let (mut server, key, database) = serving(&dir, &[]).await;
    // The cancel waits for the write lock; its client hangs up meanwhile,
    // and its handler is dropped (HandlerTaskMode::CancelOnDisconnect).
    let blocker = support::hold_write_lock(&database).await;
    let mut conn = std::net::TcpStream::connect(server.address()).unwrap();
    let request = format!("DELETE /v1/store/orders/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n\r\n");
    conn.write_all(request.as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    drop(conn);
    std::thread::sleep(Duration::from_millis(300));
    blocker.close().await.unwrap();

    // The service goes on: the cancel was queued, so it commits (a client
    // that hangs up gets no answer either way), later requests are served,
    // and nothing is left in flight: the shutdown does not wait.
    let (status, _) = http(&format!("{}/store/orders/1", server.base_url), "DELETE", Some(&key));
    assert_eq!(status, 404, "the queued cancel committed without its client");
    assert_eq!(
        http(&format!("{}/store/orders/2", server.base_url), "DELETE", Some(&key)).0,
        204
    );
    assert_prompt_clean_exit(&mut server);
    let storage = SqlStorage::open(&database).await.unwrap();
    assert_eq!(
        storage.get_order(1).await.unwrap().unwrap().status,
        OrderStatus::Cancelled
    );
    storage.close().await;
}
