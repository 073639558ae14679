//! What both drivers read and bind, whichever runs a query: an order's
//! columns as stored, the text of its times and statuses read back, and a
//! value bound to a placeholder. A leaf of `storage/`: `sql/` and
//! `sqlite/` both use it, it uses neither.

use chrono::{DateTime, Utc};

use crate::storage::{OrderRecord, OrderStatus, Result, StorageError};

/// A value bound to a page query's placeholder.
pub(crate) enum Argument {
    Integer(i64),
    Text(String),
    Boolean(bool),
}

/// An order's columns as stored (`ORDER_COLUMNS`), from either driver.
pub(crate) struct StoredOrder {
    pub(crate) id: i64,
    pub(crate) pet_id: Option<i64>,
    pub(crate) quantity: Option<i64>,
    pub(crate) ship_date: Option<String>,
    pub(crate) complete: Option<bool>,
    pub(crate) status: String,
}

impl StoredOrder {
    pub(crate) fn record(self) -> Result<OrderRecord> {
        Ok(OrderRecord {
            id: self.id,
            pet_id: self.pet_id,
            quantity: self.quantity,
            ship_date: self.ship_date.as_deref().map(parse_time).transpose()?,
            complete: self.complete,
            status: parse_status(&self.status)?,
        })
    }
}

pub(crate) fn parse_time(s: &str) -> Result<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(s)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| StorageError::Internal(format!("bad timestamp {s:?} in the database: {e}")))
}

pub(crate) fn parse_status(s: &str) -> Result<OrderStatus> {
    OrderStatus::parse(s).ok_or_else(|| StorageError::Internal(format!("unknown order status {s:?} in the database")))
}
