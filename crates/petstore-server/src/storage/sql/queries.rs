//! The backend-neutral queries: [`Storage`] for [`SqlStorage`], one set of
//! statements for both backends, each write through the one guard
//! (`guarded_write`) and every statement timed.

use chrono::{Datelike, Utc};
use futures_util::TryStreamExt;

use super::database::SqlStorage;
use super::import::{import_on, in_item};
use super::pages::page_conditions;
use super::rows::{SHIP_DATE_YEARS, column, key_from_row, now, order_from_row, stored_ship_date};
use crate::metrics::Statement;
use crate::storage::hook::Access;
use crate::storage::stored::Argument;
use crate::storage::timing::timed;
use crate::storage::{
    ActiveKeys, ApiKeyRecord, CancelOutcome, ImportData, KeysVersion, OrderRecord, OrdersVersion, PageQuery, PetRecord,
    Result, ShipOutcome, Storage, StorageError, Versions,
};

const ORDER_COLUMNS: &str = "id, pet_id, quantity, ship_date, complete, status";
const KEY_COLUMNS: &str = "id, name, key_hash, created_at, revoked_at";

impl Storage for SqlStorage {
    async fn for_each_order<F>(&self, mut visit: F) -> Result<()>
    where
        F: FnMut(OrderRecord) -> Result<()> + Send,
    {
        let sql = format!("SELECT {ORDER_COLUMNS} FROM orders WHERE status <> 'cancelled' ORDER BY id");
        let mut conn = self.connection().await?;
        // Timed with the visits: the rows are streamed to them.
        timed(Statement::OrdersAll, async {
            let mut rows = sqlx::query(&sql).fetch(&mut *conn);
            while let Some(row) = rows.try_next().await.map_err(|e| self.classify(e))? {
                visit(order_from_row(&row)?)?;
            }
            Ok(())
        })
        .await
    }

    async fn order_page(&self, query: PageQuery<'_>) -> Result<Vec<OrderRecord>> {
        let Some(conditions) = page_conditions(&query) else {
            return Ok(Vec::new());
        };
        let sql = format!(
            "SELECT {ORDER_COLUMNS} FROM orders WHERE status <> 'cancelled'{} ORDER BY id LIMIT ${}",
            conditions.sql,
            conditions.arguments.len() + 1
        );
        let limit = i64::from(query.limit);
        if let Some(rows) = self.hook.order_page(&sql, &conditions.arguments, limit) {
            return rows;
        }
        let mut statement = sqlx::query(&sql);
        for argument in conditions.arguments {
            statement = match argument {
                Argument::Integer(value) => statement.bind(value),
                Argument::Text(value) => statement.bind(value),
                Argument::Boolean(value) => statement.bind(value),
            };
        }
        let mut conn = self.connection().await?;
        let rows = timed(Statement::OrderPage, statement.bind(limit).fetch_all(&mut *conn))
            .await
            .map_err(|e| self.classify(e))?;
        rows.iter().map(order_from_row).collect()
    }

