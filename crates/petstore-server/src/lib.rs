//! The Pet Store orders service.
//!
//! Layers, each depending only on the ones below it:
//! - [`cli`]: the `petstore-server` command line;
//! - [`server`]: the dropshot HTTP server, mounted as the spec says, and
//!   served as every generated service is (`runtime::serving`: probes,
//!   logs, the connection reaper, a drain and a bounded shutdown);
//! - [`service`]: the contract's handlers (`petstore_api::PetStoreHandlers`;
//!   version 2's in [`service_v2`], with [`page_cursor`] and
//!   [`page_cache`]),
//!   with what it caches: [`order_list`] (listOrders' body, serialized
//!   once per change), [`key_cache`] (API keys' hashes) and [`versions`]
//!   (the change counters both are checked against, read once for many
//!   requests);
//! - [`storage`] and [`keys`]: the database and API keys.

pub mod cli;
pub mod demo;
pub mod key_cache;
pub mod keys;
pub mod metrics;
pub mod order_list;
pub mod page_cache;
pub mod page_cursor;
pub mod read_mostly;
pub mod server;
pub mod service;
pub mod service_v2;
pub mod storage;
pub mod testing;
pub mod verified_keys;
pub mod versions;
