//! The corpus: public OpenAPI documents (`tests/fixtures/corpus/`, each
//! with its source and license in SOURCES.md), generated like our own
//! specs into the `corpus` crate, so that building it proves the generated
//! contracts and clients compile. A document the generator cannot map yet
//! is not generated; `corpus_report` lists what it refuses, and the corpus
//! test holds the list of those that generate.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use heck::ToSnakeCase;

use super::document::SpecErrors;
use super::document::leave_out::{self, LeftOut};
use super::every_core::map_on_every_core;
use super::files::GeneratedFile;
use super::generation_cache;
use super::pipeline::generate_per_operation;
use super::reading::read_list;
use super::targets::{ClientCredentials, ClientInterface, Target};

/// The public documents, relative to the workspace.
pub const CORPUS_DIR: &str = "tests/fixtures/corpus";
/// The crate that lists them, for the agreement test.
pub const CORPUS_CRATE: &str = "crates/corpus";
/// How many crates the documents' code is spread over. One crate of all
/// of them (about 670,000 generated lines) took 12 GB to compile, and was
/// killed for memory beside another compilation on a 24 GB machine; a
/// shard compiles in a few, and two compile at once.
pub const SHARDS: usize = 8;

/// The crate a document's code is generated into: by a hash of its file
/// name, so that adding a document moves no other.
pub fn shard_of(file: &str) -> usize {
    // FNV-1a: stable across Rust versions, unlike `DefaultHasher`.
    let hash = file.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    });
    (hash % SHARDS as u64) as usize
}

/// A shard's crate directory and Rust name.
pub fn shard_crate(shard: usize) -> (String, String) {
    (format!("crates/corpus-{shard}"), format!("corpus_{shard}"))
}

/// One document of the corpus and what generating it gave.
pub struct CorpusSpec {
    /// The file's name (`swagger-petstore-v3__openapi.yaml`).
    pub file: String,
    /// The Rust module it is generated into.
    pub module: String,
    pub outcome: Result<Vec<GeneratedFile>, SpecErrors>,
    /// What its leave-out list (beside it) kept out, when it generates.
    pub left_out: Vec<LeftOut>,
    /// The operations the generator refused, each with where and why.
    pub refused: Vec<LeftOut>,
}

/// A left-out operation as one line of the cache: operation, tab, reason.
fn record(left: &LeftOut) -> String {
    format!("{}\t{}", left.operation, left.reason.replace(['\n', '\t'], " "))
}

fn from_record(record: &str) -> Option<LeftOut> {
    let (operation, reason) = record.split_once('\t')?;
    Some(LeftOut {
        operation: operation.to_string(),
        reason: reason.to_string(),
    })
}

/// The cache keeps one list; a refusal's reason says it is one.
fn split_refused(all: Vec<LeftOut>) -> (Vec<LeftOut>, Vec<LeftOut>) {
    all.into_iter()
        .partition(|left| !left.reason.starts_with("refused at "))
}

/// Generates every document of the corpus, in file-name order.
pub fn generate_corpus(root: &Path) -> Result<Vec<CorpusSpec>, String> {
    generate_corpus_cached(root, None)
}

/// [`generate_corpus`], taking from `cache` (a directory) the documents
/// whose generation is known ([`generation_cache`]).
pub fn generate_corpus_cached(root: &Path, cache: Option<&Path>) -> Result<Vec<CorpusSpec>, String> {
    let dir = root.join(CORPUS_DIR);
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".json") || name.ends_with(".yaml") || name.ends_with(".yml"))
        .filter(|name| !leave_out::is_list(name))
        .collect();
    files.sort();
    // Documents are independent: generated on every core.
    map_on_every_core(&files, |file| generate_document(root, cache, file))
        .into_iter()
        .collect()
}

