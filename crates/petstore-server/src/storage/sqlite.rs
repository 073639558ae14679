//! SQLite storage: one file, created and migrated on open.
//!
//! Durability: WAL journal with `synchronous = FULL`, so a change is on disk
//! (fsync'd) when its transaction commits, before the service answers; a
//! 204 for a cancel survives a crash or power loss.

use std::borrow::Cow;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use chrono::{DateTime, Utc};
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlitePool};

use super::{
    ApiKeyRecord, CancelOutcome, ImportData, ImportStatus, OrderRecord, OrderStatus, PetRecord, Result, ShipOutcome,
    Storage, StorageError,
};

/// The schema's migrations, compiled in so the binary needs no files.
#[derive(Debug)]
struct EmbeddedMigrations;

impl MigrationSource<'static> for EmbeddedMigrations {
    fn resolve(
        self,
    ) -> std::pin::Pin<
        Box<dyn Future<Output = std::result::Result<Vec<Migration>, sqlx::error::BoxDynError>> + Send + 'static>,
    > {
        Box::pin(async {
            Ok(vec![Migration::new(
                1,
                Cow::Borrowed("initial"),
                MigrationType::Simple,
                Cow::Borrowed(include_str!("../../migrations/0001_initial.sql")),
                false,
            )])
        })
    }
}

#[derive(Clone)]
pub struct SqliteStorage {
    pool: SqlitePool,
}

impl SqliteStorage {
    /// Opens (creating if needed) and migrates the database at `path`.
    pub async fn open(path: &Path) -> Result<Self> {
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            // Writers queue for the lock instead of failing at once.
            .busy_timeout(Duration::from_secs(5));
        Self::open_with(options, &path.display().to_string()).await
    }

    /// Opens a `sqlite:` URL (`sqlite:///tmp/x.db`, `sqlite::memory:` is
    /// refused: each connection would see its own database).
    pub async fn open_url(url: &str) -> Result<Self> {
        let options = SqliteConnectOptions::from_str(url)
            .map_err(|e| StorageError::Invalid(format!("invalid SQLite URL: {e}")))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5));
        Self::open_with(options, url).await
    }

    async fn open_with(options: SqliteConnectOptions, name: &str) -> Result<Self> {
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await
            .map_err(|e| StorageError::Unavailable(format!("cannot open {name}: {e}")))?;
        let migrator = Migrator::new(EmbeddedMigrations)
            .await
            .map_err(|e| StorageError::Internal(format!("migrations: {e}")))?;
        migrator
            .run(&pool)
            .await
            .map_err(|e| StorageError::Internal(format!("cannot migrate {name}: {e}")))?;
        Ok(SqliteStorage { pool })
    }

    /// Closes every connection, checkpointing the WAL.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Runs `PRAGMA integrity_check`: "ok" when the file is sound.
    pub async fn integrity_check(&self) -> Result<String> {
        sqlx::query_scalar("PRAGMA integrity_check")
            .fetch_one(&self.pool)
            .await
            .map_err(classify)
    }
}

fn now() -> String {
    Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
}

fn parse_time(s: &str) -> Result<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(s)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| StorageError::Internal(format!("bad timestamp {s:?} in the database: {e}")))
}

/// Sorts a database error into what the client should be told.
fn classify(error: sqlx::Error) -> StorageError {
    match &error {
        sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_) => {
            StorageError::Unavailable(error.to_string())
        }
        sqlx::Error::Database(db) => match db.code().as_deref() {
            // SQLITE_BUSY, SQLITE_LOCKED, SQLITE_READONLY, SQLITE_IOERR,
            // SQLITE_FULL, SQLITE_CANTOPEN (primary result codes).
            Some(code) if matches!(primary_code(code), 5 | 6 | 8 | 10 | 13 | 14) => {
                StorageError::Unavailable(error.to_string())
            }
            _ if db.is_unique_violation() || db.is_foreign_key_violation() || db.is_check_violation() => {
                StorageError::Invalid(db.message().to_string())
            }
            _ => StorageError::Internal(error.to_string()),
        },
        _ => StorageError::Internal(error.to_string()),
    }
}

/// SQLite's extended result codes keep the primary code in the low byte.
fn primary_code(code: &str) -> i64 {
    code.parse::<i64>().map(|c| c & 0xff).unwrap_or(-1)
}

fn order_from_row(row: &sqlx::sqlite::SqliteRow) -> Result<OrderRecord> {
    let status: String = row.get("status");
    let ship_date: Option<String> = row.get("ship_date");
    Ok(OrderRecord {
        id: row.get("id"),
        pet_id: row.get("pet_id"),
        quantity: row.get("quantity"),
        ship_date: ship_date.as_deref().map(parse_time).transpose()?,
        complete: row.get("complete"),
        status: OrderStatus::parse(&status)
            .ok_or_else(|| StorageError::Internal(format!("unknown order status {status:?} in the database")))?,
    })
}

fn key_from_row(row: &sqlx::sqlite::SqliteRow) -> Result<ApiKeyRecord> {
    let revoked_at: Option<String> = row.get("revoked_at");
    Ok(ApiKeyRecord {
        id: row.get("id"),
        name: row.get("name"),
        key_hash: row.get("key_hash"),
        created_at: parse_time(row.get("created_at"))?,
        revoked_at: revoked_at.as_deref().map(parse_time).transpose()?,
    })
}

