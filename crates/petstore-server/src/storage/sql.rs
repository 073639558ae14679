//! [`Storage`] over SQL, for both backends with one set of queries (sqlx's
//! `Any` driver; `$n` placeholders, which SQLite also reads).

use std::sync::Arc;

use chrono::{DateTime, Datelike, Utc};
use futures_util::TryStreamExt;
use sqlx::any::AnyRow;
use sqlx::migrate::Migrator;
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyPool, Connection};
use sqlx::{ConnectOptions, Row};

use crate::metrics::Statement;

use super::backend::{Backend, SQLITE_CONNECTIONS, WaitLimits};
use super::cancel_queue::CancelQueue;
use super::cancellations::Cancellations;
use super::file_set::{Access, FileSet};
use super::migrations;
use super::thread_reads::ThreadReads;
use super::timing::{acquire, timed};
use super::{
    ActiveKeys, ApiKeyRecord, CancelOutcome, ImportData, ImportStatus, KeysVersion, OrderFilters, OrderRecord,
    OrderStatus, OrdersVersion, PageQuery, PetRecord, Result, ShipOutcome, Storage, StorageError, Versions,
};

const ORDER_COLUMNS: &str = "id, pet_id, quantity, ship_date, complete, status";
const KEY_COLUMNS: &str = "id, name, key_hash, created_at, revoked_at";
/// SQLite connections kept for reads on the request's thread (the change
/// counters, v2's pages): one per runtime worker thread is enough for none
/// to wait for another.
const THREAD_READERS: usize = 4;

/// The service's database: a pool of connections to SQLite or PostgreSQL.
#[derive(Clone)]
pub struct SqlStorage {
    pool: AnyPool,
    backend: Backend,
    /// Cancels go through one task that commits them in batches.
    cancels: CancelQueue,
    /// What the cancel queue committed, for patching the list cache.
    cancellations: Arc<Cancellations>,
    /// SQLite: the database file and its companions, checked before and
    /// after writes, at counter reads, and by a watcher of their own.
    files: Option<Arc<FileSet>>,
    /// SQLite: the change counters and v2's pages, read on the caller's thread.
    thread_reads: Option<Arc<ThreadReads>>,
}

/// How to open a database.
#[derive(Clone)]
pub struct OpenOptions {
    /// Bounds on every wait for the database.
    pub limits: WaitLimits,
    /// Whether a missing SQLite file is created (and migrated). When not,
    /// opening a missing file fails with [`StorageError::Missing`].
    pub create: bool,
    /// Where the storage reports what it notices by itself (a SQLite file
    /// or its WAL deleted or replaced while open).
    pub log: slog::Logger,
}

impl Default for OpenOptions {
    fn default() -> Self {
        OpenOptions {
            limits: WaitLimits::default(),
            create: true,
            log: slog::Logger::root(slog::Discard, slog::o!()),
        }
    }
}

impl SqlStorage {
    /// Opens and migrates `database`: a SQLite file path (created if
    /// missing), a `sqlite:` URL, or a `postgres://` URL.
    pub async fn open(database: &str) -> Result<Self> {
        Self::open_with(database, &OpenOptions::default()).await
    }

    /// Opens and migrates `database` as `options` say.
    pub async fn open_with(database: &str, options: &OpenOptions) -> Result<Self> {
        sqlx::any::install_default_drivers();
        let backend = Backend::of(database);
        let connect = backend.connect_options(database)?;
        // The file set's anchor is SQLite's first connection, so that it
        // is open before, and closed after, every other.
        let files = match backend {
            Backend::Sqlite => Some(open_sqlite_file(database, options).await?),
            Backend::Postgres => None,
        };
        let pool = backend
            .pool_options(&options.limits, files.clone())
            .connect_with(connect)
            .await
            .map_err(|e| StorageError::Unavailable(format!("cannot open the {} database: {e}", backend.name())))?;
        let migrator = Migrator::new(backend.migrations())
            .await
            .map_err(|e| StorageError::Internal(format!("migrations: {e}")))?;
        if let Some(files) = &files {
            migrations::check_sqlite(&pool, &migrator, files.path()).await?;
            open_every_connection(&pool).await?;
        }
        migrator.run(&pool).await.map_err(migrations::explain)?;
        let cancellations = Arc::new(Cancellations::default());
        let cancels = CancelQueue::start(pool.clone(), backend, files.clone(), cancellations.clone());
        let thread_reads = match &files {
            Some(files) => Some(Arc::new(ThreadReads::open(files.path(), THREAD_READERS)?)),
            None => None,
        };
        Ok(SqlStorage {
            pool,
            backend,
            cancels,
            cancellations,
            files,
            thread_reads,
        })
    }

