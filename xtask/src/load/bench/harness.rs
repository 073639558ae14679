//! The state a bench run shares between its parts: where the servers and
//! databases are, the load's settings, and the figures gathered so far.
//! A leaf of `bench/`: every part reads it, it reads none of them.

use std::path::PathBuf;

use super::figures::Row;

/// The oha the full bench installs and loads with.
pub(super) const OHA_VERSION: &str = "1.16.0";
/// The connections each load keeps open.
pub(super) const CONNECTIONS: usize = 64;

/// One bench run: where its servers and databases are, and the figures
/// gathered so far.
pub(super) struct Bench {
    pub(super) work: PathBuf,
    /// Where the servers' binaries are: `target/release`, or
    /// `target/debug` under `--quick`.
    pub(super) binaries: PathBuf,
    /// oha, installed for the full run; `--quick` (CI) loads with our
    /// `petstore-load` instead, which a clean clone would not first
    /// build from source for minutes.
    pub(super) oha: Option<PathBuf>,
    pub(super) seconds: u64,
    /// The key of the database in use.
    pub(super) key: String,
    /// Databases made so far: size → (file, its key).
    pub(super) databases: std::collections::BTreeMap<i64, (PathBuf, String)>,
    pub(super) rows: Vec<Row>,
    /// listOrders/100 on ours, the floor and the limit in alternated
    /// rounds: the best served req/s of each.
    pub(super) list_rounds: Option<(f64, f64, f64)>,
    /// listOrders/100 with and without the connection reaper, alternated:
    /// the best served req/s of each.
    pub(super) reaper: (f64, f64),
    /// listOrders/100 at log level info (the default, ours) and error,
    /// alternated: the best served req/s of each.
    pub(super) log_line: (f64, f64),
    /// The same by instructions counted in the whole process (callgrind),
    /// where valgrind runs: info, then error.
    pub(super) log_instructions: Option<(f64, f64)>,
    /// listOrders/100 with and without the request metrics, alternated.
    pub(super) metrics: (f64, f64),
    /// The same by instructions counted in the request handler (callgrind),
    /// where valgrind runs.
    pub(super) metrics_instructions: Option<(f64, f64)>,
    /// The cost table (Markdown), ours ÷ the floor by instructions on
    /// listOrders/100, and the generated checks' share of quoteOrder's
    /// instructions, where valgrind runs.
    pub(super) costs: Option<(String, f64, f64)>,
}
