//! Serving a generated service as a process, the same way for every
//! service: [`Running`] with the [`ServeOptions`] every service takes.
//!
//! - [`state`]: what the service shares with the generated layer
//!   ([`Serving`]: the requests in flight, the drain, readiness);
//! - [`probes`]: `/healthz` and `/readyz`; [`cors`]: cross-origin
//!   requests from browsers (`--cors-origin`);
//! - [`logging`]: stderr, as text or JSON, the level filter first;
//! - [`shutdown`]: the signals and a shutdown bounded by a deadline,
//!   waiting for the requests [`in_flight`] counts;
//! - [`connection_reaper`]: connections that hold a descriptor without
//!   using it are closed (dropshot has no read timeout); it and the
//!   shutdown find dropshot's sockets through [`sockets`];
//!   [`process_limits`] raises the open-files limit at start.

pub mod connection_reaper;
pub mod cors;
pub mod in_flight;
pub mod logging;
pub mod options;
pub mod probes;
pub mod process_limits;
pub mod running;
pub mod shutdown;
pub mod sockets;
pub mod state;

pub use cors::Cors;
pub use logging::LogFormat;
pub use options::{ConnectionLimits, ServeOptions, Switch};
pub use running::{Running, Settings, serve};
pub use state::{Answering, Readiness, Serving};
