//! The databases each run measures on: seeded once per size, copied per
//! server so that every server starts from the same rows, and the first
//! orders of a list body.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use super::harness::Bench;
use crate::load::server_process::seed_database;

impl Bench {
    /// A list body of the first `count` orders of the list in `body`.
    pub(super) fn first_orders(&self, body: &Path, count: usize) -> Result<PathBuf, String> {
        let text = std::fs::read(body).map_err(|e| format!("{}: {e}", body.display()))?;
        let mut orders: Vec<serde_json::Value> =
            serde_json::from_slice(&text).map_err(|e| format!("{}: {e}", body.display()))?;
        orders.truncate(count);
        let shorter = body.with_extension(format!("first{count}.json"));
        let bytes = serde_json::to_vec(&orders).map_err(|e| e.to_string())?;
        std::fs::write(&shorter, bytes).map_err(|e| format!("{}: {e}", shorter.display()))?;
        Ok(shorter)
    }

    /// A database of `size` pending orders (and a key), made with our CLI
    /// on first use; its key becomes the one the load sends.
    pub(super) fn database(&mut self, size: i64) -> Result<PathBuf, String> {
        if let Some((db, key)) = self.databases.get(&size) {
            self.key = key.clone();
            return Ok(db.clone());
        }
        let db = self.work.join(format!("orders-{size}.db"));
        let pets: Vec<String> = (1..=10)
            .map(|id| format!(r#"{{"id":{id},"name":"pet {id}"}}"#))
            .collect();
        let orders: Vec<String> = (1..=size)
            .map(|id| {
                format!(
                    r#"{{"id":{id},"petId":{},"quantity":{},"shipDate":"2026-12-01T09:00:00Z","complete":false,"status":"pending"}}"#,
                    id % 10 + 1,
                    id % 3 + 1
                )
            })
            .collect();
        let data = self.work.join(format!("orders-{size}.json"));
        std::fs::write(
            &data,
            format!(r#"{{"pets":[{}],"orders":[{}]}}"#, pets.join(","), orders.join(",")),
        )
        .map_err(|e| e.to_string())?;
        let server = self.binaries.join("petstore-server");
        let db_arg = db.display().to_string();
        self.key = seed_database(&server, &db_arg, &data, "bench", Stdio::null())?;
        self.databases.insert(size, (db.clone(), self.key.clone()));
        Ok(db)
    }

    pub(super) fn copy(&self, db: &Path, tag: &str) -> Result<String, String> {
        let copy = self
            .work
            .join(format!("{}-{tag}.db", db.file_stem().unwrap().to_string_lossy()));
        std::fs::copy(db, &copy).map_err(|e| format!("copy {}: {e}", db.display()))?;
        // The last writes may still be in the WAL: copy it along.
        for suffix in ["-wal", "-shm"] {
            let (from, to) = (
                format!("{}{suffix}", db.display()),
                format!("{}{suffix}", copy.display()),
            );
            let _ = std::fs::remove_file(&to);
            if Path::new(&from).exists() {
                std::fs::copy(&from, &to).map_err(|e| format!("copy {from}: {e}"))?;
            }
        }
        Ok(copy.display().to_string())
    }
}
