//! What a run measures: which server ([`Kind`]), the figures of one
//! workload on it, and a row of the table.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    /// Ours at its defaults: log level info (a line a request, written to
    /// a file, as a service's log would be), metrics on, reaper on.
    Ours,
    /// Ours with `--keep-silent-connections`: what the connection reaper
    /// costs.
    OursWithoutReaper,
    /// Ours at `--log-level error`: no line per request, so that against
    /// [`Kind::Ours`] it prices the log line.
    OursLoggingErrorsOnly,
    /// Ours with `--metrics off`: what counting and timing each request
    /// costs.
    OursWithoutMetrics,
    /// Ours on a PostgreSQL database (v2's read pages).
    OursOnPostgres,
    HandWritten,
    /// The same bytes as the limit, through dropshot: the framework's own
    /// ceiling.
    DropshotFloor,
    Limit,
    /// The kitchen sink's generated endpoint, which checks the body
    /// against the spec.
    Generated,
    /// The same endpoint on dropshot's `TypedBody` alone.
    TypedBody,
}

impl Kind {
    pub(super) fn name(self) -> &'static str {
        match self {
            Kind::Ours => "ours",
            Kind::OursWithoutReaper => "ours, no reaper",
            Kind::OursLoggingErrorsOnly => "ours, log level error",
            Kind::OursWithoutMetrics => "ours, metrics off",
            Kind::OursOnPostgres => "ours, PostgreSQL",
            Kind::HandWritten => "hand-written",
            Kind::DropshotFloor => "dropshot floor",
            Kind::Limit => "limit",
            Kind::Generated => "generated",
            Kind::TypedBody => "TypedBody alone",
        }
    }
}

/// One oha run's figures.
#[derive(Clone, Debug, Default)]
pub(super) struct Figures {
    pub(super) requests_per_second: f64,
    /// Requests per second that were answered without a 5xx or a
    /// connection error: what the ratios compare.
    pub(super) served_per_second: f64,
    pub(super) p50_ms: f64,
    pub(super) p99_ms: f64,
    pub(super) p999_ms: f64,
    pub(super) errors: u64,
    /// Answers by status (`200:1234 503:2`), and how many in all.
    pub(super) statuses: String,
    pub(super) answered: u64,
    /// Cancels answered 204.
    pub(super) cancelled: u64,
    pub(super) peak_rss_kib: u64,
}

/// The list the floor and the limit replay in a workload.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Replay {
    /// Ours' list before the run.
    OursFirstList,
    /// For lists mixed with cancels, where each of ours' cancels takes an
    /// order off its list: in a closed loop the faster a server answers,
    /// the more it cancels and the shorter the lists it then sends. So that
    /// the floor and the limit send as many bytes per list as ours did,
    /// they replay a list of as many orders as ours listed on average over
    /// its run (its first orders; the list shrinks by one order per 204, at
    /// a steady rate). Hand-written runs on its own database and cancels as
    /// ours does.
    OursMeanList,
}

pub(super) struct Row {
    pub(super) workload: String,
    pub(super) kind: Kind,
    pub(super) figures: Figures,
}
