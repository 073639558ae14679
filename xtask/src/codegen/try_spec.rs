//! `cargo xtask try FILE...`: whether documents generate, without writing
//! anything. Each document is generated in memory as a target of its own
//! would be, and one line says what came of it; a designer sees before
//! adding a target whether their document maps, and what it leaves out.

use std::path::Path;

use super::{designer_targets, generate_per_operation, read_list};

/// Generates each document and prints its summary; fails when any is
/// refused whole.
pub fn run(root: &Path, files: &[String]) -> Result<(), String> {
    if files.is_empty() {
        return Err("usage: cargo xtask try FILE...".into());
    }
    let mut refused = 0;
    for file in files {
        match try_one(root, file) {
            Ok(line) => println!("{file}: {line}"),
            Err(message) => {
                refused += 1;
                println!("{file}: refused: {message}");
            }
        }
    }
    match refused {
        0 => Ok(()),
        n => Err(format!("{n} of {} documents refused", files.len())),
    }
}

fn try_one(root: &Path, file: &str) -> Result<String, String> {
    let path = root.join(file);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    // Generated as `cargo xtask new` would make it a target.
    let target = designer_targets::target("crates/try", file);
    let list = read_list(root, file)?;
    let list = list.as_ref().map(|(path, text)| (path.as_str(), text.as_str()));
    let outcome = std::panic::catch_unwind(|| generate_per_operation(&target, &text, list))
        .map_err(|_| "the generator panicked".to_string())?;
    match outcome {
        Ok(generated) => {
            for tolerated in &generated.tolerated {
                println!("  warning: tolerated: {tolerated}");
            }
            for (name, why) in &generated.degraded {
                println!(
                    "  warning: degraded: components.schemas.{name}: any JSON value in Rust (validated as written): {why}"
                );
            }
            if !generated.refused.is_empty() {
                println!("  refused operations, as a leave-out list ready to paste beside the spec:");
                for refused in &generated.refused {
                    let (method, path) = refused.method_and_path().unwrap_or_default();
                    println!("  - operation: {method} {path}");
                    println!("    reason: {}", serde_json::Value::String(refused.reason.clone()));
                }
            }
            Ok(generated.summary())
        }
        Err(errors) => Err(errors.to_string()),
    }
}
