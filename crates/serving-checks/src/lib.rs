//! What every served service must withstand, checked against its own
//! binary (`runtime::serving` serves them all the same way, so the same
//! checks hold for each): a [`ServedProcess`] started with the options
//! every service takes, and the [`checks`] its tests call: a short body,
//! a slow request head, hundreds of silent connections, SIGTERM with a
//! silent connection open, the probes and the drain, CORS by its
//! headers ([`cors`]) and in a real browser ([`browser`]), the log's
//! lines written by a clean stop and counted when dropped ([`logs`]), a
//! request's ids in its line ([`request_ids`]). Each asserts the bound
//! the README states, and that another client is answered throughout. A
//! check whose tool is missing fails in CI ([`tools`]). For clients: a
//! [`scripted_server`] that fails on cue, for their retries.

pub mod browser;
pub mod checks;
pub mod cors;
pub mod logs;
pub mod process;
pub mod raw_http;
pub mod request_ids;
pub mod scripted_server;
pub mod tools;

pub use process::ServedProcess;
pub use raw_http::Request;