    /// The connection pool, for its size and use (`crate::metrics`).
    pub fn pool_handle(&self) -> AnyPool {
        self.pool.clone()
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Closes every connection. For SQLite, the file set's anchor closes
    /// last: if no other process has the database open, SQLite then
    /// checkpoints the WAL into the database file and removes `-wal` and
    /// `-shm`; if the files are no longer the ones opened, nothing at their
    /// paths is touched (see [`FileSet::close`]).
    pub async fn close(&self) {
        if let Some(reads) = &self.thread_reads {
            reads.close();
        }
        self.pool.close().await;
        if let Some(files) = self.files.clone() {
            // It waits for the watcher's thread, which may be checkpointing.
            let _ = tokio::task::spawn_blocking(move || files.close()).await;
        }
    }

    /// SQLite's `PRAGMA integrity_check`: "ok" when the file is sound.
    pub async fn integrity_check(&self) -> Result<String> {
        match self.backend {
            Backend::Sqlite => {
                let mut conn = self.connection().await?;
                timed(
                    Statement::IntegrityCheck,
                    sqlx::query_scalar("PRAGMA integrity_check").fetch_one(&mut *conn),
                )
                .await
                .map_err(|e| self.classify(e))
            }
            Backend::Postgres => Ok("ok".into()),
        }
    }

    fn classify(&self, error: sqlx::Error) -> StorageError {
        self.backend.classify(error)
    }

    /// A connection of the pool (its wait timed), for one statement or a
    /// transaction; back to the pool when dropped.
    async fn connection(&self) -> Result<PoolConnection<Any>> {
        acquire(&self.pool).await.map_err(|e| self.classify(e))
    }

    /// Fails unless the SQLite files at their paths allow `access` (see
    /// [`FileSet`]); always passes on PostgreSQL.
    fn check_files(&self, access: Access) -> Result<()> {
        self.files.as_ref().map_or(Ok(()), |files| files.check(access))
    }

    /// [`Storage::import`]'s transaction, on `conn`: all or nothing.
    /// Loads `data` in one transaction: `ROWS_PER_INSERT` pets or orders to
    /// a statement when `batched` (one round trip per batch, which on
    /// PostgreSQL is most of an import's time), else one by one, so that a
    /// refused row is named.
    async fn import_on(&self, conn: &mut PoolConnection<Any>, data: &ImportData, batched: bool) -> Result<()> {
        let stamp = now();
        let per_statement = if batched { ROWS_PER_INSERT } else { 1 };
        let mut tx = Connection::begin(&mut **conn).await.map_err(|e| self.classify(e))?;
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
                [pet] => in_item(self.classify(e), "pets", batch, pet.id),
                _ => self.classify(e),
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
                [order] => in_item(self.classify(e), "orders", batch, order.id),
                _ => self.classify(e),
            })?;
        }
        // Returning early drops `tx` uncommitted: everything rolls back.
        self.check_files(Access::Write)?;
        tx.commit().await.map_err(|e| self.classify(e))?;
        Ok(())
    }

    /// SQLite: a page read on the request's thread ([`ThreadReads`]);
    /// `None` on PostgreSQL, or when that read cannot start at once.
    fn page_on_this_thread(&self, sql: &str, arguments: &[Argument], limit: i64) -> Option<Result<Vec<OrderRecord>>> {
        let reads = self.thread_reads.as_ref()?;
        let values = arguments
            .iter()
            .map(Argument::sqlite_value)
            .chain([rusqlite::types::Value::Integer(limit)]);
        let metrics = crate::metrics::database();
        let started = metrics.start();
        let rows = reads.try_rows("the orders", sql, rusqlite::params_from_iter(values), |row| {
            Ok(StoredOrder {
                id: row.get(0)?,
                pet_id: row.get(1)?,
                quantity: row.get(2)?,
                ship_date: row.get(3)?,
                complete: row.get::<_, Option<i64>>(4)?.map(|c| c != 0),
                status: row.get(5)?,
            })
        })?;
        metrics.ran(Statement::OrderPage, started);
        Some(rows.and_then(|rows| rows.into_iter().map(StoredOrder::record).collect()))
    }

    /// The status of an order, after a conditional update changed nothing.
    async fn status_of(&self, id: i64) -> Result<Option<OrderStatus>> {
        let mut conn = self.connection().await?;
        let status: Option<String> = timed(
            Statement::OrderStatus,
            sqlx::query_scalar("SELECT status FROM orders WHERE id = $1")
                .bind(id)
                .fetch_optional(&mut *conn),
        )
        .await
        .map_err(|e| self.classify(e))?;
        status.as_deref().map(parse_status).transpose()
    }
}

