//! Test support shared by this crate's tests and the workspace tests: a
//! fresh PostgreSQL database per test, dropped afterwards.
//!
//! The server to create it on comes from `PETSTORE_TEST_POSTGRES_URL`
//! (for example `postgres://postgres@127.0.0.1:5432/postgres`). Where it is
//! unset, PostgreSQL tests fail in CI (`CI=true`, where `.ci/run` sets it:
//! never a silent skip there), and elsewhere say that they were skipped
//! and pass.

use std::io::Write;
use std::sync::atomic::{AtomicU32, Ordering};

use sqlx::postgres::PgConnectOptions;
use sqlx::{ConnectOptions, Connection, Executor};

pub const POSTGRES_URL_VAR: &str = "PETSTORE_TEST_POSTGRES_URL";

/// A database created for one test; dropped (with its connections) when
/// this value is dropped.
pub struct PostgresTestDatabase {
    /// The URL of the new database.
    pub url: String,
    admin: PgConnectOptions,
    name: String,
}

impl PostgresTestDatabase {
    /// Creates a database, or says the test is skipped (on stderr, past
    /// the test harness's capture) and gives `None`.
    pub async fn create(test: &str) -> Option<PostgresTestDatabase> {
        let Ok(admin_url) = std::env::var(POSTGRES_URL_VAR) else {
            let in_ci = std::env::var("CI").is_ok_and(|value| value == "true" || value == "1");
            assert!(
                !in_ci,
                "{test}: {POSTGRES_URL_VAR} is not set, and CI=true runs every check"
            );
            let _ = writeln!(
                std::io::stderr(),
                "skipped (PostgreSQL): {test}: {POSTGRES_URL_VAR} is not set"
            );
            return None;
        };
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let name = format!(
            "petstore_test_{}_{}_{}",
            std::process::id(),
            chrono::Utc::now().timestamp_micros(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let admin: PgConnectOptions = admin_url
            .parse()
            .unwrap_or_else(|e| panic!("{POSTGRES_URL_VAR} is not a PostgreSQL URL: {e}"));
        let mut conn = admin
            .connect()
            .await
            .unwrap_or_else(|e| panic!("cannot reach {POSTGRES_URL_VAR}: {e}"));
        conn.execute(format!("CREATE DATABASE {name}").as_str())
            .await
            .expect("CREATE DATABASE");
        conn.close().await.ok();
        let url = admin.clone().database(&name).to_url_lossy().to_string();
        Some(PostgresTestDatabase { url, admin, name })
    }
}

impl Drop for PostgresTestDatabase {
    fn drop(&mut self) {
        // Drop runs outside any async context that could be blocked on, so
        // the database is dropped from a thread of its own.
        let (admin, name) = (self.admin.clone(), self.name.clone());
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            runtime.block_on(async {
                let mut conn = admin.connect().await?;
                conn.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str())
                    .await?;
                conn.close().await
            })?;
            Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
        })
        .join();
        if !matches!(dropped, Ok(Ok(()))) {
            let _ = writeln!(std::io::stderr(), "warning: could not drop test database {}", self.name);
        }
    }
}