    async fn shared_secret(&self, name: &str, fresh: &[u8]) -> Result<Vec<u8>> {
        let read = || async {
            let mut conn = self.connection().await?;
            timed(
                Statement::SecretRead,
                sqlx::query_scalar::<_, Vec<u8>>("SELECT value FROM secrets WHERE name = $1")
                    .bind(name)
                    .fetch_optional(&mut *conn),
            )
            .await
            .map_err(|e| self.classify(e))
        };
        // Read first: once it exists, a database that cannot be written
        // (a full disk) still gives it.
        if let Some(secret) = read().await? {
            return Ok(secret);
        }
        // Of two processes making it at once, the first insert wins and
        // both read the winner's.
        self.guarded_write(async {
            let mut conn = self.connection().await?;
            timed(
                Statement::SecretInsert,
                sqlx::query("INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
                    .bind(name)
                    .bind(fresh)
                    .execute(&mut *conn),
            )
            .await
            .map_err(|e| self.classify(e))
        })
        .await?;
        read()
            .await?
            .ok_or_else(|| StorageError::Internal(format!("the secret {name:?} vanished after it was stored")))
    }

    fn versions_now(&self) -> Option<Result<Versions>> {
        self.hook.versions_now()
    }

    async fn cancelled_since(&self, version: OrdersVersion, seen: OrdersVersion) -> Option<(OrdersVersion, Vec<i64>)> {
        self.cancellations.since(version, seen).await
    }

    async fn ready(&self) -> Result<()> {
        // A SQLite file that was deleted, replaced or made read-only
        // answers reads, but refuses every cancel: not ready.
        self.hook.check(Access::Write)?;
        self.versions().await.map(|_| ())
    }

    async fn versions(&self) -> Result<Versions> {
        // Every request reads the counters: a deleted or replaced file is
        // noticed by the next request, reads included.
        self.hook.check(Access::Read)?;
        let mut conn = self.connection().await?;
        let row = timed(
            Statement::Changes,
            sqlx::query("SELECT counter, keys_counter FROM changes WHERE id = 1").fetch_one(&mut *conn),
        )
        .await
        .map_err(|e| self.classify(e))?;
        Ok(Versions {
            orders: OrdersVersion(column(&row, "counter")?),
            keys: KeysVersion(column(&row, "keys_counter")?),
        })
    }

    async fn get_order(&self, id: i64) -> Result<Option<OrderRecord>> {
        let sql = format!("SELECT {ORDER_COLUMNS} FROM orders WHERE id = $1");
        let mut conn = self.connection().await?;
        let row = timed(
            Statement::OrderGet,
            sqlx::query(&sql).bind(id).fetch_optional(&mut *conn),
        )
        .await
        .map_err(|e| self.classify(e))?;
        row.as_ref().map(order_from_row).transpose()
    }

    async fn cancel_order(&self, id: i64) -> Result<CancelOutcome> {
        self.cancels.cancel(id).await
    }

    async fn ship_order(&self, id: i64) -> Result<ShipOutcome> {
        let done = self
            .guarded_write(async {
                let mut conn = self.connection().await?;
                timed(
                    Statement::OrderShip,
                    sqlx::query(
                        "UPDATE orders SET status = 'shipped', complete = $1, ship_date = COALESCE(ship_date, $2), \
                         updated_at = $3 WHERE id = $4 AND status = 'pending'",
                    )
                    .bind(true)
                    .bind(stored_ship_date(Utc::now()))
                    .bind(now())
                    .bind(id)
                    .execute(&mut *conn),
                )
                .await
                .map_err(|e| self.classify(e))
            })
            .await?;
        if done.rows_affected() == 1 {
            return Ok(ShipOutcome::Shipped);
        }
        Ok(match self.status_of(id).await? {
            Some(status) => ShipOutcome::NotPending(status),
            None => ShipOutcome::NotFound,
        })
    }

    async fn get_pet(&self, id: i64) -> Result<Option<PetRecord>> {
        let mut conn = self.connection().await?;
        let row = timed(
            Statement::PetGet,
            sqlx::query("SELECT id, name FROM pets WHERE id = $1")
                .bind(id)
                .fetch_optional(&mut *conn),
        )
        .await
        .map_err(|e| self.classify(e))?;
        row.map(|row| {
            Ok(PetRecord {
                id: column(&row, "id")?,
                name: column(&row, "name")?,
            })
        })
        .transpose()
    }

    async fn import(&self, data: &ImportData) -> Result<()> {
        // Checked before anything is written: a date no backend can store.
        for (i, order) in data.orders.iter().enumerate() {
            if let Some(date) = order.ship_date.filter(|d| !SHIP_DATE_YEARS.contains(&d.year())) {
                return Err(in_item(
                    StorageError::Invalid(format!("shipDate {date} is outside the years 0000 to 9999")),
                    "orders",
                    i,
                    order.id,
                ));
            }
        }
        let (backend, hook) = (self.backend, &*self.hook);
        self.guarded_write(async {
            // A connection whose transaction fails here is closed by the
            // pool, never reused (see `Backend::pool_options`).
            let mut conn = self.connection().await?;
            match timed(Statement::Import, import_on(&mut conn, backend, hook, data, true)).await {
                // A refused batch does not say which of its rows broke a
                // rule: the same import, a row at a time, does. Nothing of
                // the first was committed (the rule broke before the commit).
                Err(StorageError::Invalid(_)) => {
                    drop(conn);
                    let mut conn = self.connection().await?;
                    timed(Statement::Import, import_on(&mut conn, backend, hook, data, false)).await
                }
                outcome => outcome,
            }
        })
        .await
    }

    async fn is_empty(&self) -> Result<bool> {
        let mut conn = self.connection().await?;
        let count: i64 = timed(
            Statement::IsEmpty,
            sqlx::query_scalar("SELECT (SELECT COUNT(*) FROM pets) + (SELECT COUNT(*) FROM orders)")
                .fetch_one(&mut *conn),
        )
        .await
        .map_err(|e| self.classify(e))?;
        Ok(count == 0)
    }

    async fn create_api_key(&self, name: &str, key_hash: &[u8]) -> Result<i64> {
        self.guarded_write(async {
            let mut conn = self.connection().await?;
            timed(
                Statement::KeyCreate,
                sqlx::query_scalar(
                    "INSERT INTO api_keys (name, key_hash, created_at) VALUES ($1, $2, $3) RETURNING id",
                )
                .bind(name)
                .bind(key_hash)
                .bind(now())
                .fetch_one(&mut *conn),
            )
            .await
            .map_err(|e| self.classify(e))
        })
        .await
    }

    async fn active_api_keys(&self) -> Result<ActiveKeys> {
        // At least one row, the counter's, whether or not any key exists.
        let mut conn = self.connection().await?;
        let rows = timed(
            Statement::KeysActive,
            sqlx::query(
                "SELECT c.keys_counter, k.id, k.key_hash \
                 FROM changes c LEFT JOIN api_keys k ON k.revoked_at IS NULL \
                 WHERE c.id = 1",
            )
            .fetch_all(&mut *conn),
        )
        .await
        .map_err(|e| self.classify(e))?;
        let mut active = ActiveKeys::default();
        for row in &rows {
            active.keys_version = KeysVersion(column(row, "keys_counter")?);
            if let Some(id) = column::<Option<i64>>(row, "id")? {
                active.hashes.insert(id, column(row, "key_hash")?);
            }
        }
        Ok(active)
    }

    async fn list_api_keys(&self) -> Result<Vec<ApiKeyRecord>> {
        let sql = format!("SELECT {KEY_COLUMNS} FROM api_keys ORDER BY id");
        let mut conn = self.connection().await?;
        let rows = timed(Statement::KeysList, sqlx::query(&sql).fetch_all(&mut *conn))
            .await
            .map_err(|e| self.classify(e))?;
        rows.iter().map(key_from_row).collect()
    }

    async fn revoke_api_key(&self, id: i64) -> Result<bool> {
        let done = self
            .guarded_write(async {
                let mut conn = self.connection().await?;
                timed(
                    Statement::KeyRevoke,
                    sqlx::query("UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL")
                        .bind(now())
                        .bind(id)
                        .execute(&mut *conn),
                )
                .await
                .map_err(|e| self.classify(e))
            })
            .await?;
        Ok(done.rows_affected() == 1)
    }
}
