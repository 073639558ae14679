//! A generated contract as the agreement test reads it, and the HTTP
//! methods a path item may hold.

use api_runtime::Operation;
use dropshot::{ApiDescription, ApiDescriptionBuildErrors, StubContext};

pub(super) const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// A generated contract, as the agreement test needs it.
pub struct Contract {
    /// The spec it was generated from, relative to the workspace.
    pub spec_path: &'static str,
    pub version: &'static str,
    pub base_path: &'static str,
    /// The tables the generated layer serves by.
    pub operations: &'static [&'static Operation],
    /// The API description without an implementation.
    pub description: fn() -> Result<ApiDescription<StubContext>, ApiDescriptionBuildErrors>,
    /// The operations a leave-out list keeps out of the code (method and
    /// path), which the comparison leaves out of the spec too.
    pub left_out: &'static [(&'static str, &'static str)],
}
