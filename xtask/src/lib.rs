//! Code generation for the Pet Store workspace, run as `cargo xtask`.
//!
//! The flow: `spec` reads and checks `openapi/petstore.yaml`; `client_gen`
//! and `server_gen` turn it into Rust; `codegen` renders, writes and checks
//! the committed files.

pub mod bench;
pub mod client_gen;
pub mod codegen;
pub mod diff;
pub mod docs;
pub mod lint;
pub mod server_gen;
pub mod server_process;
pub mod soak;
pub mod spec;
pub mod spec_json;
