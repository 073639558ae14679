//! `cargo xtask generate` writes the generated crates' code from the spec;
//! `cargo xtask check` fails when the committed code is stale.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use xtask::codegen;

const USAGE: &str = "usage: cargo xtask <generate | check | new | try | diff | lint | docs | soak | bench> [options]\n\n  \
    generate  regenerate the client and server code from each spec (v1, v2, the kitchen sink)\n  \
    new       NAME --spec FILE: a service crate (crates/NAME) generated from your document, every handler\n              answering 501 until written; generate and check keep it from then on\n  \
    try       FILE...: generate each document in memory (nothing written); print operations mapped and\n              left out, warnings, and the refused operations as a leave-out list\n  \
    check     fail (with a diff) when the committed generated code is stale\n  \
    diff      [--strict] OLD NEW | --base GIT_REF | --versions: every change, breaking, warning or compatible\n              (fails on a breaking one; --strict: on a warning too), between two files, since a ref, or v1 -> v2\n  \
    bench     [--quick | --costs | --check | --link-order] benchmark against the limit, the dropshot floor and a\n              hand-written server; writes BENCHMARKS.md (--costs: the cost table alone; --check: CI's release\n              check; --link-order: write crates/petstore-server/link-order.txt, with valgrind)\n  \
    docs      [--check] render the API references to target/docs/ (v1, and v2 in v2/; --check: in Chromium)\n  \
    lint      [FILE...] check both versions' specs against our design rules (errors fail, warnings print);\n              FILE...: anyone's document, the rules and what the generator tolerates, degrades and\n              refuses named as warnings (a document refused whole, as an error)\n  \
    soak      mixed load against a real server; fails on 5xx, connection errors or RSS growth\n            \
    [--seconds 60] [--warmup 10] [--connections 64] [--debug]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["generate"] => generate(&workspace_root()),
        ["check"] => check(&workspace_root()),
        ["diff", rest @ ..] => {
            let rest: Vec<String> = rest.iter().map(|s| s.to_string()).collect();
            xtask::designer::diff_command::run(&workspace_root(), &rest)
        }
        ["new", rest @ ..] => {
            let rest: Vec<String> = rest.iter().map(|s| s.to_string()).collect();
            xtask::designer::new_service::run(&workspace_root(), &rest)
        }
        ["try", files @ ..] => {
            let files: Vec<String> = files.iter().map(|s| s.to_string()).collect();
            codegen::try_spec::run(&workspace_root(), &files)
        }
        ["lint", files @ ..] => {
            let files: Vec<String> = files.iter().map(|s| s.to_string()).collect();
            xtask::designer::lint::run(&workspace_root(), &files)
        }
        ["bench", rest @ ..] => {
            let rest: Vec<String> = rest.iter().map(|s| s.to_string()).collect();
            xtask::load::bench::run(&workspace_root(), &rest)
        }
        ["docs", rest @ ..] => {
            let rest: Vec<String> = rest.iter().map(|s| s.to_string()).collect();
            xtask::designer::docs::run(&workspace_root(), &rest)
        }
        ["soak", rest @ ..] => {
            let rest: Vec<String> = rest.iter().map(|s| s.to_string()).collect();
            xtask::load::soak::SoakOptions::parse(&rest)
                .and_then(|options| xtask::load::soak::run(&workspace_root(), &options))
        }
        ["help" | "--help" | "-h"] => {
            println!("{USAGE}");
            Ok(())
        }
        _ => Err(format!("unknown arguments {args:?}\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root: xtask lives one level below it.
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is inside the workspace")
        .to_path_buf()
}

fn generate(root: &Path) -> Result<(), String> {
    let cache = codegen::generation_cache::cache_dir(root);
    let (files, notes) = codegen::generate_workspace_noting(root, Some(&cache))?;
    let stale = codegen::stale_files(root, &files);
    for file in &files {
        if stale.iter().any(|s| s.path == file.path) {
            let path = root.join(&file.path);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
            }
            std::fs::write(&path, &file.contents).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            println!("wrote {}", file.path.display());
        } else {
            println!("unchanged {}", file.path.display());
        }
    }
    // What no spec generates any more goes (a corpus document removed).
    for orphan in codegen::orphaned_files(root, &files) {
        let path = root.join(&orphan);
        std::fs::remove_file(&path).map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
        if let Some(parent) = path.parent() {
            // Only if empty: what else is there stays.
            let _ = std::fs::remove_dir(parent);
        }
        println!("removed {}: no spec generates it", orphan.display());
    }
    // A crate the generated code now uses is added to its manifest.
    for missing in codegen::dependencies::missing(root, &files) {
        let path = root.join(&missing.manifest);
        std::fs::write(&path, &missing.updated).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!(
            "wrote {}: the generated code uses {}",
            missing.manifest.display(),
            missing.packages.join(", ")
        );
    }
    // Never silently: what a leave-out list kept out of the code, what
    // the generator refused, and a designer target's summary.
    for note in &notes {
        println!("{note}");
    }
    Ok(())
}

fn check(root: &Path) -> Result<(), String> {
    let files = codegen::generate_workspace(root)?;
    let stale = codegen::stale_files(root, &files);
    let missing = codegen::dependencies::missing(root, &files);
    for missing in &missing {
        eprintln!(
            "{}: the generated code uses {}, which it does not list",
            missing.manifest.display(),
            missing.packages.join(", ")
        );
    }
    if !missing.is_empty() {
        return Err("a generated crate lacks a dependency its code uses: run `cargo xtask generate`".into());
    }
    let orphans = codegen::orphaned_files(root, &files);
    for orphan in &orphans {
        eprintln!("{}: generated, but no spec generates it any more", orphan.display());
    }
    if !orphans.is_empty() {
        return Err("generated files are left behind: run `cargo xtask generate` (which removes them)".into());
    }
    if stale.is_empty() {
        let specs: Vec<&str> = codegen::TARGETS.iter().map(|t| &*t.spec).collect();
        println!(
            "generated code is up to date with {} and the corpus ({})",
            specs.join(", "),
            codegen::corpus::CORPUS_DIR
        );
        return Ok(());
    }
    for file in &stale {
        eprintln!("{}", file.diff);
    }
    let names: Vec<String> = stale.iter().map(|s| s.path.display().to_string()).collect();
    Err(format!(
        "generated code is stale ({}): run `cargo xtask generate` and commit the result",
        names.join(", ")
    ))
}
