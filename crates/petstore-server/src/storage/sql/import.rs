//! An import's one transaction: pets and orders in batches of rows per
//! INSERT, or one by one to name the row a constraint refused.

use sqlx::pool::PoolConnection;
use sqlx::{Any, Connection};

use super::rows::{now, stored_ship_date};
use crate::storage::backend::Backend;
use crate::storage::hook::{Access, Hook};
use crate::storage::{ImportData, ImportStatus, OrderStatus, Result, StorageError};

/// [`Storage::import`]'s transaction, on `conn`: all or nothing.
/// Loads `data` in one transaction: `ROWS_PER_INSERT` pets or orders to
/// a statement when `batched` (one round trip per batch, which on
/// PostgreSQL is most of an import's time), else one by one, so that a
/// refused row is named.
pub(super) async fn import_on(
    conn: &mut PoolConnection<Any>,
    backend: Backend,
    hook: &dyn Hook,
    data: &ImportData,
    batched: bool,
) -> Result<()> {
    let stamp = now();
    let per_statement = if batched { ROWS_PER_INSERT } else { 1 };
    let mut tx = Connection::begin(&mut **conn).await.map_err(|e| backend.classify(e))?;
    for (batch, pets) in data.pets.chunks(per_statement).enumerate() {
        let sql = format!(
            "INSERT INTO pets (id, name, created_at) VALUES {}",
            placeholders(pets.len(), 3)
        );
        let mut query = sqlx::query(&sql);
        for pet in pets {
            query = query.bind(pet.id).bind(&pet.name).bind(&stamp);
        }
        query.execute(&mut *tx).await.map_err(|e| match pets {
            [pet] => in_item(backend.classify(e), "pets", batch, pet.id),
            _ => backend.classify(e),
        })?;
    }
    for (batch, orders) in data.orders.chunks(per_statement).enumerate() {
        let sql = format!(
            "INSERT INTO orders (id, pet_id, quantity, ship_date, complete, status, created_at, updated_at) VALUES {}",
            placeholders(orders.len(), 8)
        );
        let mut query = sqlx::query(&sql);
        for order in orders {
            let status = match order.status {
                ImportStatus::Pending => OrderStatus::Pending,
                ImportStatus::Shipped => OrderStatus::Shipped,
            };
            query = query
                .bind(order.id)
                .bind(order.pet_id)
                .bind(order.quantity)
                .bind(order.ship_date.map(stored_ship_date))
                .bind(order.complete)
                .bind(status.as_str())
                .bind(&stamp)
                .bind(&stamp);
        }
        query.execute(&mut *tx).await.map_err(|e| match orders {
            [order] => in_item(backend.classify(e), "orders", batch, order.id),
            _ => backend.classify(e),
        })?;
    }
    // Returning early drops `tx` uncommitted: everything rolls back.
    hook.check(Access::Write)?;
    tx.commit().await.map_err(|e| backend.classify(e))?;
    Ok(())
}

/// Rows per INSERT in an import: at most 8 parameters each, far under
/// SQLite's 32,766 and PostgreSQL's 65,535 parameters a statement.
const ROWS_PER_INSERT: usize = 500;

/// `rows` tuples of `columns` numbered parameters, for a multi-row
/// `INSERT … VALUES`: `($1, $2), ($3, $4)`.
fn placeholders(rows: usize, columns: usize) -> String {
    let tuples: Vec<String> = (0..rows)
        .map(|row| {
            let numbers: Vec<String> = (1..=columns).map(|c| format!("${}", row * columns + c)).collect();
            format!("({})", numbers.join(", "))
        })
        .collect();
    tuples.join(", ")
}

/// Names the import item a constraint failure came from.
pub(super) fn in_item(error: StorageError, list: &str, index: usize, id: i64) -> StorageError {
    match error {
        StorageError::Invalid(m) => StorageError::Invalid(format!("{list}[{index}] (id {id}): {m}")),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_number_every_column_of_every_row() {
        assert_eq!(placeholders(1, 3), "($1, $2, $3)");
        assert_eq!(placeholders(2, 2), "($1, $2), ($3, $4)");
    }
}
