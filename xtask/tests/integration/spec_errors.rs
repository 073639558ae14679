//! Every kind of bad spec gets an error that names its location, never a
//! panic. Each case edits a copy of the real spec.

use xtask::codegen::document::{SpecError, SpecErrors};
use xtask::codegen::generate_all;

fn real_spec() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/petstore.yaml")).unwrap()
}

/// The spec with `from` replaced by `to` (which must occur).
fn edited(from: &str, to: &str) -> String {
    let spec = real_spec();
    assert!(
        spec.contains(from),
        "the fixture edit {from:?} no longer applies to the spec"
    );
    spec.replacen(from, to, 1)
}

fn errors_of(spec: &str) -> SpecErrors {
    match generate_all(spec) {
        Ok(_) => panic!("the spec was accepted"),
        Err(e) => e,
    }
}

/// The first problem found: each case makes one.
fn error_of(spec: &str) -> SpecError {
    errors_of(spec).0.remove(0)
}

#[track_caller]
fn assert_error(spec: &str, location: &str, message_part: &str) {
    let errors = errors_of(spec);
    let error = errors
        .at(location)
        .unwrap_or_else(|| panic!("nothing refused at {location}: {errors}"));
    assert!(error.message.contains(message_part), "{error}");
}

#[test]
fn the_real_spec_generates() {
    generate_all(&real_spec()).unwrap();
}

#[test]
fn invalid_yaml_names_line_and_column() {
    let error = error_of(&edited(
        "  title: Pet Store\n",
        "  title: Pet Store\n   bad: [unclosed\n",
    ));
    assert!(error.location.starts_with("line "), "{error}");
    assert!(error.location.contains("column"), "{error}");
    assert!(error.message.contains("invalid YAML"), "{error}");
}

/// 3.0 and 3.1 are read (3.1 in `corpus/openapi31.rs`); 3.2 is not yet.
#[test]
fn openapi_3_2_is_refused() {
    assert_error(
        &edited("openapi: 3.0.3", "openapi: 3.2.0"),
        "openapi",
        "3.2.0 is not supported",
    );
}

#[test]
fn missing_openapi_version_is_refused() {
    assert_error(&edited("openapi: 3.0.3\n", ""), "openapi", "missing");
}

const EXTRA_PATH: &str = "      operationId: OPID\n      summary: extra\n      parameters: PARAMS\n      responses:\n        '204':\n          description: done\n        '400':\n          $ref: '#/components/responses/BadRequest'\n        '401':\n          $ref: '#/components/responses/Unauthorized'\n        '5XX':\n          $ref: '#/components/responses/ServerError'\n";

/// The spec with one more GET path inserted before `/pets/{petId}`.
fn with_path(path: &str, params: &str) -> String {
    let op = EXTRA_PATH.replace("OPID", "extra").replace("PARAMS", params);
    edited(
        "  /pets/{petId}:\n",
        &format!("  {path}:\n    get:\n{op}  /pets/{{petId}}:\n"),
    )
}

/// A literal beside a variable, and two names at one position, are routed
/// by the runtime's dispatch (`api_runtime::routing`, by `api_shared::routes`'s rules): they generate.
#[test]
fn router_literal_beside_variable_and_two_names_generate() {
    generate_all(&with_path("/store/orders/latest", "[]")).unwrap();
    let params = "\n        - {name: id, in: path, required: true, schema: {type: integer}}";
    generate_all(&with_path("/pets/{id}/owner", params)).unwrap();
}

/// A variable takes the first name seen at its position; where a route
/// would then name one variable twice, the later one gets a suffix for
/// dropshot's router (the generated layer reads the spec's names): such
/// paths generate, as does text around a variable (`receipt-{orderId}`).
#[test]
fn router_a_route_that_would_name_a_variable_twice_generates() {
    let op = |id: &str, params: &str| EXTRA_PATH.replace("OPID", id).replace("PARAMS", params);
    let toy = "\n        - {name: toyId, in: path, required: true, schema: {type: integer}}";
    let kind = "\n        - {name: kind, in: path, required: true, schema: {type: string}}";
    let spec = edited(
        "  /pets/{petId}:\n",
        &format!(
            "  /toys/{{toyId}}:\n    get:\n{}  /toys/{{kind}}/by/{{toyId}}:\n    get:\n{}  /pets/{{petId}}:\n",
            op("getToy", toy),
            op("toysByKind", &format!("{kind}{toy}"))
        ),
    );
    generate_all(&spec).unwrap();
    let params = "\n        - {name: orderId, in: path, required: true, schema: {type: integer}}";
    generate_all(&with_path("/store/receipt-{orderId}", params)).unwrap();
}

