//! Serving a generated service as a process, the same way for every
//! service: [`Running`] with the [`ServeOptions`] every service takes.
//!
//! - [`state`]: what the service shares with the generated layer
//!   ([`Serving`]: the requests in flight, the drain, readiness, the
//!   [`origins`] allowed); [`answering`]: what the generated layer does
//!   around every request (`request_ids`: dropshot's id and an incoming
//!   `X-Request-Id`, in its log lines and a 5xx's body);
//! - [`probes`]: `/healthz` and `/readyz`; [`cors`]: cross-origin
//!   requests from browsers (`--cors-origin`);
//! - [`logging`]: stderr, as text or JSON, the level filter first;
//!   [`log_lines`] formats a record, [`log_time`] its time, [`log_writer`] writes lines in
//!   batches on a thread of its own, [`request_lines`] are the lines the
//!   generated layer writes for its requests;
//! - [`shutdown`]: the signals and a shutdown bounded by a deadline,
//!   waiting for the requests [`in_flight`] counts;
//! - [`connection_reaper`]: connections that hold a descriptor without
//!   using it are closed (dropshot has no read timeout); it and the
//!   shutdown find dropshot's sockets through [`sockets`];
//!   [`process_limits`] raises the open-files limit at start.

pub mod answering;
pub mod connection_reaper;
pub mod cors;
pub mod in_flight;
pub mod log_lines;
pub mod log_time;
pub mod log_writer;
pub mod logging;
pub mod options;
pub mod origins;
pub mod probes;
pub mod process_limits;
pub(crate) mod request_ids;
pub mod request_lines;
pub mod running;
pub mod shutdown;
pub mod sockets;
pub mod state;

pub use answering::Answering;
pub use log_lines::LogFormat;
pub use log_writer::LogFlush;
pub use logging::ServiceLog;
pub use options::{ConnectionLimits, ServeOptions, Switch};
pub use origins::Cors;
pub use request_lines::RequestLines;
pub use running::{Running, Settings, serve};
pub use state::{Readiness, Served, Serving};
