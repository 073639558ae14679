//! The Pet Store server's integration tests, one binary (as dropshot's
//! own): real server processes on ephemeral ports over real SQLite files
//! and PostgreSQL databases, with real faults. `key_timing` keeps a binary
//! of its own (tests/key_timing.rs): see there.

mod support;

mod backups;
mod bounded_waits;
mod cli;
mod crash;
mod database_file;
mod file_access_and_schema;
mod freshness;
mod full_disk;
mod instances;
mod lifecycle;
mod order_list;
mod probes;
mod prometheus;
mod reverse_proxy;
mod silent_connections;
mod storage;
mod storage_versions;
