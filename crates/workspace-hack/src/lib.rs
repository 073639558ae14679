//! Nothing to call: this crate exists for its dependencies' features
//! (Cargo.toml says why).
