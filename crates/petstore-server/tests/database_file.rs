//! The database is where the operator said it is: a missing SQLite file is
//! an error unless creating one was asked for, and a file deleted or
//! replaced while serving is noticed (503 and an error log), never written
//! to. The same for its companions, `-wal` and `-shm`: nothing acknowledged
//! is lost, and a restored backup is never corrupted, whether the server
//! then gets SIGTERM or kill -9. Backups as a command, and the rest of the
//! class: a read-only file or directory, a schema from another version.

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use petstore_server::storage::sql::SqlStorage;
use petstore_server::storage::{OrderStatus, Storage};
use support::{ServerProcess, http, run, stderr, stdout};

fn cancel(server: &ServerProcess, key: &str, id: i64) -> (u16, String) {
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
struct CancelLoad {
    stop: Arc<AtomicBool>,
    acked: SharedIds,
    refused: SharedIds,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl CancelLoad {
    fn start(server: &ServerProcess, key: &str, clients: usize, last: i64) -> CancelLoad {
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

    fn refused(&self) -> usize {
        self.refused.lock().unwrap().len()
    }

    /// Stops the clients; gives the ids answered 204 and those answered 503.
    fn finish(self) -> (BTreeSet<i64>, BTreeSet<i64>) {
        self.stop.store(true, Ordering::Relaxed);
        for thread in self.threads {
            thread.join().unwrap();
        }
        let acked = self.acked.lock().unwrap().clone();
        let refused = self.refused.lock().unwrap().clone();
        (acked, refused)
    }
}

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while !done() {
        assert!(std::time::Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Opens the database as the next server would, checks it, and gives every
/// order's status.
async fn restart_and_read(database: &str, orders: i64) -> Vec<OrderStatus> {
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

fn companion(database: &str, suffix: &str) -> PathBuf {
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

/// An older backup restored with `mv` while serving, the old `-wal` and
/// `-shm` left beside it; then `signal`. The file at the path is exactly
/// the backup, byte for byte, and sound.
async fn backup_restored_while_serving(signal: &str) {
    const ORDERS: i64 = 500;
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    let key = support::seed(&database, ORDERS, 0, "restore").await;
    let mut server = ServerProcess::start(&database, &[]);
    let cancel = |id: i64| http(&format!("{}/store/orders/{id}", server.base_url), "DELETE", Some(&key));
    for id in 1..=10 {
        assert_eq!(cancel(id).0, 204);
    }
    let backup = dir.path().join("backup.db");
    let output = run(&database, &["backup", backup.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let expected = std::fs::read(&backup).unwrap();
    // Cancels the backup does not have, in the old file's WAL.
    for id in 11..=40 {
        assert_eq!(cancel(id).0, 204);
    }

    std::fs::rename(&backup, &database).unwrap();
    let (status, body) = cancel(41);
    assert_eq!(status, 503, "{body}");
    assert!(
        server.logged("was replaced while the service was running"),
        "{}",
        server.logs()
    );
    wait_for("the old -wal and -shm to be removed", || {
        !companion(&database, "-wal").exists() && !companion(&database, "-shm").exists()
    });
    let (status, body) = http(&format!("{}/store/orders", server.base_url), "GET", Some(&key));
    assert_eq!(status, 503, "no answers from the old file: {body}");
    let (status, _) = server.signal_and_wait(signal);
    if signal == "TERM" {
        assert!(status.success(), "{}", server.logs());
    }

    assert_eq!(
        std::fs::read(&database).unwrap(),
        expected,
        "the file at the path is the backup, unchanged"
    );
    assert!(
        !companion(&database, "-wal").exists(),
        "no WAL of another file beside it"
    );
    let statuses = restart_and_read(&database, ORDERS).await;
    for (id, status) in (1..).zip(statuses) {
        let held = if id <= 10 {
            OrderStatus::Cancelled
        } else {
            OrderStatus::Pending
        };
        assert_eq!(status, held, "order {id} as the backup held it");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_restored_while_serving_is_not_corrupted_by_sigterm() {
    backup_restored_while_serving("TERM").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_restored_while_serving_is_not_corrupted_by_kill_9() {
    backup_restored_while_serving("KILL").await;
}

/// The orders' change counter and the cancelled orders in a SQLite file.
fn counter_and_cancelled(path: &Path) -> (i64, BTreeSet<i64>) {
    let output = std::process::Command::new("python3")
        .args([
            "-c",
            "import sqlite3,sys; c=sqlite3.connect('file:'+sys.argv[1]+'?mode=ro', uri=True); \
             print(c.execute('select counter from changes').fetchone()[0]); \
             print(' '.join(str(r[0]) for r in c.execute(\"select id from orders where status='cancelled'\")))",
        ])
        .arg(path)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let mut lines = text.lines();
    let counter = lines.next().unwrap().parse().unwrap();
    let cancelled = lines
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .map(|id| id.parse().unwrap())
        .collect();
    (counter, cancelled)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_while_cancels_go_on_is_consistent_and_blocks_no_writer() {
    const ORDERS: i64 = 50_000;
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    let key = support::seed(&database, ORDERS, 0, "backup").await;
    let (imported, none) = counter_and_cancelled(Path::new(&database));
    assert!(none.is_empty());
    // A writer blocked past one second would get 503.
    let server = ServerProcess::start(&database, &["--db-wait-limit", "1"]);
    let load = CancelLoad::start(&server, &key, 4, ORDERS);
    for round in 0..3 {
        std::thread::sleep(Duration::from_millis(200));
        let acked_before = load.acked.lock().unwrap().clone();
        let target = dir.path().join(format!("backup-{round}.db"));
        let output = run(&database, &["backup", target.to_str().unwrap(), "--db-wait-limit", "1"]);
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(stdout(&output).contains("written to"), "{}", stdout(&output));
        let (counter, cancelled) = counter_and_cancelled(&target);
        // One snapshot: every cancel in it bumped the counter it holds.
        assert_eq!(counter - imported, cancelled.len() as i64, "round {round}");
        assert!(
            acked_before.is_subset(&cancelled),
            "round {round}: a 204 before the backup is in it"
        );
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|name| name.contains("partial"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }
    let (acked, refused) = load.finish();
    assert!(acked.len() > 10, "cancels went on during the backups: {}", acked.len());
    assert!(refused.is_empty(), "no writer waited past the limit: {refused:?}");
}

#[test]
fn a_backup_never_overwrites_the_database_and_leaves_nothing_when_it_fails() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("petstore.db");
    let database = path.to_str().unwrap();
    support::create_key(database, "backup");
    let before = std::fs::read(&path).unwrap();
    for target in [
        database.to_string(),
        format!("{database}-wal"),
        format!("{}/./petstore.db", dir.path().display()),
    ] {
        let output = run(database, &["backup", &target]);
        assert!(!output.status.success());
        assert!(stderr(&output).contains("would overwrite"), "{}", stderr(&output));
    }
    assert_eq!(std::fs::read(&path).unwrap(), before);
    let output = run(
        database,
        &["backup", dir.path().join("absent/copy.db").to_str().unwrap()],
    );
    assert!(!output.status.success());
    let output = run(dir.path().join("typo.db").to_str().unwrap(), &["backup", "copy.db"]);
    assert!(stderr(&output).contains("does not exist"), "{}", stderr(&output));
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["petstore.db"], "nothing else was written");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_backup_runs_pg_dump_or_says_how() {
    let Some(db) = petstore_server::testing::PostgresTestDatabase::create("backup_pg").await else {
        return;
    };
    support::create_key(&db.url, "backup");
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("petstore.dump");
    let output = std::process::Command::new(support::BIN)
        .args(["backup", target.to_str().unwrap(), "--database", &db.url])
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("pg_dump is not installed"),
        "{}",
        stderr(&output)
    );
    assert!(!target.exists());
    if std::process::Command::new("pg_dump").arg("--version").output().is_err() {
        eprintln!("skipped (pg_dump): not installed");
        return;
    }
    let output = run(&db.url, &["backup", target.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        std::fs::read(&target).unwrap().starts_with(b"PGDMP"),
        "a pg_dump archive"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_file_made_read_only_while_serving_refuses_writes_until_writable() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("petstore.db");
    let database = path.to_str().unwrap().to_string();
    let key = support::seed(&database, 5, 0, "read-only").await;
    let server = ServerProcess::start(&database, &[]);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let (status, body) = cancel(&server, &key, 1);
    assert_eq!(status, 503, "{body}");
    assert!(
        server.logged("was made read-only while the service was running"),
        "{}",
        server.logs()
    );
    assert_eq!(
        http(&format!("{}/store/orders", server.base_url), "GET", Some(&key)).0,
        200
    );
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert_eq!(
        cancel(&server, &key, 1).0,
        204,
        "writable again: writes resume by themselves"
    );
}

/// `chattr +i` on the folder: no file can be created or removed in it,
/// even by root.
struct ImmutableFolder(PathBuf);

impl ImmutableFolder {
    fn set(path: &Path) -> Option<ImmutableFolder> {
        let ok = std::process::Command::new("chattr")
            .arg("+i")
            .arg(path)
            .status()
            .is_ok_and(|s| s.success());
        ok.then(|| ImmutableFolder(path.to_path_buf()))
    }
}

impl Drop for ImmutableFolder {
    fn drop(&mut self) {
        let _ = std::process::Command::new("chattr").arg("-i").arg(&self.0).status();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_folder_made_read_only_keeps_serving_and_refuses_a_start_that_needs_a_new_wal() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("data");
    std::fs::create_dir(&folder).unwrap();
    let database = folder.join("petstore.db").to_str().unwrap().to_string();
    let key = support::seed(&database, 5, 0, "folder").await;
    let mut server = ServerProcess::start(&database, &[]);
    let Some(immutable) = ImmutableFolder::set(&folder) else {
        eprintln!("skipped (read-only folder): chattr +i is not available here");
        return;
    };
    // The files are open: nothing needs the folder until the last close.
    assert_eq!(cancel(&server, &key, 1).0, 204);
    let (status, _) = server.signal_and_wait("TERM");
    assert!(status.success(), "{}", server.logs());
    // SQLite could not remove its -wal; the next start reads it.
    let server = ServerProcess::start(&database, &[]);
    assert_eq!(cancel(&server, &key, 1).0, 404, "the cancel is there");
    drop(server);
    drop(immutable);
    assert_eq!(restart_and_read(&database, 5).await[0], OrderStatus::Cancelled);
    // Without -wal and -shm, a start in a read-only folder says why.
    let _ = std::fs::remove_file(companion(&database, "-wal"));
    let _ = std::fs::remove_file(companion(&database, "-shm"));
    let _immutable = ImmutableFolder::set(&folder).unwrap();
    let output = run(&database, &["serve", "--bind", "127.0.0.1:0"]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("writable"), "{}", stderr(&output));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_from_a_newer_version_is_refused_and_left_unchanged() {
    use sqlx::{Connection, Executor};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("petstore.db");
    let database = path.to_str().unwrap().to_string();
    support::seed(&database, 5, 0, "newer").await;
    let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{database}"))
        .await
        .unwrap();
    conn.execute(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES (99, 'from the future', TRUE, x'00', 0)",
    )
    .await
    .unwrap();
    conn.close().await.unwrap();
    let before = std::fs::read(&path).unwrap();
    for args in [&["serve", "--bind", "127.0.0.1:0"][..], &["ship", "1"]] {
        let output = run(&database, args);
        assert!(!output.status.success(), "{args:?}");
        assert!(
            stderr(&output).contains("migrated by a newer petstore-server (its schema has migration 99"),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    assert_eq!(std::fs::read(&path).unwrap(), before, "the database is unchanged");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pending_migrations_wait_until_no_other_process_has_the_file_open() {
    use sqlx::{Connection, Executor};
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    // The schema as the version before the last migration left it.
    let older = dir.path().join("older-migrations");
    std::fs::create_dir(&older).unwrap();
    let migrations = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations/sqlite");
    let mut files: Vec<_> = std::fs::read_dir(&migrations)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for file in &files[..files.len() - 1] {
        std::fs::copy(file, older.join(file.file_name().unwrap())).unwrap();
    }
    let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{database}?mode=rwc"))
        .await
        .unwrap();
    conn.execute("PRAGMA journal_mode = WAL").await.unwrap();
    sqlx::migrate::Migrator::new(older.as_path())
        .await
        .unwrap()
        .run(&mut conn)
        .await
        .unwrap();
    // This process (a server of the older version, say) has it open. A
    // server that does not refuse serves until killed: bounded, so that
    // the test fails with what the server saw instead of hanging.
    let mut refused = std::process::Command::new(support::BIN)
        .args(["serve", "--bind", "127.0.0.1:0", "--database", &database])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while refused.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            refused.kill().unwrap();
            let output = refused.wait_with_output().unwrap();
            let locks = std::fs::read_to_string("/proc/locks").unwrap_or_default();
            panic!(
                "serve started beside this process's open connection (pid {}); its stderr:\n{}\n/proc/locks:\n{locks}",
                std::process::id(),
                stderr(&output)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = refused.wait_with_output().unwrap();
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(
        message.contains("migration(s) of this version are pending"),
        "{message}"
    );
    assert!(
        message.contains(&format!("process {}", std::process::id())),
        "{message}"
    );
    conn.close().await.unwrap();
    // Alone, it migrates and serves.
    let server = ServerProcess::start(&database, &[]);
    let key = support::create_key(&database, "migrated");
    let (status, body) = http(&format!("{}/store/orders", server.base_url), "GET", Some(&key));
    assert_eq!(status, 200, "{body}\n{}", server.logs());
}
