//! The 3.1 kitchen sink's integration tests, one binary: each drives the
//! generated service over real HTTP on an ephemeral port. What each 3.1
//! construct means on the wire: typed where Rust can say it, validated
//! exactly as written where it cannot, the document served as written,
//! streamed responses read item by item, and the webhook and callback
//! sent to a receiver the tests serve.

mod support;

mod served_document;
mod streams;
mod typed;
mod validated;
mod webhooks;
