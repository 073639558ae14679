//! Persistence behind one small interface, [`Storage`], so that the service
//! logic does not know which database it runs on. [`sql::SqlStorage`]
//! implements it for SQLite (embedded, the default) and PostgreSQL (for
//! several instances), with one set of queries; [`backend`] holds what
//! differs between the two.

pub mod backend;
pub mod backup;
mod cancel_queue;
mod cancellations;
mod hook;
mod migrations;
pub mod sql;
mod sqlite;
mod stored;
mod timing;

use std::collections::HashMap;
use std::future::Future;

use chrono::{DateTime, Utc};
use serde::Deserialize;

/// An order as stored. `status` is internal: the API's Order has none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderRecord {
    pub id: i64,
    pub pet_id: Option<i64>,
    pub quantity: Option<i64>,
    pub ship_date: Option<DateTime<Utc>>,
    pub complete: Option<bool>,
    pub status: OrderStatus,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OrderStatus {
    Pending,
    Shipped,
    Cancelled,
}

impl OrderStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            OrderStatus::Pending => "pending",
            OrderStatus::Shipped => "shipped",
            OrderStatus::Cancelled => "cancelled",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "pending" => Some(OrderStatus::Pending),
            "shipped" => Some(OrderStatus::Shipped),
            "cancelled" => Some(OrderStatus::Cancelled),
            _ => None,
        }
    }
}

/// Which orders a v2 page holds. Absent filters match every order; an
/// order without a recorded value (no ship date, no `complete` flag) matches
/// no filter on it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OrderFilters {
    /// Pending or shipped (a cancelled order is never listed).
    pub status: Option<OrderStatus>,
    pub pet_id: Option<i64>,
    /// Inclusive.
    pub ship_date_from: Option<DateTime<Utc>>,
    /// Exclusive.
    pub ship_date_to: Option<DateTime<Utc>>,
    pub complete: Option<bool>,
}

/// One page: the orders matching `filters` whose ids are above `after`, by
/// ascending id, at most `limit` of them.
#[derive(Debug, Clone, Copy)]
pub struct PageQuery<'a> {
    pub filters: &'a OrderFilters,
    pub after: Option<i64>,
    pub limit: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PetRecord {
    pub id: i64,
    pub name: String,
}

/// What an attempt to cancel found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CancelOutcome {
    /// It was pending and is now cancelled.
    Cancelled,
    /// It does not exist, or was cancelled already.
    NotFound,
    /// It has shipped: a shipped order cannot be reversed.
    Shipped,
}

/// What an attempt to ship found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShipOutcome {
    Shipped,
    NotFound,
    /// Shipped or cancelled already.
    NotPending(OrderStatus),
}

/// A value of the orders' change counter: every committed change to
/// orders (by any process) makes it larger, in the same transaction. Equal
/// versions mean the same orders, so a cache can be checked with one small
/// read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct OrdersVersion(pub i64);

/// The same for API keys: created, revoked or deleted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct KeysVersion(pub i64);

/// Both counters, read in one statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Versions {
    pub orders: OrdersVersion,
    pub keys: KeysVersion,
}

/// Every active (not revoked) API key's hash, by key id, with the keys'
/// version read in the same statement, so that a cache knows which version
/// the set holds for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ActiveKeys {
    pub hashes: HashMap<i64, Vec<u8>>,
    pub keys_version: KeysVersion,
}

/// An API key's stored form: never the key itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKeyRecord {
    pub id: i64,
    pub name: String,
    pub key_hash: Vec<u8>,
    pub created_at: DateTime<Utc>,
    pub revoked_at: Option<DateTime<Utc>>,
}

/// The import file: `{"pets": [...], "orders": [...]}`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportData {
    #[serde(default)]
    pub pets: Vec<ImportPet>,
    #[serde(default)]
    pub orders: Vec<ImportOrder>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportPet {
    pub id: i64,
    pub name: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ImportOrder {
    pub id: i64,
    pub pet_id: Option<i64>,
    pub quantity: Option<i64>,
    pub ship_date: Option<DateTime<Utc>>,
    pub complete: Option<bool>,
    pub status: ImportStatus,
}

/// An imported order is pending or shipped; importing cancelled orders
/// would make history up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ImportStatus {
    Pending,
    Shipped,
}

/// A storage failure, split by what the caller should tell its client.
#[derive(Debug, Clone)]
pub enum StorageError {
    /// The database cannot be reached or written right now; retrying later
    /// may work (503).
    Unavailable(String),
    /// The input breaks a rule of the data (a duplicate id, an order for an
    /// unknown pet): the caller's fault.
    Invalid(String),
    /// Anything else (500).
    Internal(String),
    /// The SQLite file to open does not exist, and was not to be created.
    Missing(String),
}

