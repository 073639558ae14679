//! `cargo xtask try FILE...`: whether documents generate, without writing
//! anything. Each document is generated in memory as a target of its own
//! would be, and one line says what came of it; a designer sees before
//! adding a target whether their document maps, and what it leaves out.
//! `--summary DIR` tries a whole directory ([`summary`]); `--build DIR`
//! compiles what a sample of one generates ([`sample_build`]).

mod classes;
mod record;
mod sample_build;
mod summary;

use std::path::Path;

use super::{Generated, designer_targets, generate_per_operation, read_list};
use record::{Outcome, Record};

/// Generates each document and prints its summary; fails when any is
/// refused whole. `--summary DIR [...]`: every document under DIR, one
/// table; `--record FILE`: one document's record, for `--summary`.
pub fn run(root: &Path, files: &[String]) -> Result<(), String> {
    match files.first().map(String::as_str) {
        None => return Err("usage: cargo xtask try FILE... | --summary DIR [options]".into()),
        Some("--summary") => return summary::run(&summary::Options::parse(&files[1..])?),
        Some("--build") => return sample_build::run(root, &files[1..]),
        Some("--record") => {
            let [_, file] = files else {
                return Err("usage: cargo xtask try --record FILE".into());
            };
            println!("{}", record_of(root, file).line());
            return Ok(());
        }
        Some(_) => {}
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

/// One document's record: what it gave, or why it gave nothing.
fn record_of(root: &Path, file: &str) -> Record {
    let text = std::fs::read_to_string(root.join(file)).unwrap_or_default();
    let (version, operations) = record::version_and_operations(&text);
    let outcome = match generate(root, file) {
        Ok(generated) => Outcome::Generated {
            mapped: generated.operations,
            listed: generated.left_out.len(),
            refused: generated
                .refused
                .iter()
                .map(|r| (r.operation.clone(), r.reason.clone()))
                .collect(),
            tolerated: generated.tolerated.len(),
            degraded: generated.degraded.len(),
        },
        Err(message) => Outcome::Refused(message),
    };
    Record {
        file: file.to_string(),
        version,
        operations,
        outcome,
    }
}

/// The document generated as `cargo xtask new` would make it a target,
/// or why not.
fn generate(root: &Path, file: &str) -> Result<Generated, String> {
    let path = root.join(file);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let target = designer_targets::target("crates/try", file);
    let list = read_list(root, file)?;
    let list = list.as_ref().map(|(path, text)| (path.as_str(), text.as_str()));
    std::panic::catch_unwind(|| generate_per_operation(&target, &text, list))
        .map_err(|_| "the generator panicked".to_string())?
        .map_err(|errors| errors.to_string())
}

fn try_one(root: &Path, file: &str) -> Result<String, String> {
    match generate(root, file) {
        Ok(generated) => {
            for tolerated in &generated.tolerated {
                println!("  warning: tolerated: {tolerated}");
            }
            for (name, why) in &generated.degraded {
                println!("  warning: degraded: {name}: {}", super::degradation(why));
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
        Err(message) => Err(message),
    }
}
