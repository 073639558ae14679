//! Real designers' documents: the public specs of `tests/fixtures/corpus/`
//! generate without a panic, every refusal names its location, and the
//! documents that generate stay generating (the `corpus` crate, which
//! `cargo xtask check` keeps fresh, proves their code compiles).

use std::path::Path;

use xtask::codegen::corpus::{corpus_report, generate_corpus};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The documents that generate today; a change that makes one of them
/// refused fails here. Grow it as the generator learns.
const GENERATING: [&str; 29] = [
    "dropshot__test_openapi.json",
    "dropshot__test_openapi_fuller.json",
    "oai-v3.0__api-with-examples.yaml",
    "progenitor__buildomat.json",
    "dropshot__test_openapi_custom_error_types.json",
    "dropshot__test_openapi_custom_error_types_trait_based.json",
    "dropshot__test_openapi_overrides_v1.json",
    "dropshot__test_openapi_overrides_v2.json",
    "dropshot__test_pagination_schema.json",
    "dropshot__test_versions_v0.9.0.json",
    "dropshot__test_versions_v1.0.0.json",
    "dropshot__test_versions_v1.1.0.json",
    "dropshot__test_versions_v1.3.1.json",
    "dropshot__test_versions_v1.4.0.json",
    "oai-v3.0__callback-example.yaml",
    "oai-v3.0__link-example.yaml",
    "oai-v3.0__petstore-expanded.yaml",
    "oai-v3.0__petstore.yaml",
    "oai-v3.0__uspto.yaml",
    "progenitor__cli-gen.json",
    "progenitor__keeper.json",
    "progenitor__param-collision.json",
    "progenitor__param-overrides.json",
    "progenitor__param-overrides.yaml",
    "progenitor__nexus.json",
    "progenitor__propolis-server.json",
    "realworld-conduit__openapi.yml",
    "swagger-petstore-v3__openapi.yaml",
    "twilio__twilio_verify_v2.json",
];

#[test]
fn the_corpus_generates_without_a_panic_and_nothing_regresses() {
    let specs = generate_corpus(root()).unwrap();
    assert_eq!(specs.len(), 29, "the corpus holds 29 documents");
    // The report is the designer's view: print it for the CI log.
    println!("{}", corpus_report(&specs));
    for spec in &specs {
        if let Err(errors) = &spec.outcome {
            for error in &errors.0 {
                assert!(
                    error.location.starts_with("paths")
                        || error.location.starts_with("components")
                        || error.location.starts_with("info")
                        || error.location.starts_with("servers"),
                    "{}: a refusal without a location in the spec: {error}",
                    spec.file
                );
            }
        }
    }
    let generating: Vec<&str> = specs
        .iter()
        .filter(|s| s.outcome.is_ok())
        .map(|s| s.file.as_str())
        .collect();
    for expected in GENERATING {
        assert!(
            generating.contains(&expected),
            "{expected} no longer generates:\n{}",
            corpus_report(&specs)
        );
    }
}

/// Every refusal of one document comes in one run: the Swagger Petstore
/// has several kinds, all reported together.
#[test]
fn every_refusal_of_a_document_is_reported_at_once() {
    let specs = generate_corpus(root()).unwrap();
    let petstore = specs
        .iter()
        .find(|s| s.file == "swagger-petstore-v3__openapi.yaml")
        .unwrap();
    let Err(errors) = &petstore.outcome else {
        return;
    };
    let locations: std::collections::BTreeSet<&str> = errors.0.iter().map(|e| e.location.as_str()).collect();
    assert!(locations.len() > 1, "{errors}");
}

/// Nothing is left out unless it is listed: a document generates whole,
/// or leaves out exactly the operations its list names (beside it), and
/// its generated files say so.
#[test]
fn only_listed_operations_are_left_out_and_the_header_says_so() {
    let specs = generate_corpus(root()).unwrap();
    let mut listed = 0;
    for spec in &specs {
        let list = xtask::codegen::read_list(root(), &format!("tests/fixtures/corpus/{}", spec.file)).unwrap();
        let Some((path, text)) = list else {
            assert!(spec.left_out.is_empty(), "{}", spec.file);
            continue;
        };
        listed += 1;
        let entries = xtask::codegen::spec::leave_out::parse_list(&path, &text).unwrap();
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
