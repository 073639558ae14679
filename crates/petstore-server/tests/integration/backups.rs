//! Backups: one restored while serving is not corrupted by SIGTERM or kill
//! -9, one taken while cancels go on is consistent and blocks no writer, one
//! never overwrites the database, and PostgreSQL's runs pg_dump.

use crate::support;
use crate::support::{ServerProcess, http, run, stderr, stdout};
use petstore_server::storage::OrderStatus;
use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

use super::database_file::{CancelLoad, companion, restart_and_read, wait_for};

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
        serving_checks::tools::missing("pg_dump", "not installed (apt-get install postgresql-client)");
        return;
    }
    let output = run(&db.url, &["backup", target.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        std::fs::read(&target).unwrap().starts_with(b"PGDMP"),
        "a pg_dump archive"
    );
}
