//! The kitchen sink's integration tests, one binary (as dropshot's own):
//! each module drives the generated service over real HTTP on an ephemeral
//! port, with `support` starting it.

mod support;

mod bracket_notation;
mod broken_bodies;
mod broken_parameters;
mod broken_rules;
mod http_round_trips;
mod media_types;
mod metrics;
mod multipart;
mod page_streams;
mod protocol;
mod round_trips;
mod schemas;
mod security;
mod served;
mod typed_round_trips;
mod validation;
