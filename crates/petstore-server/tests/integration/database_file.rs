//! The database is where the operator said it is: a missing SQLite file is
//! an error unless creating one was asked for, and a file deleted or
//! replaced while serving is noticed (503 and an error log), never written
//! to. The same for its companions, `-wal` and `-shm`: nothing acknowledged
//! is lost, and a restored backup is never corrupted, whether the server
//! then gets SIGTERM or kill -9. Backups as a command, and the rest of the
//! class: a read-only file or directory, a schema from another version.

use crate::support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::support::{ServerProcess, http, run, stderr};
use petstore_server::storage::sql::SqlStorage;
use petstore_server::storage::{OrderStatus, Storage};

pub(crate) fn cancel(server: &ServerProcess, key: &str, id: i64) -> (u16, String) {
    http(&format!("{}/store/orders/{id}", server.base_url), "DELETE", Some(key))
}

#[test]
fn serve_refuses_a_missing_file_unless_told_to_create_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("typo.db");
    let database = path.to_str().unwrap();
    let output = run(database, &["serve", "--bind", "127.0.0.1:0"]);
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(
        message.contains("does not exist") && message.contains("--create-database"),
        "{message}"
    );
    assert!(!path.exists(), "nothing was created");
    for args in [&["keys", "list"][..], &["keys", "revoke", "1"], &["ship", "1"]] {
        let output = run(database, args);
        assert!(!output.status.success(), "{args:?}");
        assert!(
            stderr(&output).contains("does not exist"),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(!path.exists(), "{args:?} created nothing");
    }

    let mut server = ServerProcess::start(database, &["--create-database"]);
    assert!(path.exists());
    let (status, _) = server.signal_and_wait("TERM");
    assert!(status.success(), "{}", server.logs());
    // Once it exists, it is served without the flag.
    let server = ServerProcess::start(database, &[]);
    drop(server);
}

fn remove_database(path: &Path) {
    std::fs::remove_file(path).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_file_deleted_while_serving_gets_503_and_is_not_recreated() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("petstore.db");
    let database = path.to_str().unwrap().to_string();
    let key = support::seed(&database, 5, 0, "file").await;
    let server = ServerProcess::start(&database, &[]);
    assert_eq!(cancel(&server, &key, 1).0, 204);

    remove_database(&path);
    let (status, body) = cancel(&server, &key, 2);
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("service_unavailable"), "{body}");
    let (status, body) = http(&format!("{}/store/orders", server.base_url), "GET", Some(&key));
    assert_eq!(status, 503, "no answers from an unlinked file: {body}");
    // A token that is not a key is refused for what it is before storage
    // is read (`authenticate_now` and `authenticate` alike): 401, not 503.
    let (status, body) = http(&format!("{}/store/orders", server.base_url), "GET", Some("not-a-key"));
    assert_eq!(status, 401, "{body}");
    assert!(
        server.logged("was deleted while the service was running"),
        "{}",
        server.logs()
    );
    assert!(server.logged("ERRO"), "logged as an error: {}", server.logs());
    assert!(!path.exists(), "no new, empty database in its place");
    drop(server);

    // A restart does not serve an empty database in its place either.
    let output = run(&database, &["serve", "--bind", "127.0.0.1:0"]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("does not exist"), "{}", stderr(&output));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_file_replaced_while_serving_gets_503() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("petstore.db");
    let database = path.to_str().unwrap().to_string();
    let key = support::seed(&database, 5, 0, "file").await;
    let other = dir.path().join("other.db");
    support::seed(other.to_str().unwrap(), 3, 0, "other").await;
    let server = ServerProcess::start(&database, &[]);
    assert_eq!(cancel(&server, &key, 1).0, 204);

    std::fs::rename(&other, &path).unwrap();
    let (status, body) = cancel(&server, &key, 2);
    assert_eq!(status, 503, "{body}");
    assert!(server.logged("was replaced"), "{}", server.logs());
}

