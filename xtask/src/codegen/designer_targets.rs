//! Targets a designer added with `cargo xtask new`: each is a crate of
//! the workspace whose `Cargo.toml` names its spec,
//!
//! ```toml
//! [package.metadata.xtask]
//! spec = "openapi/weather/openapi.yaml"
//! ```
//!
//! and whose [`SERVER_FILE`] and [`CLIENT_FILE`] are
//! generated from it, with the rest of the workspace's, by `cargo xtask
//! generate` and kept fresh by `cargo xtask check`. Found by looking, so
//! that adding one needs no change to the xtask.

use std::borrow::Cow;
use std::path::Path;

use super::targets::{ClientCredentials, ClientInterface, Target};

/// The crate's generated server contract, relative to the crate.
pub const SERVER_FILE: &str = "src/api/generated.rs";
/// The crate's generated client, relative to the crate.
pub const CLIENT_FILE: &str = "src/client/generated.rs";

/// The target of a crate at `crate_dir` (relative to the workspace)
/// generated from `spec` (relative to the workspace).
pub fn target(crate_dir: &str, spec: &str) -> Target {
    Target {
        spec: Cow::Owned(spec.to_string()),
        client: Cow::Owned(format!("{crate_dir}/{CLIENT_FILE}")),
        mocks: None,
        client_module: "crate::client",
        server: Cow::Owned(format!("{crate_dir}/{SERVER_FILE}")),
        credentials: ClientCredentials::Generated,
        interface: ClientInterface::Positional,
    }
}

/// Every crate under `root/crates` that names a spec, in name order.
pub fn designer_targets(root: &Path) -> Result<Vec<Target>, String> {
    let crates = root.join("crates");
    let Ok(entries) = std::fs::read_dir(&crates) else {
        return Ok(Vec::new());
    };
    let mut names: Vec<String> = entries
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .collect();
    names.sort();
    let mut targets = Vec::new();
    for name in names {
        let manifest = crates.join(&name).join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        let parsed: toml::Table =
            toml::from_str(&text).map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
        let spec = parsed
            .get("package")
            .and_then(|p| p.get("metadata"))
            .and_then(|m| m.get("xtask"))
            .and_then(|x| x.get("spec"));
        match spec {
            None => {}
            Some(toml::Value::String(spec)) => targets.push(target(&format!("crates/{name}"), spec)),
            Some(_) => {
                return Err(format!(
                    "{}: `package.metadata.xtask.spec` must be the spec's path",
                    manifest.display()
                ));
            }
        }
    }
    Ok(targets)
}
