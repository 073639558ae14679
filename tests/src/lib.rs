//! Shared pieces of the workspace tests: a real server to test against, and
//! the structural comparison of the spec with what dropshot emits.

pub mod harness;
pub mod spec_diff;

/// The workspace root.
pub fn workspace_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// `openapi/petstore.yaml` as JSON.
pub fn source_spec() -> serde_json::Value {
    let text = std::fs::read_to_string(workspace_root().join("openapi/petstore.yaml")).unwrap();
    serde_norway::from_str(&text).unwrap()
}
