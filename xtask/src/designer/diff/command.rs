//! The command: the spec at a git ref against the workspace's.

use serde_json::Value;

use super::{Compatibility, base_paths, diff, major_version};

/// `cargo xtask diff [--base REF]`: each version's spec at a git ref against
/// the working tree's; prints every change and fails on a breaking one
/// unless `info.version`'s major was bumped.
///
/// `cargo xtask diff --versions`: v1's spec against v2's; prints every
/// change (the migration list). Breaking changes are what a new major is
/// for: allowed when the major and the base path both differ.
pub fn run(root: &std::path::Path, args: &[String]) -> Result<(), String> {
    let base = match args {
        [] => default_base(root)?,
        [flag, reference] if flag == "--base" => reference.clone(),
        [flag] if flag == "--versions" => return between_versions(root),
        _ => return Err("usage: cargo xtask diff [--base GIT_REF | --versions]".into()),
    };
    let mut failures = Vec::new();
    for spec_path in [crate::codegen::SPEC_PATH, crate::codegen::SPEC_V2_PATH] {
        if let Err(e) = against_history(root, spec_path, &base) {
            failures.push(format!("{spec_path}: {e}"));
        }
    }
    match failures.is_empty() {
        true => Ok(()),
        false => Err(failures.join("\n")),
    }
}

fn against_history(root: &std::path::Path, spec_path: &str, base: &str) -> Result<(), String> {
    let new = crate::designer::spec_json::read_checked(root, spec_path)?;
    let old: Value = match git(root, &["show", &format!("{base}:{spec_path}")]) {
        Ok(text) => serde_norway::from_str(&text).map_err(|e| format!("{spec_path} at {base}: {e}"))?,
        // Not there yet: everything is new.
        Err(_) => serde_json::json!({"openapi": "3.0.3", "info": {"version": "0.0.0"}, "paths": {}}),
    };
    println!(
        "{spec_path}: {base} ({}) -> working tree ({})",
        version(&old),
        version(&new)
    );
    let breaking = print_changes(&old, &new);
    if breaking == 0 {
        return Ok(());
    }
    if let (Some(o), Some(n)) = (major_version(&old), major_version(&new))
        && n > o
    {
        println!("allowed: info.version's major went from {o} to {n} (serve it under a new base path)");
        return Ok(());
    }
    Err(format!(
        "{breaking} breaking change(s): clients built against {} would break; bump info.version's major (and the base path) or make the change compatible",
        version(&old)
    ))
}

/// v1 → v2: the list a consumer migrating reads.
fn between_versions(root: &std::path::Path) -> Result<(), String> {
    let (v1_path, v2_path) = (crate::codegen::SPEC_PATH, crate::codegen::SPEC_V2_PATH);
    let v1 = crate::designer::spec_json::read_checked(root, v1_path)?;
    let v2 = crate::designer::spec_json::read_checked(root, v2_path)?;
    println!("{v1_path} ({}) -> {v2_path} ({})", version(&v1), version(&v2));
    let breaking = print_changes(&v1, &v2);
    if breaking == 0 {
        return Ok(());
    }
    let majors_differ = matches!((major_version(&v1), major_version(&v2)), (Some(o), Some(n)) if n > o);
    let (old_base, new_base) = (base_paths(&v1), base_paths(&v2));
    if majors_differ && old_base != new_base {
        println!(
            "allowed: a new major ({}) under its own base path ({}; v1 at {})",
            version(&v2),
            joined(&new_base),
            joined(&old_base)
        );
        return Ok(());
    }
    Err(format!(
        "{breaking} breaking change(s) between versions that share a major or a base path ({})",
        joined(&old_base)
    ))
}

fn joined(paths: &std::collections::BTreeSet<String>) -> String {
    paths.iter().map(String::as_str).collect::<Vec<_>>().join(", ")
}

/// Prints each change and gives how many are breaking.
fn print_changes(old: &Value, new: &Value) -> usize {
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let changes = diff(old, new, &today);
    for change in &changes {
        println!("  {change}");
    }
    let breaking = changes
        .iter()
        .filter(|c| c.compatibility == Compatibility::Breaking)
        .count();
    println!("{breaking} breaking, {} compatible", changes.len() - breaking);
    breaking
}

fn version(doc: &Value) -> String {
    doc.pointer("/info/version")
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_string()
}

/// The merge base with main, or HEAD when the tree is main itself (or
/// when there is no `main` to compare with, as in a detached checkout).
fn default_base(root: &std::path::Path) -> Result<String, String> {
    let branch = git(root, &["rev-parse", "--abbrev-ref", "HEAD"])?;
    if branch.trim() == "main" {
        return Ok("HEAD".into());
    }
    match git(root, &["merge-base", "HEAD", "main"]) {
        Ok(base) => Ok(base.trim().to_string()),
        Err(_) => Ok("HEAD".into()),
    }
}

fn git(root: &std::path::Path, args: &[&str]) -> Result<String, String> {
    let output = std::process::Command::new("git")
        .current_dir(root)
        .args(args)
        .output()
        .map_err(|e| format!("git: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}
