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
pub mod dependencies;
pub mod designer_targets;
mod discriminator;
mod doc_code_blocks;
pub mod document;
mod every_core;
mod files;
pub mod generation_cache;
mod namespace;
mod no_panic;
pub mod patterns;
pub mod pipeline;
mod reading;
mod references;
mod rust_items;
pub mod schema;
pub mod server_gen;
pub mod targets;
pub mod try_spec;
mod type_names;
mod until_generated;
mod webhooks;

use std::path::Path;

pub use self::files::{GeneratedFile, Stale, orphaned_files, stale_files};
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
/// left out (`spec: METHOD /path (id): reason`); a target or corpus
/// document is taken from `cache` (a directory, [`generation_cache`])
/// where its generation is known.
pub fn generate_workspace_noting(
    root: &Path,
    cache: Option<&Path>,
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
            .map(|target| scope.spawn(move || generate_target_cached(root, target, cache)))
            .collect();
        let corpus = corpus::generate_corpus_cached(root, cache);
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
/// spec. Taken from `cache` when its generation is known there.
fn generate_target_cached(
    root: &Path,
    target: &Target,
    cache: Option<&Path>,
) -> Result<(Vec<GeneratedFile>, Vec<String>), String> {
    let path = root.join(&*target.spec);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let list = read_list(root, &target.spec)?;
    let list = list.as_ref().map(|(path, text)| (path.as_str(), text.as_str()));
    let Some(dir) = cache.map(|dir| dir.join("targets")) else {
        return generate_target_at(target, &text, list);
    };
    // Where its files go and how its client looks are part of what it
    // generates: another target of the same spec is another entry.
    let identity = format!(
        "{} {} {:?} {} {} {:?} {:?}",
        target.spec,
        target.client,
        target.mocks,
        target.client_module,
        target.server,
        target.credentials,
        target.interface
    );
    let name = target.spec.replace(['/', '\\', '.'], "_") + "__" + &target.server.replace(['/', '\\', '.'], "_");
    let key = generation_cache::key(&identity, &text, list.map(|(_, text)| text));
    if let Some(known) = generation_cache::load(&dir, root, &name, &key) {
        return Ok(known);
    }
    let (files, notes) = generate_target_at(target, &text, list)?;
    generation_cache::store(&dir, &name, &key, &files, &notes);
    Ok((files, notes))
}

fn generate_target_at(
    target: &Target,
    text: &str,
    list: Option<(&str, &str)>,
) -> Result<(Vec<GeneratedFile>, Vec<String>), String> {
    let generated = generate_per_operation(target, text, list).map_err(|e| format!("{}: {e}", target.spec))?;
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
