//! What every generated client shares, whatever its document: the code a
//! client's generated methods call rather than carry. Each generated
//! client names these by path (`::api_client_runtime::…`), and its
//! manifest lists this crate when it does (`cargo xtask generate` adds it).
//!
//! - [`streams`]: streamed responses read as typed items (Server-Sent
//!   Events, reconnecting with `Last-Event-ID`; JSON Lines and JSON text
//!   sequences).
//! - [`query`]: object query parameters in the styles progenitor does not
//!   write (`deepObject` in bracket notation, `form` without `explode`).
//! - [`forms`]: form bodies with lists and objects, as the server reads
//!   them.
//! - [`multipart`]: multipart bodies of named, typed parts and files.
//! - [`parameters`]: header, path and JSON parameter values, and cookie
//!   parameters, as the server reads them.
//! - [`responses`]: a response read into its operation's enum of statuses.
//! - [`credentials`]: credentials put on a request, marked sensitive.
//! - [`retries`]: a request sent again after a transient failure (the
//!   client's `exec` hook), honouring `Retry-After`.
//! - [`spans`]: a `tracing` span per request, named by its operation.

pub mod credentials;
pub mod forms;
pub mod multipart;
pub mod parameters;
pub mod query;
pub mod responses;
pub mod retries;
pub mod spans;
pub mod streams;
