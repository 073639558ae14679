//! Rows as stored, read from either driver: orders, keys, times and
//! statuses, and the text a time is stored as.

use chrono::{DateTime, Utc};
use sqlx::Row;
use sqlx::any::AnyRow;

use crate::storage::stored::{StoredOrder, parse_time};
use crate::storage::{ApiKeyRecord, OrderRecord, Result, StorageError};

pub(crate) fn now() -> String {
    Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
}

/// The years a stored ship date may have: four digits, so that the text
/// sorts as the instants do.
pub(super) const SHIP_DATE_YEARS: std::ops::RangeInclusive<i32> = 0..=9999;

/// A ship date as stored: RFC 3339 in UTC with all nine fraction digits,
/// so that comparing the text compares the instants (see migration 0004).
pub(super) fn stored_ship_date(date: DateTime<Utc>) -> String {
    date.to_rfc3339_opts(chrono::SecondsFormat::Nanos, true)
}

pub(crate) fn column<'r, T: sqlx::Decode<'r, sqlx::Any> + sqlx::Type<sqlx::Any>>(
    row: &'r AnyRow,
    name: &str,
) -> Result<T> {
    row.try_get(name)
        .map_err(|e| StorageError::Internal(format!("column {name}: {e}")))
}

/// PostgreSQL has booleans; SQLite stores them as 0 and 1.
fn boolean(row: &AnyRow, name: &str) -> Result<Option<bool>> {
    match row.try_get::<Option<bool>, _>(name) {
        Ok(value) => Ok(value),
        Err(_) => Ok(column::<Option<i64>>(row, name)?.map(|v| v != 0)),
    }
}

pub(super) fn order_from_row(row: &AnyRow) -> Result<OrderRecord> {
    StoredOrder {
        id: column(row, "id")?,
        pet_id: column(row, "pet_id")?,
        quantity: column(row, "quantity")?,
        ship_date: column(row, "ship_date")?,
        complete: boolean(row, "complete")?,
        status: column(row, "status")?,
    }
    .record()
}

pub(super) fn key_from_row(row: &AnyRow) -> Result<ApiKeyRecord> {
    let revoked_at: Option<String> = column(row, "revoked_at")?;
    Ok(ApiKeyRecord {
        id: column(row, "id")?,
        name: column(row, "name")?,
        key_hash: column(row, "key_hash")?,
        created_at: parse_time(&column::<String>(row, "created_at")?)?,
        revoked_at: revoked_at.as_deref().map(parse_time).transpose()?,
    })
}
