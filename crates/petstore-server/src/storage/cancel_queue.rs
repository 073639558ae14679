//! Group commit for cancels: concurrent cancels share one transaction, so
//! one commit (one fsync on SQLite) makes a whole batch durable.
//!
//! A cancel's caller waits until the transaction holding its change has
//! committed, so the 204 is still sent only after the cancel is durable,
//! as with a transaction per cancel. When nothing else is waiting, a
//! cancel commits alone at once; under load, the cancels that arrived
//! while the previous batch was committing go together.

use std::collections::HashSet;
use std::sync::Arc;

use sqlx::{Acquire, AnyPool};
use tokio::sync::{mpsc, oneshot};

use crate::metrics::{Statement, database};

use super::backend::Backend;
use super::cancellations::Cancellations;
use super::hook::{Access, Hook};
use super::sql::rows::{column, now};
use super::stored::parse_status;
use super::timing::acquire;
use super::{CancelOutcome, OrderStatus, OrdersVersion, Result, StorageError};

/// At most this many cancels share a transaction, so that one batch
/// cannot hold the write lock for long.
const MAX_BATCH: usize = 128;

type Reply = oneshot::Sender<Result<CancelOutcome>>;

/// The sending side; the batching task ends when every handle is dropped.
#[derive(Clone)]
pub(super) struct CancelQueue {
    requests: mpsc::UnboundedSender<(i64, Reply)>,
}

impl CancelQueue {
    /// Starts the batching task on the current tokio runtime; every
    /// commit that cancelled orders goes into `log`.
    pub(super) fn start(pool: AnyPool, backend: Backend, hook: Arc<dyn Hook>, log: Arc<Cancellations>) -> Self {
        let (requests, receiver) = mpsc::unbounded_channel();
        tokio::spawn(run(pool, backend, hook, log, receiver));
        CancelQueue { requests }
    }

    /// Cancels order `id` in the next transaction, and gives the outcome
    /// once that transaction has committed.
    pub(super) async fn cancel(&self, id: i64) -> Result<CancelOutcome> {
        let (reply, outcome) = oneshot::channel();
        let stopped = || StorageError::Unavailable("the storage is shutting down".into());
        self.requests.send((id, reply)).map_err(|_| stopped())?;
        outcome.await.map_err(|_| stopped())?
    }
}

async fn run(
    pool: AnyPool,
    backend: Backend,
    hook: Arc<dyn Hook>,
    log: Arc<Cancellations>,
    mut receiver: mpsc::UnboundedReceiver<(i64, Reply)>,
) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while receiver.recv_many(&mut batch, MAX_BATCH).await > 0 {
        // Rows are locked in ascending id order, so that two instances'
        // batches on one PostgreSQL cannot deadlock.
        batch.sort_by_key(|(id, _)| *id);
        crate::metrics::service().cancel_batch.observe(batch.len() as f64);
        let ids: Vec<i64> = batch.iter().map(|(id, _)| *id).collect();
        match cancel_all(&pool, backend, &*hook, &log, &ids).await {
            Ok(outcomes) => {
                for ((_, reply), outcome) in batch.drain(..).zip(outcomes) {
                    // The requester may have gone (its client hung up);
                    // the cancel stands either way.
                    let _ = reply.send(Ok(outcome));
                }
            }
            // Nothing of the batch was committed: each caller gets the error.
            Err(error) => {
                for (_, reply) in batch.drain(..) {
                    let _ = reply.send(Err(error.clone()));
                }
                // The database could not be written for as long as a wait
                // may last (a lock held, a full disk). The cancels that
                // queued meanwhile have waited that long already: they get
                // the same answer now, rather than wait as long again for a
                // batch of their own.
                if matches!(error, StorageError::Unavailable(_)) {
                    while let Ok((_, reply)) = receiver.try_recv() {
                        let _ = reply.send(Err(error.clone()));
                    }
                }
            }
        }
    }
}