impl std::fmt::Display for StorageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StorageError::Unavailable(m) => write!(f, "storage unavailable: {m}"),
            StorageError::Invalid(m) => write!(f, "{m}"),
            StorageError::Internal(m) => write!(f, "storage error: {m}"),
            StorageError::Missing(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for StorageError {}

pub type Result<T> = std::result::Result<T, StorageError>;

/// Everything the service and the CLI need from a database. Each method is
/// one transaction.
pub trait Storage: Clone + Send + Sync + 'static {
    /// Orders that are not cancelled, by ascending id, handed to `visit`
    /// one at a time as they are read, so that a long list is never held in
    /// memory.
    fn for_each_order<F>(&self, visit: F) -> impl Future<Output = Result<()>> + Send
    where
        F: FnMut(OrderRecord) -> Result<()> + Send;
    /// The same orders, collected.
    fn list_orders(&self) -> impl Future<Output = Result<Vec<OrderRecord>>> + Send {
        async {
            let mut orders = Vec::new();
            self.for_each_order(|order| {
                orders.push(order);
                Ok(())
            })
            .await?;
            Ok(orders)
        }
    }
    /// One page of the orders that are not cancelled (keyset pagination on
    /// the id: the cost of a page does not grow with how far it is).
    fn order_page(&self, query: PageQuery<'_>) -> impl Future<Output = Result<Vec<OrderRecord>>> + Send;
    /// The secret named `name`, shared by every process on this database:
    /// `fresh` becomes it when there is none yet.
    fn shared_secret(&self, name: &str, fresh: &[u8]) -> impl Future<Output = Result<Vec<u8>>> + Send;
    /// The current versions of orders and keys, if they can be read
    /// without waiting (on the caller's thread); `None` sends the caller to
    /// [`Storage::versions`].
    fn versions_now(&self) -> Option<Result<Versions>> {
        None
    }
    /// The orders this process cancelled since the orders were at
    /// `version`, and the version those cancels left them at, if that is
    /// `seen` or later: `Some` only when nothing else changed the orders in
    /// between, so that the orders at `version` without these are the
    /// orders at the version returned. May wait for a cancel being
    /// committed.
    fn cancelled_since(
        &self,
        version: OrdersVersion,
        seen: OrdersVersion,
    ) -> impl Future<Output = Option<(OrdersVersion, Vec<i64>)>> + Send {
        let _ = (version, seen);
        std::future::ready(None)
    }
    /// The current versions of orders and keys.
    fn versions(&self) -> impl Future<Output = Result<Versions>> + Send;

    /// Whether the service can do its work now: the database answers (and,
    /// where the storage can tell, accepts writes). What `/readyz` asks.
    fn ready(&self) -> impl Future<Output = Result<()>> + Send {
        async { self.versions().await.map(|_| ()) }
    }
    /// One order by id, whatever its status.
    fn get_order(&self, id: i64) -> impl Future<Output = Result<Option<OrderRecord>>> + Send;
    /// Cancels a pending order in one conditional change, so that of two
    /// concurrent cancels exactly one succeeds; returns once the change is
    /// durable (concurrent cancels may share a transaction).
    fn cancel_order(&self, id: i64) -> impl Future<Output = Result<CancelOutcome>> + Send;
    /// Moves a pending order to shipped.
    fn ship_order(&self, id: i64) -> impl Future<Output = Result<ShipOutcome>> + Send;
    fn get_pet(&self, id: i64) -> impl Future<Output = Result<Option<PetRecord>>> + Send;
    /// Loads pets and orders all or nothing.
    fn import(&self, data: &ImportData) -> impl Future<Output = Result<()>> + Send;
    /// Whether there is any pet or order yet.
    fn is_empty(&self) -> impl Future<Output = Result<bool>> + Send;

    /// Stores a new key's hash and gives its id.
    fn create_api_key(&self, name: &str, key_hash: &[u8]) -> impl Future<Output = Result<i64>> + Send;
    /// Every active key's hash, and the keys' version, in one statement.
    fn active_api_keys(&self) -> impl Future<Output = Result<ActiveKeys>> + Send;
    fn list_api_keys(&self) -> impl Future<Output = Result<Vec<ApiKeyRecord>>> + Send;
    /// Revokes a key; `false` when there is no such active key.
    fn revoke_api_key(&self, id: i64) -> impl Future<Output = Result<bool>> + Send;
}
