//! [`Storage`] over SQL, for both backends with one set of queries (sqlx's
//! `Any` driver; `$n` placeholders, which SQLite also reads). What only
//! one backend needs around a statement is behind the storage's one
//! [`Hook`]: SQLite's is in `storage/sqlite/`.

mod database;
mod import;
pub(crate) mod pages;
mod queries;
pub(crate) mod rows;
#[cfg(test)]
mod tests;

pub use database::{OpenOptions, SqlStorage};
