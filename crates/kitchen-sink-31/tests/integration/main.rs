//! The 3.1 kitchen sink's integration tests, one binary: each drives the
//! generated service over real HTTP on an ephemeral port. What each 3.1
//! construct means on the wire: typed where Rust can say it, validated
//! exactly as written where it cannot, and the document served as written.

mod support;

mod served_document;
mod typed;
mod validated;
