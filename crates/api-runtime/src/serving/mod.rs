//! Serving a generated service as a process, the same way for every
//! service: [`Running`] with the [`ServeOptions`] every service takes.
//!
//! - [`state`]: what the service shares with the generated layer
//!   ([`Serving`]: the requests in flight, the drain, readiness, the
//!   [`origins`] allowed); [`answering`]: what the generated layer does
//!   around every request (`request_ids`: its id in a 5xx's body);
//! - [`probes`]: `/healthz` and `/readyz`; [`cors`]: cross-origin
//!   requests from browsers (`--cors-origin`);
//! - [`logging`]: stderr, as text or JSON, the level filter first;
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
pub mod logging;
pub mod options;
pub mod origins;
pub mod probes;
pub mod process_limits;
pub(crate) mod request_ids;
pub mod running;
pub mod shutdown;
pub mod sockets;
pub mod state;

pub use answering::Answering;
pub use logging::LogFormat;
pub use options::{ConnectionLimits, ServeOptions, Switch};
pub use origins::Cors;
pub use running::{Running, Settings, serve};
pub use state::{Readiness, Serving};
