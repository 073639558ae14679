//! `cargo xtask try --build DIR [--sample N] [--seed S]`: whether the code
//! documents generate compiles, on a random sample of a directory (not
//! CI: a few hundred documents take a while). Each document is generated
//! as the corpus's are, into shard crates of a scratch workspace under
//! `target/try-build/` (its own workspace, with this one's dependencies,
//! lock file and target directory, so that nothing already built is built
//! again), which `cargo build` compiles; each compiler error is put down
//! to the document whose file it is in.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use heck::ToSnakeCase;

use crate::codegen::{ClientCredentials, ClientInterface, Target, generate_per_operation};

/// Documents per shard crate, and their generated code at most (a
/// document over it has a shard of its own): rustc takes about 2 GB per
/// MB of generated code, so that a shard compiles in a few GB.
const PER_SHARD: usize = 12;
const SHARD_BYTES: u64 = 2 << 20;

/// A document whose generated code is larger is not built here (rustc
/// would need more than this machine's memory); the report says so.
const BUILDABLE_BYTES: u64 = 8 << 20;

const USAGE: &str = "usage: cargo xtask try --build DIR [--sample N] [--seed S]";

/// What to build.
struct Options {
    dir: PathBuf,
    sample: Option<usize>,
    seed: u64,
}

impl Options {
    fn parse(args: &[String]) -> Result<Options, String> {
        let mut options = Options {
            dir: PathBuf::new(),
            sample: None,
            seed: 1,
        };
        let mut dir = None;
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            let mut number = |name: &str| {
                let text = args.next().ok_or_else(|| format!("{name} needs a value\n{USAGE}"))?;
                text.parse::<u64>()
                    .map_err(|_| format!("{name} takes a whole number, not `{text}`\n{USAGE}"))
            };
            match arg.as_str() {
                "--sample" => options.sample = Some(number("--sample")? as usize),
                "--seed" => options.seed = number("--seed")?,
                flag if flag.starts_with("--") => return Err(format!("unknown option {flag}\n{USAGE}")),
                path if dir.is_none() => dir = Some(PathBuf::from(path)),
                extra => return Err(format!("one directory only, not also `{extra}`\n{USAGE}")),
            }
        }
        options.dir = dir.ok_or_else(|| USAGE.to_string())?;
        Ok(options)
    }
}