/// One transaction, one conditional change for every id in the batch.
///
/// One statement, not one per id: on PostgreSQL the counter trigger runs
/// after the statement and locks the `changes` row, so a transaction that
/// went on to lock more orders after it could deadlock with another
/// instance's. Orders are locked in ascending id order (`FOR UPDATE` in
/// the subquery) for the same reason; SQLite has one writer at a time.
async fn cancel_all(
    pool: &AnyPool,
    backend: Backend,
    hook: &dyn Hook,
    log: &Cancellations,
    ids: &[i64],
) -> Result<Vec<CancelOutcome>> {
    let placeholders = |from: usize| {
        (from..from + ids.len())
            .map(|n| format!("${n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let pending = match backend {
        Backend::Postgres => format!(
            "SELECT id FROM orders WHERE id IN ({}) AND status = 'pending' ORDER BY id FOR UPDATE",
            placeholders(2)
        ),
        Backend::Sqlite => format!(
            "SELECT id FROM orders WHERE id IN ({}) AND status = 'pending'",
            placeholders(2)
        ),
    };
    let update = format!(
        "UPDATE orders SET status = 'cancelled', updated_at = $1 WHERE id IN ({pending}) AND status = 'pending' \
         RETURNING id"
    );
    // A connection whose transaction fails here is closed by the pool,
    // never reused (see `Backend::pool_options`).
    let mut conn = acquire(pool).await.map_err(|e| backend.classify(e))?;
    let started = database().start();
    let mut tx = conn.begin().await.map_err(|e| backend.classify(e))?;
    let mut query = sqlx::query_scalar::<_, i64>(&update).bind(now());
    for id in ids {
        query = query.bind(*id);
    }
    let cancelled_ids = query.fetch_all(&mut *tx).await.map_err(|e| backend.classify(e))?;
    // The counter after this transaction's change. The change holds the
    // write lock (SQLite) or the counter's row (PostgreSQL) until the
    // commit, so nothing else moves it in between: the version before is
    // this one less what the change bumped.
    let after = match cancelled_ids.len() {
        0 => None,
        _ => Some(
            sqlx::query_scalar::<_, i64>("SELECT counter FROM changes WHERE id = 1")
                .fetch_one(&mut *tx)
                .await
                .map_err(|e| backend.classify(e))?,
        ),
    };
    let mut cancelled: HashSet<i64> = cancelled_ids.iter().copied().collect();
    // Why the others were not cancelled: shipped, cancelled already, or
    // never there.
    let lookup = format!("SELECT id, status FROM orders WHERE id IN ({})", placeholders(1));
    let mut query = sqlx::query(&lookup);
    for id in ids {
        query = query.bind(*id);
    }
    let mut shipped = HashSet::new();
    for row in query.fetch_all(&mut *tx).await.map_err(|e| backend.classify(e))? {
        if parse_status(&column::<String>(&row, "status")?)? == OrderStatus::Shipped {
            shipped.insert(column::<i64>(&row, "id")?);
        }
    }
    // Committing into a file that was deleted or replaced would
    // acknowledge cancels nobody will read.
    hook.check(Access::Write)?;
    // Entered before the COMMIT, which readers may see before this task
    // hears back; forgotten unless it commits (see `Cancellations`).
    let entered = after.map(|after| {
        let before = after - backend.counter_bumps(cancelled_ids.len());
        log.committing(OrdersVersion(before), OrdersVersion(after), cancelled_ids)
    });
    tx.commit().await.map_err(|e| backend.classify(e))?;
    // Committed batches only: a failed one is in the log and the replies.
    database().ran(Statement::CancelBatch, started);
    if let Some(entered) = entered {
        entered.committed();
    }
    // A file deleted or replaced during the commit: the watcher copies what
    // the WAL holds into the database file, but these cancels are not
    // acknowledged on that (a retry finds them cancelled).
    hook.check(Access::Write)?;
    Ok(ids
        .iter()
        .map(|id| {
            // A repeated id: its first request cancelled it, the others
            // find it cancelled (exactly one 204).
            if cancelled.remove(id) {
                CancelOutcome::Cancelled
            } else if shipped.contains(id) {
                CancelOutcome::Shipped
            } else {
                CancelOutcome::NotFound
            }
        })
        .collect())
}
