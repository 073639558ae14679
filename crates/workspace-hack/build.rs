//! Empty: Cargo reads a crate's [build-dependencies] only when it has a
//! build script, and the host-side features in Cargo.toml need them read.
fn main() {}