/// Makes sure the SQLite file exists (creating it if `options.create`),
/// and opens its file set. Only this first connection may create the file:
/// the pool's never do, so a file deleted later is not silently recreated
/// empty.
async fn open_sqlite_file(database: &str, options: &OpenOptions) -> Result<Arc<FileSet>> {
    let create = options.create;
    let (log, wait) = (options.log.clone(), options.limits.wait);
    let options = Backend::sqlite_options(database)?;
    let path = options.get_filename().to_path_buf();
    if !path.exists() {
        if !create {
            return Err(StorageError::Missing(format!(
                "the SQLite database {} does not exist",
                path.display()
            )));
        }
        let creator = options
            .create_if_missing(true)
            .connect()
            .await
            .map_err(|e| StorageError::Unavailable(format!("cannot create {}: {e}", path.display())))?;
        let _ = creator.close().await;
    }
    tokio::task::spawn_blocking(move || FileSet::open(&path, wait, log))
        .await
        .map_err(|e| StorageError::Internal(format!("cannot open the database files: {e}")))?
}

/// Opens the SQLite pool's connections now rather than on demand (see
/// `Backend::pool_options`): each one acquired while the others are held
/// is a new one.
async fn open_every_connection(pool: &AnyPool) -> Result<()> {
    let mut held = Vec::new();
    while pool.size() < SQLITE_CONNECTIONS {
        held.push(
            pool.acquire()
                .await
                .map_err(|e| StorageError::Unavailable(format!("cannot open the database's connections: {e}")))?,
        );
    }
    Ok(())
}

pub(super) fn now() -> String {
    Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
}

/// The years a stored ship date may have: four digits, so that the text
/// sorts as the instants do.
const SHIP_DATE_YEARS: std::ops::RangeInclusive<i32> = 0..=9999;

/// A ship date as stored: RFC 3339 in UTC with all nine fraction digits,
/// so that comparing the text compares the instants (see migration 0004).
fn stored_ship_date(date: DateTime<Utc>) -> String {
    date.to_rfc3339_opts(chrono::SecondsFormat::Nanos, true)
}

/// A value bound to a page query's placeholder.
enum Argument {
    Integer(i64),
    Text(String),
    Boolean(bool),
}

impl Argument {
    fn sqlite_value(&self) -> rusqlite::types::Value {
        use rusqlite::types::Value;
        match self {
            Argument::Integer(value) => Value::Integer(*value),
            Argument::Text(value) => Value::Text(value.clone()),
            // As SQLite stores them, and as sqlx binds them.
            Argument::Boolean(value) => Value::Integer(i64::from(*value)),
        }
    }
}

/// An order's columns as stored (`ORDER_COLUMNS`), from either driver.
struct StoredOrder {
    id: i64,
    pet_id: Option<i64>,
    quantity: Option<i64>,
    ship_date: Option<String>,
    complete: Option<bool>,
    status: String,
}

