//! The command: the spec at a git ref against the workspace's.

use serde_json::Value;

use super::{Compatibility, diff, major_version};

/// `cargo xtask diff [--base REF]`: prints every change and fails on a
/// breaking one unless `info.version`'s major was bumped.
pub fn run(root: &std::path::Path, args: &[String]) -> Result<(), String> {
    let base = match args {
        [] => default_base(root)?,
        [flag, reference] if flag == "--base" => reference.clone(),
        _ => return Err("usage: cargo xtask diff [--base GIT_REF]".into()),
    };
    let spec_path = crate::codegen::SPEC_PATH;
    let new = crate::designer::spec_json::read_checked(root, spec_path)?;
    let old: Value = match git(root, &["show", &format!("{base}:{spec_path}")]) {
        Ok(text) => serde_norway::from_str(&text).map_err(|e| format!("{spec_path} at {base}: {e}"))?,
        // Not there yet: everything is new.
        Err(_) => serde_json::json!({"openapi": "3.0.3", "info": {"version": "0.0.0"}, "paths": {}}),
    };
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let changes = diff(&old, &new, &today);
    let version = |doc: &Value| {
        doc.pointer("/info/version")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string()
    };
    println!(
        "{spec_path}: {base} ({}) -> working tree ({})",
        version(&old),
        version(&new)
    );
    for change in &changes {
        println!("  {change}");
    }
    let breaking = changes
        .iter()
        .filter(|c| c.compatibility == Compatibility::Breaking)
        .count();
    println!("{breaking} breaking, {} compatible", changes.len() - breaking);
    if breaking == 0 {
        return Ok(());
    }
    let (old_major, new_major) = (major_version(&old), major_version(&new));
    if let (Some(o), Some(n)) = (old_major, new_major)
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
