//! The Pet Store orders service.
//!
//! Layers, each depending only on the ones below it:
//! - [`cli`]: the `petstore-server` command line;
//! - [`server`]: the dropshot HTTP server, mounted as the spec says, and
//!   [`shutdown`], which stops it within a deadline ([`in_flight`] counts
//!   the requests it waits for; [`process_limits`] raises the open-files
//!   limit at start; [`connection_reaper`] closes connections that hold a
//!   descriptor without sending anything; both find dropshot's sockets
//!   through [`sockets`]);
//! - [`service`]: the contract's handlers (`petstore_api::PetStoreHandlers`;
//!   version 2's in [`service_v2`], with [`page_cursor`] and
//!   [`page_cache`]),
//!   with what it caches: [`order_list`] (listOrders' body, serialized
//!   once per change), [`key_cache`] (API keys' hashes) and [`versions`]
//!   (the change counters both are checked against, read once for many
//!   requests);
//! - [`storage`] and [`keys`]: the database and API keys.

pub mod cli;
pub mod connection_reaper;
pub mod demo;
pub mod in_flight;
pub mod key_cache;
pub mod keys;
pub mod logging;
pub mod metrics;
pub mod order_list;
pub mod page_cache;
pub mod page_cursor;
pub mod probes;
pub mod process_limits;
pub mod server;
pub mod service;
pub mod service_v2;
pub mod shutdown;
pub mod sockets;
pub mod storage;
pub mod testing;
pub mod verified_keys;
pub mod versions;