/// Order ids, shared by the load's threads.
type SharedIds = Arc<Mutex<BTreeSet<i64>>>;

/// Clients cancelling distinct orders (from 1 up) until stopped; what got
/// 204 and what got 503 when joined.
pub(crate) struct CancelLoad {
    pub(crate) stop: Arc<AtomicBool>,
    pub(crate) acked: SharedIds,
    pub(crate) refused: SharedIds,
    pub(crate) threads: Vec<std::thread::JoinHandle<()>>,
}

impl CancelLoad {
    pub(crate) fn start(server: &ServerProcess, key: &str, clients: usize, last: i64) -> CancelLoad {
        let next = Arc::new(AtomicI64::new(1));
        let stop = Arc::new(AtomicBool::new(false));
        let (acked, refused) = (Arc::default(), Arc::default());
        let threads = (0..clients)
            .map(|_| {
                let (base, key, next, stop) = (server.base_url.clone(), key.to_string(), next.clone(), stop.clone());
                let (acked, refused): (SharedIds, SharedIds) = (Arc::clone(&acked), Arc::clone(&refused));
                std::thread::spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        let id = next.fetch_add(1, Ordering::Relaxed);
                        if id > last {
                            return;
                        }
                        match support::try_http(&format!("{base}/store/orders/{id}"), "DELETE", Some(&key)) {
                            Some((204, _)) => acked.lock().unwrap().insert(id),
                            Some((503, body)) => {
                                assert!(body.contains("service_unavailable"), "{body}");
                                refused.lock().unwrap().insert(id)
                            }
                            Some((status, body)) => panic!("order {id}: {status} {body}"),
                            None => return,
                        };
                    }
                })
            })
            .collect();
        CancelLoad {
            stop,
            acked,
            refused,
            threads,
        }
    }

    pub(crate) fn refused(&self) -> usize {
        self.refused.lock().unwrap().len()
    }

    /// Stops the clients; gives the ids answered 204 and those answered 503.
    pub(crate) fn finish(self) -> (BTreeSet<i64>, BTreeSet<i64>) {
        self.stop.store(true, Ordering::Relaxed);
        for thread in self.threads {
            thread.join().unwrap();
        }
        let acked = self.acked.lock().unwrap().clone();
        let refused = self.refused.lock().unwrap().clone();
        (acked, refused)
    }
}

