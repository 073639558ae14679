//! What the generator and the runtime must compute alike, in one place.
//!
//! The generator (xtask) decides at build time which operations the
//! runtime's dispatch serves and which media types a body may take; the
//! runtime (`api-runtime`) routes and reads requests by the same rules.
//! This crate has no dependencies: xtask depends on it instead of on
//! `api-runtime`, whose server stack (dropshot, tokio, hyper) would
//! otherwise be part of every warm `cargo xtask generate`'s freshness
//! check.

pub mod media;
pub mod routes;
