//! `cargo xtask diff`, the command over [`crate::designer::diff`]: two
//! files, or a spec of ours at a git ref against the working tree's, or v1
//! against v2; and reading a document to compare.

use std::path::Path;

use serde_json::Value;

use crate::codegen::document::openapi31;
use crate::designer::diff::{Change, Level, base_paths, diff, major_version, summary};

const USAGE: &str = "usage: cargo xtask diff [--strict] [OLD NEW | --base GIT_REF | --versions]";

/// `cargo xtask diff OLD NEW`: any two OpenAPI 3.0 or 3.1 documents, YAML or
/// JSON; prints every change and fails on a breaking one (and, with
/// `--strict`, on a warning). Two specs of this workspace under `openapi/`
/// get the major-version rule below.
///
/// `cargo xtask diff [--base REF]`: each version's spec at a git ref against
/// the working tree's; fails on a breaking change unless `info.version`'s
/// major was bumped.
///
/// `cargo xtask diff --versions`: v1's spec against v2's; prints every
/// change (the migration list). Breaking changes are what a new major is
/// for: allowed when the major and the base path both differ.
pub fn run(root: &Path, args: &[String]) -> Result<(), String> {
    let strict = args.iter().any(|a| a == "--strict");
    let args: Vec<&String> = args.iter().filter(|a| *a != "--strict").collect();
    let base = match args.as_slice() {
        [] => default_base(root)?,
        [flag, reference] if *flag == "--base" => reference.to_string(),
        [flag] if *flag == "--versions" => return between_versions(root, strict),
        [old, new] if !old.starts_with("--") && !new.starts_with("--") => return two_files(root, old, new, strict),
        _ => return Err(USAGE.into()),
    };
    let mut failures = Vec::new();
    for spec_path in [crate::codegen::SPEC_PATH, crate::codegen::SPEC_V2_PATH] {
        if let Err(e) = against_history(root, spec_path, &base, strict) {
            failures.push(format!("{spec_path}: {e}"));
        }
    }
    match failures.is_empty() {
        true => Ok(()),
        false => Err(failures.join("\n")),
    }
}

/// Reads a document as JSON (a `.json` file, or text that starts with
/// `{`) or YAML; a 3.1 document as its 3.0 rendering, so that what an
/// upgrade from 3.0 only respells is no change.
pub fn read_document(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let json = path.extension().is_some_and(|e| e == "json") || text.trim_start().starts_with('{');
    let value: Value = match json {
        true => serde_json::from_str(&text).map_err(|e| format!("{}: invalid JSON: {e}", path.display()))?,
        false => serde_norway::from_str(&text).map_err(|e| format!("{}: invalid YAML: {e}", path.display()))?,
    };
    match value.get("openapi").and_then(Value::as_str) {
        Some(version) if version.starts_with("3.0") => Ok(value),
        Some(version) if version.starts_with("3.1") => {
            let mut yaml: serde_norway::Value = serde_json::from_value(value).map_err(|e| e.to_string())?;
            openapi31::to_30(&mut yaml, &mut |_, _| {}).map_err(|e| format!("{}: {e}", path.display()))?;
            serde_json::to_value(yaml).map_err(|e| e.to_string())
        }
        Some(version) => Err(format!(
            "{}: OpenAPI {version}: only 3.0 and 3.1 documents are compared",
            path.display()
        )),
        None => Err(format!(
            "{}: not an OpenAPI document (no `openapi` field)",
            path.display()
        )),
    }
}

