//! The Pet Store orders service.
//!
//! Layers, each depending only on the ones below it:
//! - [`cli`]: the `petstore-server` command line;
//! - [`server`]: the dropshot HTTP server, mounted as the spec says;
//! - [`service`]: the contract's handlers (`petstore_api::PetStoreHandlers`);
//! - [`storage`] and [`keys`]: the database and API keys.

pub mod cli;
pub mod demo;
pub mod keys;
pub mod server;
pub mod service;
pub mod storage;
pub mod testing;
