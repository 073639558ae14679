//! One build of each dependency, whichever members a command names.
//!
//! Cargo resolves a dependency's features from the members a command
//! builds, so without `crates/workspace-hack` the `cargo run -p xtask` of
//! `cargo xtask`, the `cargo build -p petstore-server` of the CI scripts and
//! `cargo test --workspace` each built tokio, serde_json and what sits on
//! them with features of their own, three times. The rule: every member
//! alone, with or without its dev-dependencies, builds each package of its
//! graph with the features the whole workspace builds it with. Single
//! members suffice: a set of members asks for the union of their features,
//! and each is already the workspace's.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use super::workspace_root;

/// Each package of a `cargo tree` as `name version [features]`, host and
/// target builds alike, the members left out.
fn built_packages(output: Output, members: &[String]) -> BTreeSet<String> {
    assert!(
        output.status.success(),
        "cargo tree: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| without_local_path(&line.replace(" (*)", "").replace(" (proc-macro)", "")))
        .filter(|line| {
            let name = line.split(' ').next().unwrap_or_default();
            !line.is_empty() && !members.iter().any(|member| member == name)
        })
        .collect()
}

/// `shared v0.1.0 (/tmp/w/shared) []` as `shared v0.1.0 []`: where a
/// path dependency sits is not how it is built.
fn without_local_path(line: &str) -> String {
    match line.find(" (/") {
        Some(start) => match line[start..].find(')') {
            Some(end) => format!("{}{}", &line[..start], &line[start + end + 1..]),
            None => line.to_string(),
        },
        None => line.to_string(),
    }
}

fn cargo(root: &Path) -> Command {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    command.current_dir(root);
    command
}

fn tree(root: &Path, selection: &[&str], edges: &str) -> Command {
    let mut command = cargo(root);
    command
        .args([
            "tree",
            "--offline",
            "--prefix",
            "none",
            "--format",
            "{p} [{f}]",
            "-e",
            edges,
        ])
        .args(selection);
    command
}

fn members(root: &Path) -> Vec<String> {
    let output = cargo(root)
        .args(["metadata", "--offline", "--no-deps", "--format-version", "1"])
        .output()
        .unwrap();
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|package| package["name"].as_str().unwrap().to_string())
        .collect()
}

/// Each member alone, with and without dev-dependencies: the packages it
/// builds with features the workspace does not build them with.
fn built_unlike_the_workspace(root: &Path) -> Vec<String> {
    let members = members(root);
    let workspace = built_packages(
        tree(root, &["--workspace"], "normal,build,dev").output().unwrap(),
        &members,
    );
    // Started together: each `cargo tree` is a fifth of a second, mostly
    // its own start.
    let runs: Vec<(String, &str, std::process::Child)> = members
        .iter()
        .flat_map(|member| ["normal,build", "normal,build,dev"].map(|edges| (member.clone(), edges)))
        .map(|(member, edges)| {
            let child = tree(root, &["--package", &member], edges)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            (member, edges, child)
        })
        .collect();
    let mut differing = Vec::new();
    for (member, edges, child) in runs {
        for package in built_packages(child.wait_with_output().unwrap(), &members) {
            if !workspace.contains(&package) {
                differing.push(format!("{member} (-e {edges}): {package}"));
            }
        }
    }
    differing
}

#[test]
fn every_member_alone_builds_its_dependencies_as_the_workspace_does() {
    let differing = built_unlike_the_workspace(&workspace_root());
    assert!(
        differing.is_empty(),
        "these members alone build a dependency with other features than the workspace does, \
         so each command that names them builds it again: run `cargo hakari generate` \
         (cargo install cargo-hakari) and `cargo hakari manage-deps`:\n{}",
        differing.join("\n")
    );
}

#[test]
fn a_member_that_builds_a_dependency_with_fewer_features_is_named() {
    // A planted workspace, path dependencies only: `wide` asks `shared`
    // (outside the workspace's folder, so not a member) for a feature,
    // `narrow` does not.
    let dir = std::env::temp_dir().join(format!("tidy-features-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let package = |path: &str, dependencies: &str| {
        let name = path.rsplit('/').next().unwrap();
        std::fs::create_dir_all(dir.join(path).join("src")).unwrap();
        std::fs::write(dir.join(path).join("src/lib.rs"), "").unwrap();
        std::fs::write(
            dir.join(path).join("Cargo.toml"),
            format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n{dependencies}"),
        )
        .unwrap();
    };
    package("shared", "[features]\nextra = []\n");
    package(
        "workspace/wide",
        "[dependencies]\nshared = { path = \"../../shared\", features = [\"extra\"] }\n",
    );
    package(
        "workspace/narrow",
        "[dependencies]\nshared = { path = \"../../shared\" }\n",
    );
    std::fs::write(
        dir.join("workspace/Cargo.toml"),
        "[workspace]\nresolver = \"2\"\nmembers = [\"wide\", \"narrow\"]\n",
    )
    .unwrap();
    let differing = built_unlike_the_workspace(&dir.join("workspace"));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        differing,
        [
            "narrow (-e normal,build): shared v0.1.0 []",
            "narrow (-e normal,build,dev): shared v0.1.0 []"
        ]
    );
}
