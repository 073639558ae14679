//! Edits of the real spec that more than one test file makes.

use serde_json::{Value, json};

/// Renames the Error schema to Problem, as v2 does, with every reference to
/// it: the same fields under another name.
pub fn rename_error_schema_to_problem(doc: &mut Value) {
    let error = doc["components"]["schemas"]
        .as_object_mut()
        .unwrap()
        .remove("Error")
        .unwrap();
    doc["components"]["schemas"]["Problem"] = error;
    for response in doc["components"]["responses"].as_object_mut().unwrap().values_mut() {
        response["content"]["application/json"]["schema"]["$ref"] = json!("#/components/schemas/Problem");
    }
}

/// The corpus generated once for every test of this binary that reads it:
/// a generation of the corpus is among the longest things a test here does.
pub fn corpus_generated_once() -> &'static [xtask::codegen::corpus::CorpusSpec] {
    static SPECS: std::sync::OnceLock<Vec<xtask::codegen::corpus::CorpusSpec>> = std::sync::OnceLock::new();
    SPECS.get_or_init(|| xtask::codegen::corpus::generate_corpus(&root()).unwrap())
}

/// Every target of the workspace (ours and the designers' crates'),
/// generated once here, operation by operation, each with its spec's path:
/// the determinism test's second generation, and the JSON Schema Test
/// Suite's document (a designer's crate) for the suite's tests.
pub fn targets_generated_once() -> &'static [(String, xtask::codegen::Generated)] {
    static GENERATED: std::sync::OnceLock<Vec<(String, xtask::codegen::Generated)>> = std::sync::OnceLock::new();
    GENERATED.get_or_init(|| {
        let root = root();
        let designers = xtask::codegen::designer_targets::designer_targets(&root).unwrap();
        xtask::codegen::TARGETS
            .iter()
            .chain(&designers)
            .map(|target| {
                let text = std::fs::read_to_string(root.join(&*target.spec)).unwrap();
                let list = xtask::codegen::read_list(&root, &target.spec).unwrap();
                let list = list.as_ref().map(|(path, text)| (path.as_str(), text.as_str()));
                let generated = xtask::codegen::generate_per_operation(target, &text, list).unwrap();
                (target.spec.to_string(), generated)
            })
            .collect()
    })
}

fn root() -> std::path::PathBuf {
    std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).to_path_buf()
}
