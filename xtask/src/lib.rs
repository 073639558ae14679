//! Project automation for the Pet Store workspace, run as `cargo xtask`:
//! three concerns, one module folder each, depending one way.
//!
//! - [`codegen`]: the spec, read and checked, turned into the client and
//!   server crates, which are rendered, written and checked for staleness;
//! - [`designer`]: diff, lint and docs for the people who edit the spec;
//! - [`load`]: bench and soak against real server processes.
//!
//! `tidy` (tests only) keeps the workspace's habits.

pub mod codegen;
pub mod designer;
pub mod load;

#[cfg(test)]
mod tidy;