/// Generates the sample into the scratch workspace, builds it, and says
/// which documents' code does not compile, and why.
pub(super) fn run(root: &Path, args: &[String]) -> Result<(), String> {
    let options = Options::parse(args)?;
    let mut files = super::summary::documents(&options.dir)?;
    if let Some(n) = options.sample {
        shuffle(&mut files, options.seed);
        files.truncate(n);
        files.sort();
    }
    let out = root.join("target/try-build");
    let _ = std::fs::remove_dir_all(&out);
    let mut modules: BTreeMap<String, String> = BTreeMap::new();
    let mut shards: Vec<Vec<String>> = Vec::new();
    let mut not_generated = Vec::new();
    let mut too_large = Vec::new();
    let mut shard_bytes = 0;
    for file in &files {
        let module = module_name(file, &modules);
        // Generated into the shard being filled, moved to a new one when
        // it would make that shard too large.
        let shard = shards.len().saturating_sub(1);
        let crate_dir = format!("shard-{shard}");
        match generate(&out, &crate_dir, &module, file) {
            Ok(bytes) if bytes > BUILDABLE_BYTES => {
                let _ = std::fs::remove_dir_all(out.join(&crate_dir).join("src/specs").join(&module));
                too_large.push(format!("{}: {} MB of generated code", file.display(), bytes >> 20));
            }
            Ok(bytes) => {
                let full = shards.last().is_none_or(|last| {
                    !last.is_empty() && (last.len() >= PER_SHARD || shard_bytes + bytes > SHARD_BYTES)
                });
                if full {
                    shards.push(Vec::new());
                    shard_bytes = 0;
                    let moved = format!("shard-{}", shards.len() - 1);
                    if moved != crate_dir {
                        let to = out.join(&moved).join("src/specs");
                        std::fs::create_dir_all(&to)
                            .and_then(|()| {
                                std::fs::rename(out.join(&crate_dir).join("src/specs").join(&module), to.join(&module))
                            })
                            .map_err(|e| format!("cannot move {module} to {moved}: {e}"))?;
                    }
                }
                shard_bytes += bytes;
                shards.last_mut().expect("one at least").push(module.clone());
                modules.insert(module, file.display().to_string());
            }
            Err(why) => not_generated.push(format!("{}: {why}", file.display())),
        }
    }
    write_workspace(root, &out, &shards)?;
    eprintln!(
        "building {} documents in {} shards under {} ...",
        modules.len(),
        shards.len(),
        out.display()
    );
    let errors = build(root, &out)?;
    let mut failing: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (path, message) in &errors {
        let module = path.split("/specs/").nth(1).and_then(|rest| rest.split('/').next());
        let document = module
            .and_then(|m| modules.get(m))
            .map_or(path.as_str(), String::as_str);
        failing.entry(document).or_default().push(message.clone());
    }
    println!(
        "{} documents sampled (seed {}), {} generated, {} built, {} failed to build",
        files.len(),
        options.seed,
        modules.len(),
        modules.len() - failing.len().min(modules.len()),
        failing.len()
    );
    for line in &not_generated {
        println!("not generated: {line}");
    }
    for line in &too_large {
        println!(
            "not built (over {} MB of generated code): {line}",
            BUILDABLE_BYTES >> 20
        );
    }
    for (document, messages) in &failing {
        println!("does not compile: {document}");
        let mut messages = messages.clone();
        messages.sort();
        messages.dedup();
        for message in messages.iter().take(5) {
            println!("  {message}");
        }
    }
    match (failing.len(), not_generated.len()) {
        (0, 0) => Ok(()),
        (f, n) => Err(format!("{f} document(s) do not compile, {n} did not generate")),
    }
}

/// A module name for `file`, unique among `taken`.
fn module_name(file: &Path, taken: &BTreeMap<String, String>) -> String {
    let stem = file.to_string_lossy().to_snake_case();
    let stem: String = stem
        .chars()
        .rev()
        .take(60)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let mut name = format!("doc_{}", stem.trim_start_matches('_'));
    let mut n = 1;
    while taken.contains_key(&name) {
        n += 1;
        name = format!("doc_{}_{n}", stem.trim_start_matches('_'));
    }
    name
}

/// The document's contract and client, written as a corpus shard's.
/// Generates `file` into the shard `crate_dir` as `module`; the bytes of
/// code written.
fn generate(out: &Path, crate_dir: &str, module: &str, file: &Path) -> Result<u64, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read it: {e}"))?;
    let target = Target {
        spec: Cow::Owned(file.display().to_string()),
        client: Cow::Owned(format!("{crate_dir}/src/specs/{module}/client.rs")),
        mocks: None,
        client_module: "crate",
        server: Cow::Owned(format!("{crate_dir}/src/specs/{module}/api.rs")),
        credentials: ClientCredentials::Generated,
        interface: ClientInterface::Positional,
    };
    let generated = std::panic::catch_unwind(|| generate_per_operation(&target, &text, None))
        .map_err(|_| "the generator panicked".to_string())?
        .map_err(|e| e.to_string())?;
    let mut bytes = 0;
    for file in generated.files {
        let path = out.join(&file.path);
        bytes += file.contents.len() as u64;
        std::fs::create_dir_all(path.parent().expect("a file in a folder"))
            .and_then(|()| std::fs::write(&path, file.contents))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(bytes)
}

