//! A full disk under SQLite: cancels answered 204 are never lost, writes get
//! 503 while reads go on, and writes work again by themselves once space is
//! freed. On a real size-limited filesystem: a tmpfs this test mounts.

use crate::support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::support::{ServerProcess, http};
use petstore_server::storage::sql::SqlStorage;
use petstore_server::storage::{OrderStatus, Storage};
use sqlx::{Connection, Executor};

const ORDERS: i64 = 400;

/// A tmpfs of `size` mounted on a new folder; unmounted when dropped.
struct SmallFilesystem {
    mount: PathBuf,
    _dir: tempfile::TempDir,
}

impl SmallFilesystem {
    /// `Err` with the reason where mounting is not permitted.
    fn mount(size: &str) -> Result<SmallFilesystem, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let mount = dir.path().join("small");
        std::fs::create_dir(&mount).map_err(|e| e.to_string())?;
        let output = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&mount)
            .output()
            .map_err(|e| format!("cannot run mount: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "mount -t tmpfs failed: {}",
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
        Ok(SmallFilesystem { mount, _dir: dir })
    }

    /// Writes a file until the filesystem is full.
    fn fill(&self) -> PathBuf {
        let path = self.mount.join("filler");
        let mut file = std::fs::File::create(&path).unwrap();
        let chunk = [0u8; 4096];
        loop {
            if let Err(e) = file.write_all(&chunk).and_then(|()| file.sync_all()) {
                assert_eq!(e.kind(), std::io::ErrorKind::StorageFull, "{e}");
                break;
            }
        }
        path
    }
}

impl Drop for SmallFilesystem {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.mount).status();
    }
}

fn cancel(server: &ServerProcess, key: &str, id: i64) -> (u16, String) {
    http(&format!("{}/store/orders/{id}", server.base_url), "DELETE", Some(key))
}

/// The statuses of `ids` as another process reads them now.
async fn statuses_seen_elsewhere(database: &Path, ids: &[i64]) -> Vec<String> {
    let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{}?mode=ro", database.display()))
        .await
        .unwrap();
    let mut statuses = Vec::new();
    for id in ids {
        let status: String = sqlx::query_scalar("SELECT status FROM orders WHERE id = $1")
            .bind(id)
            .fetch_one(&mut conn)
            .await
            .unwrap();
        statuses.push(status);
    }
    conn.close().await.unwrap();
    statuses
}

/// Whether another process can take SQLite's write lock now: no
/// connection of the server's is stuck inside a transaction.
async fn write_lock_is_free(database: &Path) -> bool {
    let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{}", database.display()))
        .await
        .unwrap();
    let taken = conn.execute("BEGIN IMMEDIATE").await.is_ok();
    if taken {
        conn.execute("ROLLBACK").await.unwrap();
    }
    conn.close().await.unwrap();
    taken
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_loses_no_acknowledged_cancel_and_writes_recover() {
    let small = match SmallFilesystem::mount("4m") {
        Ok(fs) => fs,
        Err(reason) => {
            serving_checks::tools::missing("full disk", &format!("{reason} (mount -t tmpfs, as root)"));
            return;
        }
    };
    let path = small.mount.join("petstore.db");
    let database = path.to_str().unwrap().to_string();
    let key = support::seed(&database, ORDERS, 0, "full-disk").await;
    let mut server = ServerProcess::start(&database, &["--db-wait-limit", "2"]);
    assert_eq!(cancel(&server, &key, 1).0, 204);
    let mut acknowledged = vec![1];

    let filler = small.fill();
    // Cancel one order after another until the disk refuses several in a
    // row. Some may still fit (SQLite reuses the WAL's space); those are
    // acknowledged and must stay cancelled.
    let (mut refused, mut refused_in_a_row, mut next) = (0, 0, 2);
    while refused_in_a_row < 5 && next <= ORDERS / 2 {
        let (status, body) = cancel(&server, &key, next);
        match status {
            204 => {
                acknowledged.push(next);
                refused_in_a_row = 0;
            }
            503 => {
                assert!(body.contains("service_unavailable"), "{body}");
                refused += 1;
                refused_in_a_row += 1;
            }
            other => panic!("cancel {next} on a full disk: {other} {body}"),
        }
        next += 1;
    }
    assert!(refused > 0, "the full disk refused no write: {}", server.logs());
    assert!(server.logged("full"), "the cause is logged: {}", server.logs());

    // Reads go on, and show every acknowledged cancel.
    let (status, body) = http(&format!("{}/store/orders", server.base_url), "GET", Some(&key));
    assert_eq!(status, 200, "{body}");
    let listed: Vec<serde_json::Value> = serde_json::from_str(&body).unwrap();
    let listed: Vec<i64> = listed.iter().map(|o| o["id"].as_i64().unwrap()).collect();
    for id in &acknowledged {
        assert!(!listed.contains(id), "order {id} was cancelled (204) but is listed");
    }
    // Another process sees them cancelled, and no transaction of the
    // server's holds the write lock.
    let seen = statuses_seen_elsewhere(&path, &acknowledged).await;
    assert!(seen.iter().all(|s| s == "cancelled"), "{acknowledged:?}: {seen:?}");
    assert!(
        write_lock_is_free(&path).await,
        "a failed transaction still holds the lock"
    );

    // Space comes back: writes work again, with no restart.
    std::fs::remove_file(&filler).unwrap();
    let recovered_by = Instant::now() + Duration::from_secs(10);
    loop {
        let (status, body) = cancel(&server, &key, next);
        match status {
            204 => break,
            503 if Instant::now() < recovered_by => std::thread::sleep(Duration::from_millis(200)),
            other => panic!("cancel {next} after space was freed: {other} {body}"),
        }
        next += 1;
    }
    acknowledged.push(next);
    for id in next + 1..next + 11 {
        assert_eq!(cancel(&server, &key, id).0, 204, "cancel {id} after recovery");
        acknowledged.push(id);
    }
    let seen = statuses_seen_elsewhere(&path, &acknowledged).await;
    assert!(seen.iter().all(|s| s == "cancelled"), "{acknowledged:?}: {seen:?}");

    // Across a clean stop and a restart, every acknowledged cancel is there.
    let (status, _) = server.signal_and_wait("TERM");
    assert!(status.success(), "{status:?}: {}", server.logs());
    let storage = SqlStorage::open(&database).await.unwrap();
    for id in &acknowledged {
        let order = storage.get_order(*id).await.unwrap().unwrap();
        assert_eq!(order.status, OrderStatus::Cancelled, "order {id} was acknowledged");
    }
    assert_eq!(storage.integrity_check().await.unwrap(), "ok");
    storage.close().await;
}
