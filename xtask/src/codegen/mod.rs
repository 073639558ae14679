//! Code generation: [`document`] reads and checks a spec; [`schema`] gives its
//! schemas the forms the generated code needs; [`client_gen`] and
//! [`server_gen`] turn it into Rust; [`pipeline`] generates one
//! document's files; this module generates the workspace's (its targets,
//! its designers' crates, the corpus), and [`files`] renders, writes and
//! checks them: where they go, how they look, and whether they are
//! current.

mod bisect;
pub mod client_gen;
pub mod corpus;
pub mod corpus_cache;
pub mod dependencies;
pub mod designer_targets;
mod discriminator;
mod doc_code_blocks;
pub mod document;
mod files;
mod no_panic;
pub mod patterns;
pub mod pipeline;
mod reading;
mod references;
pub mod schema;
pub mod server_gen;
pub mod targets;
pub mod try_spec;
mod type_names;
mod until_generated;
mod webhooks;

use std::path::Path;

pub use self::files::{GeneratedFile, Stale, stale_files};
pub use self::pipeline::{
    Generated, degradation, generate_all, generate_leaving_out, generate_per_operation, generate_target,
};
pub use self::reading::read_list;

pub use targets::{
    ClientCredentials, ClientInterface, KITCHEN_SINK_PATH, SPEC_PATH, SPEC_V2_PATH, SWAGGER_PETSTORE_PATH, TARGETS,
    Target,
};

/// Reads each target's spec under `root` and generates its files, and the
/// corpus crate's; an error names the spec.
pub fn generate_workspace(root: &Path) -> Result<Vec<GeneratedFile>, String> {
    generate_workspace_noting(root, None).map(|(files, _)| files)
}

/// [`generate_workspace`], and a line for each operation a leave-out list
/// left out (`spec: METHOD /path (id): reason`); the corpus's documents
/// are taken from `corpus_cache` (a directory) where their generation is
/// known.
pub fn generate_workspace_noting(
    root: &Path,
    corpus_cache: Option<&Path>,
) -> Result<(Vec<GeneratedFile>, Vec<String>), String> {
    // Each target, and the corpus, on a thread of its own: on a designer's
    // machine a warm run takes as long as its slowest target.
    let designer = designer_targets::designer_targets(root)?;
    let (targets, corpus) = std::thread::scope(|scope| {
        // Every target generates what it can, operation by operation (a
        // refusal of an operation of our own specs is a lint error).
        let targets: Vec<_> = TARGETS
            .iter()
            .chain(&designer)
            .map(|target| scope.spawn(move || generate_target_at(root, target)))
            .collect();
        let corpus = corpus::generate_corpus_cached(root, corpus_cache);
        let targets: Vec<_> = targets
            .into_iter()
            .map(|t| t.join().expect("a target's generation does not panic"))
            .collect();
        (targets, corpus)
    });
    let mut files = Vec::new();
    let mut notes = Vec::new();
    for target in targets {
        let (generated, left_out) = target?;
        files.extend(generated);
        notes.extend(left_out);
    }
    let corpus = corpus?;
    for spec in &corpus {
        let spec_path = format!("{}/{}", corpus::CORPUS_DIR, spec.file);
        notes.extend(
            spec.left_out
                .iter()
                .map(|left| format!("{spec_path} leaves out {left}")),
        );
        notes.extend(
            spec.refused
                .iter()
                .map(|refused| format!("{spec_path} refuses {refused}")),
        );
    }
    files.extend(corpus::corpus_files(&corpus));
    Ok((files, notes))
}

/// One target's files from its spec under `root`, operation by
/// operation, with a line for each operation its leave-out list left
/// out, each the generator refused, and the summary; an error names the
/// spec.
fn generate_target_at(root: &Path, target: &Target) -> Result<(Vec<GeneratedFile>, Vec<String>), String> {
    let path = root.join(&*target.spec);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let list = read_list(root, &target.spec)?;
    let list = list.as_ref().map(|(path, text)| (path.as_str(), text.as_str()));
    let generated = generate_per_operation(target, &text, list).map_err(|e| format!("{}: {e}", target.spec))?;
    let mut notes: Vec<String> = generated
        .left_out
        .iter()
        .map(|left| format!("{} leaves out {left}", target.spec))
        .collect();
    notes.extend(
        generated
            .refused
            .iter()
            .map(|refused| format!("{} refuses {refused}", target.spec)),
    );
    notes.push(format!("{}: {}", target.spec, generated.summary()));
    Ok((generated.files, notes))
}
