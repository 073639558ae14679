//! xtask's integration tests, one binary (as dropshot's own, so that CI
//! links one): the generator, lint, diff and the corpus, each driven
//! through the library's public functions or the `cargo xtask` binary.

mod support;

mod constructs;
mod corpus;
mod deprecation;
mod diff_each_rule;
mod diff_rules;
mod generated_code;
mod json_schema_suite;
mod leave_out;
mod lint_rules;
mod oasdiff_agreement;
mod page_streams;
mod spec_errors;