/// The scratch workspace's manifest (this one's dependencies and
/// profiles, its paths made absolute), lock file, and each shard crate.
fn write_workspace(root: &Path, out: &Path, shards: &[Vec<String>]) -> Result<(), String> {
    let read = |path: &str| std::fs::read_to_string(root.join(path)).map_err(|e| format!("cannot read {path}: {e}"));
    let mut manifest: toml::Table = toml::from_str(&read("Cargo.toml")?).map_err(|e| e.to_string())?;
    let workspace = manifest
        .get_mut("workspace")
        .and_then(toml::Value::as_table_mut)
        .ok_or("Cargo.toml has no [workspace]")?;
    let members: Vec<toml::Value> = (0..shards.len())
        .map(|i| toml::Value::String(format!("shard-{i}")))
        .collect();
    workspace.insert("members".into(), toml::Value::Array(members));
    workspace.remove("default-members");
    if let Some(deps) = workspace.get_mut("dependencies").and_then(toml::Value::as_table_mut) {
        for (_, dep) in deps.iter_mut() {
            if let Some(path) = dep.get_mut("path")
                && let Some(relative) = path.as_str()
            {
                *path = toml::Value::String(root.join(relative).display().to_string());
            }
        }
    }
    let write = |path: PathBuf, text: String| {
        std::fs::create_dir_all(path.parent().expect("a file in a folder"))
            .and_then(|()| std::fs::write(&path, text))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    write(
        out.join("Cargo.toml"),
        toml::to_string(&manifest).map_err(|e| e.to_string())?,
    )?;
    write(out.join("Cargo.lock"), read("Cargo.lock")?)?;
    let shard_manifest = read("crates/corpus-0/Cargo.toml")?;
    for (i, modules) in shards.iter().enumerate() {
        let dir = out.join(format!("shard-{i}"));
        write(
            dir.join("Cargo.toml"),
            shard_manifest.replacen("name = \"corpus-0\"", &format!("name = \"try-shard-{i}\""), 1),
        )?;
        write(
            dir.join("src/lib.rs"),
            "#[allow(clippy::all, dead_code, deprecated, unused_comparisons)]\npub mod specs;\n\
             pub use api_runtime as runtime;\n"
                .to_string(),
        )?;
        let list: String = modules
            .iter()
            .map(|m| format!("pub mod {m} {{\n    pub mod api;\n    pub mod client;\n}}\n"))
            .collect();
        write(dir.join("src/specs/mod.rs"), list)?;
    }
    Ok(())
}

/// Builds the scratch workspace; every compiler error, and every warning
/// in generated code (a workspace's `clippy -D warnings` would fail on
/// it), with the file its primary span is in.
fn build(root: &Path, out: &Path) -> Result<Vec<(String, String)>, String> {
    let output = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--keep-going", "--message-format", "json", "--manifest-path"])
        .arg(out.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", root.join("target"))
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut errors = Vec::new();
    for line in stdout.lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let Some(diagnostic) = message
            .get("message")
            .filter(|_| message["reason"] == "compiler-message")
        else {
            continue;
        };
        let span = diagnostic["spans"]
            .as_array()
            .and_then(|spans| spans.iter().find(|s| s["is_primary"] == true));
        let file = span.and_then(|s| s["file_name"].as_str()).unwrap_or("").to_string();
        let in_generated = file.contains("/specs/");
        match diagnostic["level"].as_str() {
            Some("error") => {}
            Some("warning") if in_generated => {}
            _ => continue,
        }
        let line = span.and_then(|s| s["line_start"].as_u64()).unwrap_or(0);
        let text = match diagnostic["level"].as_str() {
            Some("warning") => format!("warning: {}", diagnostic["message"].as_str().unwrap_or("")),
            _ => diagnostic["message"].as_str().unwrap_or("").to_string(),
        };
        errors.push((
            file.clone(),
            format!("{text} ({}:{line})", file.rsplit("/specs/").next().unwrap_or(&file)),
        ));
    }
    if !output.status.success() && errors.is_empty() {
        return Err(format!(
            "cargo build failed ({}) without a compiler error",
            output.status
        ));
    }
    Ok(errors)
}

/// A Fisher-Yates shuffle by splitmix64 from `seed`: the same seed picks
/// the same sample on any machine.
fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    for i in (1..items.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}