pub(crate) fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while !done() {
        assert!(std::time::Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Opens the database as the next server would, checks it, and gives every
/// order's status.
pub(crate) async fn restart_and_read(database: &str, orders: i64) -> Vec<OrderStatus> {
    let storage = SqlStorage::open_with(
        database,
        &petstore_server::storage::sql::OpenOptions {
            create: false,
            ..Default::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(storage.integrity_check().await.unwrap(), "ok");
    let mut statuses = Vec::new();
    for id in 1..=orders {
        statuses.push(storage.get_order(id).await.unwrap().unwrap().status);
    }
    storage.close().await;
    statuses
}

pub(crate) fn companion(database: &str, suffix: &str) -> PathBuf {
    PathBuf::from(format!("{database}{suffix}"))
}

/// A companion deleted under a cancel load, then the process stopped by
/// `signal`: every 204 is in the database file, writes got 503 after the
/// deletion was noticed while reads went on, and the file is sound.
async fn companion_deleted_while_serving(suffix: &str, signal: &str) {
    const ORDERS: i64 = 3000;
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    let key = support::seed(&database, ORDERS, 0, "companion").await;
    let mut server = ServerProcess::start(&database, &[]);
    let load = CancelLoad::start(&server, &key, 4, ORDERS);
    std::thread::sleep(Duration::from_millis(300));
    std::fs::remove_file(companion(&database, suffix)).unwrap();
    wait_for("the server to notice", || load.refused() > 0);
    let (acked, refused) = load.finish();
    assert!(!acked.is_empty(), "the load cancelled orders before the deletion");
    assert!(
        server.logged(&format!(
            "petstore.db{suffix} was deleted while the service was running"
        )),
        "{}",
        server.logs()
    );
    assert!(
        server.logged("every committed change is in the database file"),
        "{}",
        server.logs()
    );
    // Writes stay refused; reads go on.
    let (status, body) = http(
        &format!("{}/store/orders/{}", server.base_url, ORDERS),
        "DELETE",
        Some(&key),
    );
    assert_eq!(status, 503, "{body}");
    let (status, body) = http(&format!("{}/store/orders", server.base_url), "GET", Some(&key));
    assert_eq!(status, 200, "{body}\n{}", server.logs());
    server.signal_and_wait(signal);

    let statuses = restart_and_read(&database, ORDERS).await;
    for id in 1..=ORDERS {
        let status = statuses[id as usize - 1];
        if acked.contains(&id) {
            assert_eq!(status, OrderStatus::Cancelled, "order {id} was acknowledged");
        } else if refused.contains(&id) || id == ORDERS {
            // A 503 after the commit (the deletion seen before the 204): either.
        } else if id > acked.iter().chain(&refused).max().copied().unwrap_or_default() {
            assert_eq!(status, OrderStatus::Pending, "order {id} was never asked for");
        }
    }
    // After the restart the service works again.
    let server = ServerProcess::start(&database, &[]);
    let (status, body) = http(
        &format!("{}/store/orders/{ORDERS}", server.base_url),
        "DELETE",
        Some(&key),
    );
    assert!(status == 204 || status == 404, "{status} {body}");
    assert!(!server.logs().contains("ERRO"), "{}", server.logs());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wal_deleted_while_serving_loses_nothing_acknowledged_after_kill_9() {
    companion_deleted_while_serving("-wal", "KILL").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wal_deleted_while_serving_loses_nothing_acknowledged_after_sigterm() {
    companion_deleted_while_serving("-wal", "TERM").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shm_deleted_while_serving_loses_nothing_acknowledged_after_kill_9() {
    companion_deleted_while_serving("-shm", "KILL").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shm_deleted_while_serving_loses_nothing_acknowledged_after_sigterm() {
    companion_deleted_while_serving("-shm", "TERM").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wal_replaced_while_serving_stops_reads_and_writes_and_loses_nothing_after_kill_9() {
    const ORDERS: i64 = 200;
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    let key = support::seed(&database, ORDERS, 0, "replaced-wal").await;
    let mut server = ServerProcess::start(&database, &[]);
    for id in 1..=20 {
        assert_eq!(cancel(&server, &key, id).0, 204);
    }
    // An older copy of the WAL, moved back over it.
    let old_wal = dir.path().join("old-wal");
    std::fs::copy(companion(&database, "-wal"), &old_wal).unwrap();
    for id in 21..=40 {
        assert_eq!(cancel(&server, &key, id).0, 204);
    }
    std::fs::rename(&old_wal, companion(&database, "-wal")).unwrap();
    let (status, body) = cancel(&server, &key, 41);
    assert_eq!(status, 503, "{body}");
    assert!(server.logged("-wal was replaced by another file"), "{}", server.logs());
    assert!(server.logged("remove it before the next start"), "{}", server.logs());
    assert!(
        server.logged("every committed change is in the database file"),
        "{}",
        server.logs()
    );
    // What is at the path may hold changes the open connections cannot see.
    let (status, body) = http(&format!("{}/store/orders", server.base_url), "GET", Some(&key));
    assert_eq!(status, 503, "{body}");
    server.signal_and_wait("KILL");
    // As the log says: the old WAL is not this database's.
    std::fs::remove_file(companion(&database, "-wal")).unwrap();
    let statuses = restart_and_read(&database, ORDERS).await;
    for (id, status) in (1..).zip(statuses) {
        let expected = if id <= 40 {
            OrderStatus::Cancelled
        } else {
            OrderStatus::Pending
        };
        assert_eq!(status, expected, "order {id}");
    }
}