impl StoredOrder {
    fn record(self) -> Result<OrderRecord> {
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

/// A page query's conditions after `status <> 'cancelled'`, and the
/// arguments of their placeholders.
#[derive(Default)]
struct Conditions {
    sql: String,
    arguments: Vec<Argument>,
}

impl Conditions {
    fn compare(&mut self, column: &str, operator: &str, argument: Argument) {
        self.arguments.push(argument);
        self.sql
            .push_str(&format!(" AND {column} {operator} ${}", self.arguments.len()));
    }
}

/// The conditions of a page; `None` when no stored order can match.
fn page_conditions(query: &PageQuery<'_>) -> Option<Conditions> {
    let OrderFilters {
        status,
        pet_id,
        ship_date_from,
        ship_date_to,
        complete,
    } = query.filters;
    let mut conditions = Conditions::default();
    if let Some(after) = query.after {
        conditions.compare("id", ">", Argument::Integer(after));
    }
    if let Some(status) = status {
        conditions.compare("status", "=", Argument::Text(status.as_str().into()));
    }
    if let Some(pet_id) = pet_id {
        conditions.compare("pet_id", "=", Argument::Integer(*pet_id));
    }
    // A bound outside the years a ship date can have excludes every order,
    // or only those without a ship date.
    let years = &SHIP_DATE_YEARS;
    if let Some(from) = ship_date_from {
        match from.year() {
            year if year > *years.end() => return None,
            year if year < *years.start() => conditions.sql.push_str(" AND ship_date IS NOT NULL"),
            _ => conditions.compare("ship_date", ">=", Argument::Text(stored_ship_date(*from))),
        }
    }
    if let Some(to) = ship_date_to {
        match to.year() {
            year if year < *years.start() => return None,
            year if year > *years.end() => conditions.sql.push_str(" AND ship_date IS NOT NULL"),
            _ => conditions.compare("ship_date", "<", Argument::Text(stored_ship_date(*to))),
        }
    }
    if let Some(complete) = complete {
        conditions.compare("complete", "=", Argument::Boolean(*complete));
    }
    Some(conditions)
}

fn parse_time(s: &str) -> Result<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(s)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| StorageError::Internal(format!("bad timestamp {s:?} in the database: {e}")))
}

pub(super) fn parse_status(s: &str) -> Result<OrderStatus> {
    OrderStatus::parse(s).ok_or_else(|| StorageError::Internal(format!("unknown order status {s:?} in the database")))
}

