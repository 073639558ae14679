//! The database's times (`crate::metrics::database`): the wait for a
//! connection of the pool, and then the statement on it, recorded apart.
//! Every statement the storage sends goes through these two.

use std::future::Future;

use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyPool};

use crate::metrics::{Statement, database};

/// A connection of `pool`, the wait for it recorded (a wait that ended in
/// an error too: a pool exhausted until the limit shows there).
pub(super) async fn acquire(pool: &AnyPool) -> Result<PoolConnection<Any>, sqlx::Error> {
    let metrics = database();
    let started = metrics.start();
    let connection = pool.acquire().await;
    metrics.waited(started);
    connection
}

/// Runs `run`, recording its time as `statement`'s.
pub(super) async fn timed<F: Future>(statement: Statement, run: F) -> F::Output {
    let metrics = database();
    let started = metrics.start();
    let output = run.await;
    metrics.ran(statement, started);
    output
}
