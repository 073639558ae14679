//! The API designer's tools beside the generator: `cargo xtask diff`
//! (breaking changes against history), `lint` (design rules) and `docs`
//! (the rendered reference), over [`spec_json`], the spec as JSON.

pub mod diff;
pub mod docs;
mod layer_statuses;
pub mod lint;
pub mod spec_json;