pub(super) fn column<'r, T: sqlx::Decode<'r, sqlx::Any> + sqlx::Type<sqlx::Any>>(
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

fn order_from_row(row: &AnyRow) -> Result<OrderRecord> {
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

fn key_from_row(row: &AnyRow) -> Result<ApiKeyRecord> {
    let revoked_at: Option<String> = column(row, "revoked_at")?;
    Ok(ApiKeyRecord {
        id: column(row, "id")?,
        name: column(row, "name")?,
        key_hash: column(row, "key_hash")?,
        created_at: parse_time(&column::<String>(row, "created_at")?)?,
        revoked_at: revoked_at.as_deref().map(parse_time).transpose()?,
    })
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
fn in_item(error: StorageError, list: &str, index: usize, id: i64) -> StorageError {
    match error {
        StorageError::Invalid(m) => StorageError::Invalid(format!("{list}[{index}] (id {id}): {m}")),
        other => other,
    }
}

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
        if let Some(rows) = self.page_on_this_thread(&sql, &conditions.arguments, limit) {
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
        self.check_files(Access::Write)?;
        // Of two processes making it at once, the first insert wins and
        // both read the winner's.
        let mut conn = self.connection().await?;
        timed(
            Statement::SecretInsert,
            sqlx::query("INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
                .bind(name)
                .bind(fresh)
                .execute(&mut *conn),
        )
        .await
        .map_err(|e| self.classify(e))?;
        drop(conn);
        self.check_files(Access::Write)?;
        read()
            .await?
            .ok_or_else(|| StorageError::Internal(format!("the secret {name:?} vanished after it was stored")))
    }

    fn versions_now(&self) -> Option<Result<Versions>> {
        let reads = self.thread_reads.as_ref()?;
        if let Err(e) = self.check_files(Access::Read) {
            return Some(Err(e));
        }
        reads.try_read()
    }

    async fn cancelled_since(&self, version: OrdersVersion, seen: OrdersVersion) -> Option<(OrdersVersion, Vec<i64>)> {
        self.cancellations.since(version, seen).await
    }

    async fn ready(&self) -> Result<()> {
        // A SQLite file that was deleted, replaced or made read-only
        // answers reads, but refuses every cancel: not ready.
        self.check_files(Access::Write)?;
        self.versions().await.map(|_| ())
    }

    async fn versions(&self) -> Result<Versions> {
        // Every request reads the counters: a deleted or replaced file is
        // noticed by the next request, reads included.
        self.check_files(Access::Read)?;
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
        self.check_files(Access::Write)?;
        let mut conn = self.connection().await?;
        let done = timed(
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
        .map_err(|e| self.classify(e))?;
        drop(conn);
        // Not acknowledged unless it went into the files at the paths.
        self.check_files(Access::Write)?;
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
        self.check_files(Access::Write)?;
        // A connection whose transaction fails here is closed by the pool,
        // never reused (see `Backend::pool_options`).
        let mut conn = self.connection().await?;
        match timed(Statement::Import, self.import_on(&mut conn, data, true)).await {
            // A refused batch does not say which of its rows broke a rule:
            // the same import, a row at a time, does. Nothing of the first
            // was committed (the rule broke before the commit).
            Err(StorageError::Invalid(_)) => {
                drop(conn);
                let mut conn = self.connection().await?;
                timed(Statement::Import, self.import_on(&mut conn, data, false)).await?;
            }
            outcome => outcome?,
        }
        self.check_files(Access::Write)
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
        self.check_files(Access::Write)?;
        let mut conn = self.connection().await?;
        let id = timed(
            Statement::KeyCreate,
            sqlx::query_scalar("INSERT INTO api_keys (name, key_hash, created_at) VALUES ($1, $2, $3) RETURNING id")
                .bind(name)
                .bind(key_hash)
                .bind(now())
                .fetch_one(&mut *conn),
        )
        .await
        .map_err(|e| self.classify(e))?;
        drop(conn);
        self.check_files(Access::Write)?;
        Ok(id)
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
        self.check_files(Access::Write)?;
        let mut conn = self.connection().await?;
        let done = timed(
            Statement::KeyRevoke,
            sqlx::query("UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL")
                .bind(now())
                .bind(id)
                .execute(&mut *conn),
        )
        .await
        .map_err(|e| self.classify(e))?;
        drop(conn);
        self.check_files(Access::Write)?;
        Ok(done.rows_affected() == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pool's connections, each of which may read the whole list,
    /// cache few pages (see `PAGE_CACHE_KIB`; the request threads' are
    /// tested in `thread_reads.rs`).
    #[tokio::test]
    async fn every_pooled_sqlite_connection_caches_at_most_page_cache_kib() {
        let dir = tempfile::tempdir().unwrap();
        let storage = SqlStorage::open(dir.path().join("t.db").to_str().unwrap())
            .await
            .unwrap();
        // Held together, so that each is a different connection.
        let mut held = Vec::new();
        for _ in 0..crate::storage::backend::SQLITE_CONNECTIONS {
            held.push(storage.pool.acquire().await.unwrap());
        }
        for conn in &mut held {
            let size: i64 = sqlx::query_scalar("PRAGMA cache_size")
                .fetch_one(&mut **conn)
                .await
                .unwrap();
            assert_eq!(size, -i64::from(crate::storage::backend::PAGE_CACHE_KIB));
        }
    }

    #[test]
    fn placeholders_number_every_column_of_every_row() {
        assert_eq!(placeholders(1, 3), "($1, $2, $3)");
        assert_eq!(placeholders(2, 2), "($1, $2), ($3, $4)");
    }
}