impl Storage for SqliteStorage {
    async fn list_orders(&self) -> Result<Vec<OrderRecord>> {
        let rows = sqlx::query(
            "SELECT id, pet_id, quantity, ship_date, complete, status FROM orders \
             WHERE status <> 'cancelled' ORDER BY id",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(classify)?;
        rows.iter().map(order_from_row).collect()
    }

    async fn get_order(&self, id: i64) -> Result<Option<OrderRecord>> {
        let row = sqlx::query("SELECT id, pet_id, quantity, ship_date, complete, status FROM orders WHERE id = ?")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(classify)?;
        row.as_ref().map(order_from_row).transpose()
    }

    async fn cancel_order(&self, id: i64) -> Result<CancelOutcome> {
        // The condition is part of the write: two concurrent cancels cannot
        // both see "pending".
        let done =
            sqlx::query("UPDATE orders SET status = 'cancelled', updated_at = ? WHERE id = ? AND status = 'pending'")
                .bind(now())
                .bind(id)
                .execute(&self.pool)
                .await
                .map_err(classify)?;
        if done.rows_affected() == 1 {
            return Ok(CancelOutcome::Cancelled);
        }
        let status: Option<String> = sqlx::query_scalar("SELECT status FROM orders WHERE id = ?")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(classify)?;
        Ok(match status.as_deref() {
            Some("shipped") => CancelOutcome::Shipped,
            // Cancelled (by this call's rival, or before) or never there.
            _ => CancelOutcome::NotFound,
        })
    }

    async fn ship_order(&self, id: i64) -> Result<ShipOutcome> {
        let stamp = now();
        let done = sqlx::query(
            "UPDATE orders SET status = 'shipped', complete = 1, ship_date = COALESCE(ship_date, ?), updated_at = ? \
             WHERE id = ? AND status = 'pending'",
        )
        .bind(&stamp)
        .bind(&stamp)
        .bind(id)
        .execute(&self.pool)
        .await
        .map_err(classify)?;
        if done.rows_affected() == 1 {
            return Ok(ShipOutcome::Shipped);
        }
        let status: Option<String> = sqlx::query_scalar("SELECT status FROM orders WHERE id = ?")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(classify)?;
        Ok(match status.as_deref().and_then(OrderStatus::parse) {
            Some(status) => ShipOutcome::NotPending(status),
            None => ShipOutcome::NotFound,
        })
    }

    async fn get_pet(&self, id: i64) -> Result<Option<PetRecord>> {
        let row = sqlx::query("SELECT id, name FROM pets WHERE id = ?")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(classify)?;
        Ok(row.map(|row| PetRecord {
            id: row.get("id"),
            name: row.get("name"),
        }))
    }

    async fn import(&self, data: &ImportData) -> Result<()> {
        let stamp = now();
        let mut tx = self.pool.begin().await.map_err(classify)?;
        for (i, pet) in data.pets.iter().enumerate() {
            sqlx::query("INSERT INTO pets (id, name, created_at) VALUES (?, ?, ?)")
                .bind(pet.id)
                .bind(&pet.name)
                .bind(&stamp)
                .execute(&mut *tx)
                .await
                .map_err(|e| in_item(classify(e), "pets", i, pet.id))?;
        }
        for (i, order) in data.orders.iter().enumerate() {
            let status = match order.status {
                ImportStatus::Pending => OrderStatus::Pending,
                ImportStatus::Shipped => OrderStatus::Shipped,
            };
            sqlx::query(
                "INSERT INTO orders (id, pet_id, quantity, ship_date, complete, status, created_at, updated_at) \
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(order.id)
            .bind(order.pet_id)
            .bind(order.quantity)
            .bind(
                order
                    .ship_date
                    .map(|d| d.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)),
            )
            .bind(order.complete)
            .bind(status.as_str())
            .bind(&stamp)
            .bind(&stamp)
            .execute(&mut *tx)
            .await
            .map_err(|e| in_item(classify(e), "orders", i, order.id))?;
        }
        // Dropping `tx` without commit rolls everything back.
        tx.commit().await.map_err(classify)
    }

    async fn is_empty(&self) -> Result<bool> {
        let count: i64 = sqlx::query_scalar("SELECT (SELECT COUNT(*) FROM pets) + (SELECT COUNT(*) FROM orders)")
            .fetch_one(&self.pool)
            .await
            .map_err(classify)?;
        Ok(count == 0)
    }

    async fn create_api_key(&self, name: &str, key_hash: &[u8]) -> Result<i64> {
        sqlx::query_scalar("INSERT INTO api_keys (name, key_hash, created_at) VALUES (?, ?, ?) RETURNING id")
            .bind(name)
            .bind(key_hash)
            .bind(now())
            .fetch_one(&self.pool)
            .await
            .map_err(classify)
    }

    async fn active_api_key(&self, id: i64) -> Result<Option<ApiKeyRecord>> {
        let row = sqlx::query(
            "SELECT id, name, key_hash, created_at, revoked_at FROM api_keys WHERE id = ? AND revoked_at IS NULL",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .map_err(classify)?;
        row.as_ref().map(key_from_row).transpose()
    }

    async fn list_api_keys(&self) -> Result<Vec<ApiKeyRecord>> {
        let rows = sqlx::query("SELECT id, name, key_hash, created_at, revoked_at FROM api_keys ORDER BY id")
            .fetch_all(&self.pool)
            .await
            .map_err(classify)?;
        rows.iter().map(key_from_row).collect()
    }

    async fn revoke_api_key(&self, id: i64) -> Result<bool> {
        let done = sqlx::query("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")
            .bind(now())
            .bind(id)
            .execute(&self.pool)
            .await
            .map_err(classify)?;
        Ok(done.rows_affected() == 1)
    }
}

/// Names the import item a constraint failure came from.
fn in_item(error: StorageError, list: &str, index: usize, id: i64) -> StorageError {
    match error {
        StorageError::Invalid(m) => StorageError::Invalid(format!("{list}[{index}] (id {id}): {m}")),
        other => other,
    }
}