#[test]
fn router_two_variables_in_one_segment() {
    // Text between them splits them (the runtime's dispatch)...
    let params = "\n        - {name: orderId, in: path, required: true, schema: {type: integer}}\n        - {name: line, in: path, required: true, schema: {type: integer}}";
    generate_all(&with_path("/store/receipt-{orderId}-{line}", params)).unwrap();
    // ...nothing between them does not.
    assert_error(
        &with_path("/store/receipt{orderId}{line}", params),
        "paths./store/receipt{orderId}{line}",
        "two variables with no text between them",
    );
}

#[test]
fn path_variable_without_parameter_is_read_as_a_string() {
    // Tolerated, as common tools do: the undeclared variable is a string,
    // and the rewrite is named as a warning.
    let spec = edited(
        "      parameters:\n        - name: petId\n          in: path\n          required: true\n          description: The identifier of the pet to return.\n          schema:\n            type: integer\n            format: int64\n",
        "",
    );
    let (_, tolerated) = xtask::codegen::document::tolerate::tolerate(&spec);
    assert_eq!(tolerated.len(), 1, "{tolerated:?}");
    assert_eq!(tolerated[0].location, "paths./pets/{petId}.get.parameters");
    assert!(
        tolerated[0]
            .message
            .contains("`{petId}` is not declared here: read as a string")
    );
    generate_all(&spec).unwrap();
}

#[test]
fn structural_error_names_the_path() {
    // `responses` must be a map of statuses (an operation may leave it
    // out, as 3.1 allows: a tolerated mistake in 3.0).
    let spec = edited(
        "      responses:\n        '200':\n          description: The pet.",
        "      responses: [200]\n      x-was:\n        '200':\n          description: The pet.",
    );
    let error = error_of(&spec);
    assert!(error.location.starts_with("paths./pets/{petId}"), "{error}");
}

#[test]
fn garbage_is_not_a_spec() {
    for text in ["", "[]", "42", "openapi: 3.0.3\n", "\u{0}\u{1}"] {
        let _ = error_of(text);
    }
}

/// What a designer may leave out or write differently generates; lint
/// judges the design. Each case gives the server code the construct
/// becomes.
#[test]
fn what_the_generator_supplies_or_maps() {
    let cases = [
        // No operationId: named from the method and the path.
        (
            edited("      operationId: listOrders\n", ""),
            "async fn get_store_orders(",
        ),
        // A duplicate: the later one gets a suffix.
        (
            edited("operationId: getPetById", "operationId: listOrders"),
            "async fn list_orders_2(",
        ),
        // An error response with a schema of its own carries its type.
        (
            edited(
                "        '401':\n          $ref: '#/components/responses/Unauthorized'\n        '5XX':",
                "        '401':\n          description: other\n          content:\n            application/json:\n              schema:\n                $ref: '#/components/schemas/Order'\n        '5XX':",
            ),
            "Unauthorized(types::Order)",
        ),
        // An error response without a body is a variant without one.
        (
            edited(
                "        '409':\n          $ref: '#/components/responses/Conflict'\n",
                "        '409':\n          description: shipped\n",
            ),
            "CancelOrderResponse::Conflict => runtime::Reply::error_empty(409u16)",
        ),
        // `default`: a variant carrying the status the handler chooses.
        (
            edited(
                "        '5XX':\n          $ref: '#/components/responses/ServerError'\n  /store/orders/{orderId}:",
                "        default:\n          $ref: '#/components/responses/ServerError'\n  /store/orders/{orderId}:",
            ),
            "Default { status: u16, body: runtime::Problem }",
        ),
        // Servers with different paths: the first one's is mounted.
        (
            edited(
                "https://staging.petstore.example.com/v1",
                "https://staging.petstore.example.com/v2",
            ),
            "pub const BASE_PATH: &str = \"/v1\";",
        ),
    ];
    for (spec, expected) in cases {
        let files = generate_all(&spec).unwrap_or_else(|e| panic!("refused: {e}"));
        let server = &files.last().unwrap().contents;
        assert!(server.contains(expected), "no `{expected}` in the server code");
    }
}