/// One document of the corpus: taken from `cache` when its generation is
/// known there, or else generated (and remembered).
fn generate_document(root: &Path, cache: Option<&Path>, file: &str) -> Result<CorpusSpec, String> {
    let file = file.to_string();
    let dir = root.join(CORPUS_DIR);
    // A module's name cannot start with a digit (`1password…`).
    let module = match file.to_snake_case() {
        name if name.starts_with(|c: char| c.is_ascii_digit()) => format!("doc_{name}"),
        name => name,
    };
    let text = std::fs::read_to_string(dir.join(&file)).map_err(|e| format!("cannot read {file}: {e}"))?;
    let target = Target {
        spec: Cow::Owned(format!("{CORPUS_DIR}/{file}")),
        client: Cow::Owned(format!(
            "{}/src/specs/{module}/client.rs",
            shard_crate(shard_of(&file)).0
        )),
        mocks: None,
        client_module: "crate",
        server: Cow::Owned(format!("{}/src/specs/{module}/api.rs", shard_crate(shard_of(&file)).0)),
        credentials: ClientCredentials::Generated,
        interface: ClientInterface::Positional,
    };
    let list = read_list(root, &target.spec)?;
    let list = list.as_ref().map(|(path, text)| (path.as_str(), text.as_str()));
    let key = generation_cache::key(&file, &text, list.map(|(_, text)| text));
    let cache = cache.map(|dir| dir.join("corpus"));
    let known = cache
        .as_deref()
        .and_then(|dir| generation_cache::load(dir, root, &module, &key));
    if let Some((files, records)) = known {
        let all = records.iter().filter_map(|record| from_record(record)).collect();
        let (left_out, refused) = split_refused(all);
        return Ok(CorpusSpec {
            file,
            module,
            outcome: Ok(files),
            left_out,
            refused,
        });
    }
    // A panic anywhere in the generators would be ours: it must never
    // happen, and the corpus test says which document caused it.
    let outcome = std::panic::catch_unwind(|| generate_per_operation(&target, &text, list))
        .map_err(|_| format!("the generator panicked on {file}"))?;
    let (outcome, left_out, refused) = match outcome {
        Ok(generated) => {
            if let Some(dir) = &cache {
                let all: Vec<String> = generated
                    .left_out
                    .iter()
                    .chain(&generated.refused)
                    .map(record)
                    .collect();
                generation_cache::store(dir, &module, &key, &generated.files, &all);
            }
            (Ok(generated.files), generated.left_out, generated.refused)
        }
        Err(errors) => (Err(errors), Vec::new(), Vec::new()),
    };
    Ok(CorpusSpec {
        file,
        module,
        outcome,
        left_out,
        refused,
    })
}

/// The corpus's files: each generated document's contract and client in
/// its shard, each shard's module list that compiles them, and the corpus
/// crate's list of every document.
pub fn corpus_files(specs: &[CorpusSpec]) -> Vec<GeneratedFile> {
    let mut files = Vec::new();
    let mut modules = vec![String::new(); SHARDS];
    let mut documents = String::new();
    for spec in specs {
        let Ok(generated) = &spec.outcome else { continue };
        files.extend(generated.iter().map(|f| GeneratedFile {
            path: f.path.clone(),
            contents: f.contents.clone(),
            uses: f.uses.clone(),
        }));
        let (file, module) = (&spec.file, &spec.module);
        let shard = shard_of(file);
        let (_, shard_name) = shard_crate(shard);
        modules[shard].push_str(&format!(
            "\n/// `{file}`\npub mod {module} {{\n    pub mod api;\n    pub mod client;\n}}\n"
        ));
        let left_out: String = spec
            .left_out
            .iter()
            .chain(&spec.refused)
            .filter_map(|left| left.method_and_path())
            .map(|(method, path)| format!("({method:?}, {path:?}), "))
            .collect();
        let module = format!("{shard_name}::specs::{module}");
        documents.push_str(&format!(
            "    crate::Document {{\n        \
                 spec_path: \"{CORPUS_DIR}/{file}\",\n        \
                 version: {module}::api::API_VERSION,\n        \
                 base_path: {module}::api::BASE_PATH,\n        \
                 operations: {module}::api::OPERATIONS,\n        \
                 description: {module}::api::stub_api_description,\n        \
                 left_out: &[{left_out}],\n    \
             }},\n"
        ));
    }
    for (shard, modules) in modules.iter().enumerate() {
        files.push(GeneratedFile {
            path: PathBuf::from(format!("{}/src/specs/mod.rs", shard_crate(shard).0)),
            contents: format!(
                "// @generated by `cargo xtask generate` from {CORPUS_DIR}/.\n\
                 // Do not edit by hand: change the generator in xtask/ and regenerate.\n\
                 //\n// One module per document of this shard that generates.\n{modules}"
            ),
            uses: None,
        });
    }
    files.push(GeneratedFile {
        path: PathBuf::from(format!("{CORPUS_CRATE}/src/specs/mod.rs")),
        contents: format!(
            "// @generated by `cargo xtask generate` from {CORPUS_DIR}/.\n\
             // Do not edit by hand: change the generator in xtask/ and regenerate.\n\
             //\n/// Every document that generates, as the agreement test reads it.\n\
             pub static DOCUMENTS: &[crate::Document] = &[\n{documents}];\n"
        ),
        uses: None,
    });
    files
}

/// What the generator refuses, per document.
pub fn corpus_report(specs: &[CorpusSpec]) -> String {
    let mut report = String::new();
    for spec in specs {
        match &spec.outcome {
            Ok(_) if spec.left_out.is_empty() && spec.refused.is_empty() => {
                report.push_str(&format!("generates: {}\n", spec.file))
            }
            Ok(_) => {
                report.push_str(&format!(
                    "generates: {}, leaving out {} listed and {} refused operation(s):\n",
                    spec.file,
                    spec.left_out.len(),
                    spec.refused.len()
                ));
                for left in spec.left_out.iter().chain(&spec.refused) {
                    report.push_str(&format!("  {left}\n"));
                }
            }
            Err(errors) => report.push_str(&format!("refused:   {}: {errors}\n", spec.file)),
        }
    }
    report
}
