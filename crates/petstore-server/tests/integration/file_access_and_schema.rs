//! A database file or folder made read-only while serving, and schema
//! versions: one newer than the binary's refused, pending migrations run only
//! when no other process has the file open.

use crate::support;
use crate::support::{ServerProcess, http, run, stderr};
use petstore_server::storage::OrderStatus;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::database_file::{cancel, companion, restart_and_read};

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
        serving_checks::tools::missing(
            "read-only folder",
            "chattr +i is not available here (e2fsprogs, as root)",
        );
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