/// A spec without `servers` is served at the root; a relative URL is the
/// base path, and server variables take their defaults.
#[test]
fn servers_absent_relative_or_with_variables() {
    let spec = real_spec();
    let start = spec.find("servers:").unwrap();
    let end = start + spec[start..].find("\npaths:").unwrap() + 1;
    let cases = [
        (String::new(), "\"\""),
        ("servers:\n  - url: /api/v3\n".to_string(), "\"/api/v3\""),
        (
            "servers:\n  - url: 'https://{host}/{base}'\n    variables:\n      host: {default: example.com}\n      base: {default: v9}\n".to_string(),
            "\"/v9\"",
        ),
    ];
    for (servers, base_path) in cases {
        let edited = format!("{}{servers}{}", &spec[..start], &spec[end..]);
        let files = generate_all(&edited).unwrap_or_else(|e| panic!("refused: {e}"));
        let server = &files.last().unwrap().contents;
        assert!(
            server.contains(&format!("pub const BASE_PATH: &str = {base_path};")),
            "{servers}"
        );
    }
    let undeclared = format!(
        "{}servers:\n  - url: 'https://{{host}}/v1'\n{}",
        &spec[..start],
        &spec[end..]
    );
    // A first server that gives no path to mount at (an undeclared
    // variable) is read as the root, with a warning.
    let files = generate_all(&undeclared).unwrap_or_else(|e| panic!("refused: {e}"));
    assert!(
        files
            .last()
            .unwrap()
            .contents
            .contains(r#"pub const BASE_PATH: &str = "";"#)
    );
}

/// Every refusal of one document comes in one run, not one per fix: three
/// operations each refused for a different reason are all named by the
/// strict generation our own specs use, each at its own location; and
/// per operation (as for anyone's document) exactly those three are left
/// out, each with its location, while the fourth is mapped.
#[test]
fn every_refusal_of_a_document_is_reported_at_once() {
    let spec = r#"openapi: 3.0.3
info: {title: refusals, version: 1.0.0}
paths:
  /pages/{page}{ext}:
    get:
      operationId: getPage
      parameters:
        - {name: page, in: path, required: true, schema: {type: string}}
        - {name: ext, in: path, required: true, schema: {type: string}}
      responses: {'200': {description: ok}}
  /search:
    get:
      operationId: search
      parameters:
        - {name: ids, in: cookie, schema: {type: array, items: {type: string}}}
      responses: {'204': {description: ok}}
  /notes:
    post:
      operationId: addNote
      requestBody:
        required: true
        content:
          'image/*': {schema: {type: string, format: binary}}
      responses: {'204': {description: ok}}
  /health:
    get:
      operationId: health
      responses: {'204': {description: ok}}
"#;
    let errors = errors_of(spec);
    for location in ["paths./pages/{page}{ext}", "paths./search.get", "paths./notes.post"] {
        assert!(
            errors.0.iter().any(|e| e.location.starts_with(location)),
            "nothing refused at {location} in the same run: {errors}"
        );
    }
    let target = &xtask::codegen::TARGETS[0];
    let generated = xtask::codegen::generate_per_operation(target, spec, None).unwrap();
    let refused: Vec<String> = generated.refused.iter().map(|r| r.operation.clone()).collect();
    assert_eq!(refused.len(), 3, "{refused:?}");
    for id in ["getPage", "search", "addNote"] {
        assert!(
            refused.iter().any(|r| r.contains(&format!("({id})"))),
            "{id} not refused: {refused:?}"
        );
    }
    assert_eq!(generated.operations, 1, "health is mapped");
}
