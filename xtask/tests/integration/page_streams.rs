//! `x-pagination`: a declared cursor pattern gives the client a page
//! stream in either interface; a declaration that does not fit the
//! operation is refused at its location, with the reason.

use xtask::codegen::{TARGETS, generate_target};

const DECLARATION: &str =
    "      x-pagination:\n        cursor: cursor\n        nextCursor: nextCursor\n        items: items\n";

fn v2_spec() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/v2/petstore.yaml")).unwrap()
}

/// The v2 spec with `from` replaced by `to` (which must occur).
fn edited(from: &str, to: &str) -> String {
    let spec = v2_spec();
    assert!(spec.contains(from), "the fixture edit {from:?} no longer applies");
    spec.replacen(from, to, 1)
}

/// The client generated from `spec` in v2's interface (the builder) and
/// in v1's (positional).
fn clients(spec: &str) -> Vec<Result<String, String>> {
    [&TARGETS[1], &TARGETS[0]]
        .into_iter()
        .map(|target| {
            let target = xtask::codegen::Target {
                spec: target.spec.clone(),
                client: target.client.clone(),
                mocks: None,
                client_module: target.client_module,
                server: target.server.clone(),
                credentials: target.credentials,
                interface: target.interface,
            };
            generate_target(&target, spec)
                .map(|files| {
                    let client = files.iter().find(|f| f.path.ends_with(&*target.client)).unwrap();
                    client.contents.clone()
                })
                .map_err(|e| e.to_string())
        })
        .collect()
}

#[test]
fn a_declared_pattern_streams_in_both_interfaces() {
    let [builder, positional] = clients(&v2_spec()).try_into().unwrap();
    let builder = builder.unwrap();
    assert!(
        builder.contains("impl<'a> builder::ListOrders<'a> {"),
        "no stream on the builder"
    );
    assert!(builder.contains("pub fn stream("));
    assert!(builder.contains("request.cursor(cursor)"));
    let positional = positional.unwrap();
    assert!(positional.contains("pub fn list_orders_stream<'a>("));
    // The stream takes every parameter but the cursor.
    let signature = &positional[positional.find("pub fn list_orders_stream").unwrap()..];
    let signature = &signature[..signature.find(") ->").unwrap()];
    assert!(
        signature.contains("status:") && !signature.contains("cursor:"),
        "{signature}"
    );
}

#[test]
fn without_a_declaration_there_is_no_stream() {
    for client in clients(&edited(DECLARATION, "")) {
        let client = client.unwrap();
        assert!(!client.contains("pub fn stream(") && !client.contains("_stream<'a>"));
    }
}

#[track_caller]
fn assert_refused(spec: &str, reason: &str) {
    for client in clients(spec) {
        let error = client.unwrap_err();
        assert!(
            error.contains("paths./store/orders.get.x-pagination") && error.contains(reason),
            "{error}"
        );
    }
}

#[test]
fn a_declaration_that_does_not_fit_is_refused_with_its_location() {
    assert_refused(
        &edited("        cursor: cursor\n", "        cursor: after\n"),
        "no query parameter `after`",
    );
    assert_refused(
        &edited("        items: items\n", "        items: nextCursor\n"),
        "no array property `nextCursor`",
    );
    assert_refused(
        &edited("        nextCursor: nextCursor\n", "        nextCursor: next\n"),
        "no property `next`",
    );
    assert_refused(&edited("        items: items\n", ""), "`items` must name");
    // A next cursor that is required and never null: no page could be last.
    let spec = edited("        nextCursor: nextCursor\n", "        nextCursor: items\n");
    assert_refused(&spec, "required and not nullable");
    // A required cursor: the first page could not be asked for.
    let spec = edited(
        "        - name: cursor\n          in: query\n          required: false\n",
        "        - name: cursor\n          in: query\n          required: true\n",
    );
    assert_refused(&spec, "is required");
}