fn two_files(root: &Path, old_path: &str, new_path: &str, strict: bool) -> Result<(), String> {
    let (old, new) = (read_document(Path::new(old_path))?, read_document(Path::new(new_path))?);
    println!("{old_path} ({}) -> {new_path} ({})", version(&old), version(&new));
    let changes = print_changes(&old, &new);
    let ours = |p: &str| {
        std::fs::canonicalize(p)
            .ok()
            .zip(std::fs::canonicalize(root.join("openapi")).ok())
            .is_some_and(|(file, dir)| file.starts_with(dir))
    };
    let breaking = count(&changes, Level::Breaking);
    if breaking > 0 && ours(old_path) && ours(new_path) && major_bumped(&old, &new) {
        println!("allowed: info.version's major went up (serve it under a new base path)");
        return fail_on_warnings(&changes, strict);
    }
    if breaking > 0 {
        return Err(format!(
            "{breaking} breaking change(s): clients built against {old_path} would break"
        ));
    }
    fail_on_warnings(&changes, strict)
}

fn count(changes: &[Change], level: Level) -> usize {
    changes.iter().filter(|c| c.level == level).count()
}

fn major_bumped(old: &Value, new: &Value) -> bool {
    matches!((major_version(old), major_version(new)), (Some(o), Some(n)) if n > o)
}

fn fail_on_warnings(changes: &[Change], strict: bool) -> Result<(), String> {
    match (strict, count(changes, Level::Warning)) {
        (true, warnings) if warnings > 0 => Err(format!("{warnings} warning(s), and --strict")),
        _ => Ok(()),
    }
}

fn against_history(root: &Path, spec_path: &str, base: &str, strict: bool) -> Result<(), String> {
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
    let changes = print_changes(&old, &new);
    let breaking = count(&changes, Level::Breaking);
    if breaking == 0 {
        return fail_on_warnings(&changes, strict);
    }
    if let (Some(o), Some(n)) = (major_version(&old), major_version(&new))
        && n > o
    {
        println!("allowed: info.version's major went from {o} to {n} (serve it under a new base path)");
        return fail_on_warnings(&changes, strict);
    }
    Err(format!(
        "{breaking} breaking change(s): clients built against {} would break; bump info.version's major (and the base path) or make the change compatible",
        version(&old)
    ))
}

/// v1 → v2: the list a consumer migrating reads.
fn between_versions(root: &Path, strict: bool) -> Result<(), String> {
    let (v1_path, v2_path) = (crate::codegen::SPEC_PATH, crate::codegen::SPEC_V2_PATH);
    let v1 = crate::designer::spec_json::read_checked(root, v1_path)?;
    let v2 = crate::designer::spec_json::read_checked(root, v2_path)?;
    println!("{v1_path} ({}) -> {v2_path} ({})", version(&v1), version(&v2));
    let changes = print_changes(&v1, &v2);
    let breaking = count(&changes, Level::Breaking);
    if breaking == 0 {
        return fail_on_warnings(&changes, strict);
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
        return fail_on_warnings(&changes, strict);
    }
    Err(format!(
        "{breaking} breaking change(s) between versions that share a major or a base path ({})",
        joined(&old_base)
    ))
}

fn joined(paths: &std::collections::BTreeSet<String>) -> String {
    paths.iter().map(String::as_str).collect::<Vec<_>>().join(", ")
}

/// Prints each change and the summary line; gives the changes.
fn print_changes(old: &Value, new: &Value) -> Vec<Change> {
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let changes = diff(old, new, &today);
    for change in &changes {
        println!("  {change}");
    }
    println!("{}", summary(&changes));
    changes
}

fn version(doc: &Value) -> String {
    doc.pointer("/info/version")
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_string()
}

/// The merge base with main, or HEAD when the tree is main itself (or
/// when there is no `main` to compare with, as in a detached checkout).
fn default_base(root: &Path) -> Result<String, String> {
    let branch = git(root, &["rev-parse", "--abbrev-ref", "HEAD"])?;
    if branch.trim() == "main" {
        return Ok("HEAD".into());
    }
    match git(root, &["merge-base", "HEAD", "main"]) {
        Ok(base) => Ok(base.trim().to_string()),
        Err(_) => Ok("HEAD".into()),
    }
}

fn git(root: &Path, args: &[&str]) -> Result<String, String> {
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
