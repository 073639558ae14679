//! Workspace tests, one binary (as dropshot's own): spec/code agreement,
//! the API surface snapshots, and the generated client end to end against
//! the real server.

mod agreement;
mod api_surface;
mod e2e;
mod e2e_v2;
mod e2e_v2_beside_v1;
mod hostile;
mod mocks;
mod outage;
