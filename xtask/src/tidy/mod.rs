//! The workspace's habits, checked by `cargo test` (as rust-analyzer's
//! `xtask/src/tidy.rs`): each rule a test over every hand-written file, so
//! that a habit does not depend on a reviewer remembering it.
//!
//! Hand-written means under `crates/`, `xtask/` or `tests/`, outside build
//! output and installed tools, and without the `@generated` header that
//! every generated file starts with.

mod circles;
mod code;
mod features;
mod functions;
mod layers;
mod links;
mod paths;

use std::path::{Path, PathBuf};

/// The longest a hand-written source file may be. Past it a file holds
/// more than one concern, or one too big to read whole.
const MAX_LINES: usize = 400;

/// The files allowed past [`MAX_LINES`] (at most five), each with why it is
/// one piece.
const LONG_FILES: &[(&str, &str)] = &[
    (
        "crates/kitchen-sink/src/service/mod.rs",
        "the one impl of the generated handlers trait, a method per operation: a trait impl is one block",
    ),
    (
        "xtask/tests/integration/constructs.rs",
        "a catalog: one small document per construct the generator maps, read beside the construct table",
    ),
    (
        "xtask/tests/integration/corpus/classes.rs",
        "a catalog: one small document per class of real-document mistake, each tolerated, degraded or refused",
    ),
    (
        "crates/json-schema-suite/src/service.rs",
        "written by `cargo xtask new`: one unwritten handler per group of the JSON Schema Test Suite, in one trait impl",
    ),
    (
        "xtask/tests/integration/diff_each_rule.rs",
        "a catalog: one pair of small documents per rule of `cargo xtask diff`, read beside the rules",
    ),
];

/// Folders never walked: build output, installed tools and packages, and
/// inputs that are data rather than source.
const SKIPPED_FOLDERS: &[&str] = &[
    "target",
    "node_modules",
    ".tools",
    "fixtures",
    "snapshots",
    ".venv",
    "__pycache__",
];

/// Source files by extension: Rust, and the scripts CI and the tests run.
const SOURCE_EXTENSIONS: &[&str] = &["rs", "sh", "py", "mjs"];

pub(crate) fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Every hand-written source file, relative to the workspace, sorted.
fn hand_written_sources() -> Vec<String> {
    let root = workspace_root();
    let mut files = Vec::new();
    for top in ["crates", "xtask", "tests", ".ci"] {
        walk(&root.join(top), &mut files);
    }
    let mut sources: Vec<String> = files
        .into_iter()
        .filter(|path| {
            let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            SOURCE_EXTENSIONS.contains(&extension) || path.ends_with(".ci/run")
        })
        .filter(|path| !is_generated(path))
        .map(|path| path.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/"))
        .collect();
    sources.sort();
    sources
}

fn walk(folder: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(folder) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !SKIPPED_FOLDERS.contains(&name.as_str()) {
                walk(&path, files);
            }
        } else {
            files.push(path);
        }
    }
}

fn is_generated(path: &Path) -> bool {
    says_generated(&std::fs::read_to_string(path).unwrap_or_default())
}

/// A generated file says so in its first lines, as a comment that opens
/// with the marker (`// @generated ...`, `# @generated ...`); a doc that
/// only mentions the marker is hand-written.
fn says_generated(text: &str) -> bool {
    text.lines().take(3).any(|line| {
        let line = line.trim_start();
        ["//", "#", "/*"]
            .iter()
            .find_map(|marker| line.strip_prefix(marker))
            .is_some_and(|comment| comment.trim_start().starts_with("@generated"))
    })
}

fn read(relative: &str) -> String {
    std::fs::read_to_string(workspace_root().join(relative)).unwrap()
}

/// Fails with every offender at once, so one run lists all there is to fix.
fn assert_none(rule: &str, offenders: Vec<String>) {
    assert!(offenders.is_empty(), "{rule}:\n  {}", offenders.join("\n  "));
}

#[test]
fn every_hand_written_rust_file_starts_with_its_module_doc() {
    let offenders = hand_written_sources()
        .into_iter()
        .filter(|path| path.ends_with(".rs"))
        .filter(|path| !read(path).starts_with("//!"))
        .collect();
    assert_none(
        "these files do not start with a `//!` comment saying what they hold",
        offenders,
    );
}

/// How a file is named in ARCHITECTURE.md: `name.rs` by its file name; a
/// folder's `mod.rs` or `main.rs` by the folder (`name/`); a crate's root
/// (`src/lib.rs`, `src/main.rs`) by the crate's folder.
fn name_in_architecture(path: &str) -> String {
    let parts: Vec<&str> = path.split('/').collect();
    let file = *parts.last().unwrap();
    let parent = parts[parts.len() - 2];
    match file {
        "mod.rs" | "main.rs" | "lib.rs" if parent == "src" => format!("{}/", parts[..parts.len() - 2].join("/")),
        "mod.rs" | "main.rs" => format!("{parent}/"),
        _ => file.to_string(),
    }
}

#[test]
fn every_hand_written_source_file_is_named_in_architecture_md() {
    let architecture = read("ARCHITECTURE.md");
    let offenders = hand_written_sources()
        .into_iter()
        .filter(|path| !architecture.contains(&name_in_architecture(path)))
        .map(|path| format!("{path} (as `{}`)", name_in_architecture(&path)))
        .collect();
    assert_none("ARCHITECTURE.md does not name these files", offenders);
}

#[test]
fn no_hand_written_source_file_is_over_the_line_limit() {
    assert!(
        LONG_FILES.len() <= 5,
        "at most five files may be allowed past {MAX_LINES} lines"
    );
    let offenders = hand_written_sources()
        .into_iter()
        .filter(|path| !LONG_FILES.iter().any(|(allowed, _)| allowed == path))
        .filter_map(|path| {
            let lines = read(&path).lines().count();
            (lines > MAX_LINES).then(|| format!("{path}: {lines} lines"))
        })
        .collect();
    assert_none(
        &format!("these files are over {MAX_LINES} lines (split them by concern)"),
        offenders,
    );
}

#[test]
fn the_allowed_long_files_exist_and_are_still_long() {
    let offenders = LONG_FILES
        .iter()
        .filter(|(path, _)| {
            let text = std::fs::read_to_string(workspace_root().join(path)).unwrap_or_default();
            text.lines().count() <= MAX_LINES
        })
        .map(|(path, _)| path.to_string())
        .collect();
    assert_none(
        "these allowed long files are gone or short now: take them off LONG_FILES",
        offenders,
    );
}

/// The files that may use `unsafe`, each with why no safe interface does
/// the job.
const UNSAFE_FILES: &[(&str, &str)] = &[(
    "crates/petstore-server/src/storage/sqlite/wal_index.rs",
    "maps SQLite's -shm and reads its header with volatile reads: a system call a request fewer",
)];

#[test]
fn unsafe_code_is_confined() {
    let offenders = hand_written_sources()
        .into_iter()
        .filter(|path| path.ends_with(".rs"))
        .filter(|path| !UNSAFE_FILES.iter().any(|(allowed, _)| allowed == path))
        .filter(|path| {
            let code = code::blanked(&read(path));
            code.contains("allow(unsafe_code)")
                || code
                    .split(|c: char| !c.is_alphanumeric() && c != '_')
                    .any(|word| word == "unsafe")
        })
        .collect();
    assert_none(
        "these files use `unsafe` or allow it; the workspace denies it but for UNSAFE_FILES",
        offenders,
    );
}
