//! The API designer's tools beside the generator: `cargo xtask diff`
//! (breaking changes against history), `lint` (design rules), `docs`
//! (the rendered reference), over [`spec_json`], the spec as JSON; and
//! `new` ([`new_service`]), a target of the designer's own document.

pub mod diff;
pub mod diff_command;
pub mod docs;
pub mod lint;
pub mod new_service;
pub mod spec_json;
