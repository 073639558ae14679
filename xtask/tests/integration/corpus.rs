//! Real designers' documents: the public specs of `tests/fixtures/corpus/`
//! generate without a panic, every refusal names its location, and the
//! documents that generate stay generating (the `corpus` crate, which
//! `cargo xtask check` keeps fresh, proves their code compiles).

use std::path::Path;

use xtask::codegen::corpus::corpus_report;

use crate::support::corpus_generated_once;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The corpus: the public documents of `../shared/corpus/` and the
/// APIs.guru sample of `../shared/corpus-apisguru/`, and three OpenAPI 3.1
/// documents of `../shared/corpus-31/`, as published.
const DOCUMENTS: usize = 102;

/// Every document generates: a refusal takes out operations, never the
/// document, and never with a panic; each refused operation names its
/// location. The report (operations mapped, refused) is printed for the
/// CI log; the `corpus` crate, which `cargo xtask check` keeps fresh,
/// proves the code of every one compiles.
#[test]
fn every_corpus_document_generates_without_a_panic() {
    let specs = corpus_generated_once();
    assert_eq!(specs.len(), DOCUMENTS);
    println!("{}", corpus_report(specs));
    for spec in specs {
        if let Err(errors) = &spec.outcome {
            panic!("{} is refused whole: {errors}", spec.file);
        }
        for refused in &spec.refused {
            assert!(
                ["paths.", "components.", "webhooks."]
                    .iter()
                    .any(|at| refused.reason.starts_with(&format!("refused at {at}"))),
                "{}: a refusal without a location in the spec: {refused}",
                spec.file
            );
        }
    }
}

mod adversarial;
pub(super) mod classes;
mod client_responses;
mod components;
mod directory_bodies;
mod directory_classes;
mod directory_forms;
mod directory_references;
mod directory_shapes;
mod new_service;
mod openapi31;
mod optional_parts;
mod webhooks;

/// Nothing is left out unless it is listed: a document generates whole,
/// or leaves out exactly the operations its list names (beside it), and
/// its generated files say so.
#[test]
fn only_listed_operations_are_left_out_and_the_header_says_so() {
    let specs = corpus_generated_once();
    let mut listed = 0;
    for spec in specs {
        let list = xtask::codegen::read_list(root(), &format!("tests/fixtures/corpus/{}", spec.file)).unwrap();
        let Some((path, text)) = list else {
            assert!(spec.left_out.is_empty(), "{}", spec.file);
            continue;
        };
        listed += 1;
        let entries = xtask::codegen::document::leave_out::parse_list(&path, &text).unwrap();
        assert_eq!(spec.left_out.len(), entries.len(), "{}", spec.file);
        let Ok(files) = &spec.outcome else { continue };
        for file in files {
            assert!(
                file.contents.contains(&format!("// Left out, as {path} lists:")),
                "{}",
                file.path.display()
            );
            for left in &spec.left_out {
                assert!(
                    file.contents.contains(&format!("// - {left}")),
                    "{}",
                    file.path.display()
                );
            }
        }
    }
    assert!(
        listed >= 1,
        "the corpus keeps its list (buildomat's) beside its document"
    );
}
