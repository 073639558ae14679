//! Deprecation end to end, from the spec: `#[deprecated]` in the client
//! (with the sunset date when `x-sunset` is set), and `Deprecation` and
//! `Sunset` headers from the server. Our spec has no sunset date; the
//! fixture here adds one.

use xtask::codegen::generate_all;
use xtask::designer::lint::lint;

fn real_spec() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/petstore.yaml")).unwrap()
}

const SUNSET_HEADER: &str = "            Sunset:\n              description: When this operation goes away (RFC 8594).\n              required: true\n              schema:\n                type: string\n";

/// The real spec with `x-sunset: 2027-06-30` on getPetById, and the header
/// documented when `document_header`.
fn with_sunset(document_header: bool) -> String {
    let mut spec = real_spec().replacen(
        "      x-deprecation-date: '2026-11-21'\n",
        "      x-deprecation-date: '2026-11-21'\n      x-sunset: '2027-06-30'\n",
        1,
    );
    if document_header {
        let deprecation_header_end = "                type: string\n          content:\n            application/json:\n              schema:\n                $ref: '#/components/schemas/Pet'\n";
        assert!(spec.contains(deprecation_header_end));
        spec = spec.replacen(
            deprecation_header_end,
            &format!("                type: string\n{SUNSET_HEADER}          content:\n            application/json:\n              schema:\n                $ref: '#/components/schemas/Pet'\n"),
            1,
        );
    }
    spec
}

fn file<'a>(files: &'a [xtask::codegen::GeneratedFile], crate_dir: &str) -> &'a str {
    &files.iter().find(|f| f.path.starts_with(crate_dir)).unwrap().contents
}

#[test]
fn without_a_sunset_date() {
    let files = generate_all(&real_spec()).unwrap();
    let client = file(&files, "crates/petstore-client");
    assert!(client.contains("#[deprecated(note = \"`getPetById` is deprecated; no sunset date is set yet\")]"));
    let server = file(&files, "crates/petstore-api");
    assert!(server.contains("deprecation: \"@1795219200\","), "2026-11-21T00:00:00Z");
    assert!(
        server.contains("sunset: ::std::option::Option::None,"),
        "no Sunset header without a date"
    );
}

#[test]
fn with_a_sunset_date() {
    let files = generate_all(&with_sunset(true)).unwrap();
    let client = file(&files, "crates/petstore-client");
    assert!(
        client.contains("will be removed on 2027-06-30 (x-sunset)"),
        "the client's note names the date"
    );
    let server = file(&files, "crates/petstore-api");
    assert!(
        server.contains("sunset: ::std::option::Option::Some(\"Wed, 30 Jun 2027 00:00:00 GMT\")"),
        "an RFC 8594 HTTP-date"
    );
}

/// Generation sends the headers all the same; lint asks our spec to
/// document them.
#[test]
fn a_sunset_header_must_be_documented() {
    let spec = with_sunset(false);
    let files = generate_all(&spec).unwrap();
    assert!(file(&files, "crates/petstore-api").contains("Wed, 30 Jun 2027 00:00:00 GMT"));
    let findings = lint(&serde_norway::from_str(&spec).unwrap());
    assert!(
        findings.iter().any(|f| f.rule == "deprecation"
            && f.location == "paths./pets/{petId}.get.responses.200.headers"
            && f.message.contains("`Sunset` header")),
        "{findings:#?}"
    );
}

/// Without its date, a deprecated operation generates with nothing to
/// send on the wire (the client still warns); lint asks for the date.
#[test]
fn a_deprecated_operation_needs_its_date() {
    let spec = real_spec().replacen("      x-deprecation-date: '2026-11-21'\n", "", 1);
    let files = generate_all(&spec).unwrap();
    let server = file(&files, "crates/petstore-api");
    assert!(
        !server.contains("deprecation: ::std::option::Option::Some("),
        "no Deprecation header without a date"
    );
    assert!(file(&files, "crates/petstore-client").contains("#[deprecated("));
    let findings = lint(&serde_norway::from_str(&spec).unwrap());
    assert!(
        findings.iter().any(|f| f.rule == "deprecation"
            && f.location == "paths./pets/{petId}.get"
            && f.message.contains("x-deprecation-date")),
        "{findings:#?}"
    );
}
