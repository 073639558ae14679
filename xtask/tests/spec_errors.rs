//! Every kind of bad spec gets an error that names its location, never a
//! panic. Each case edits a copy of the real spec.

use xtask::codegen::generate_all;
use xtask::codegen::spec::SpecError;

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

fn error_of(spec: &str) -> SpecError {
    match generate_all(spec) {
        Ok(_) => panic!("the spec was accepted"),
        Err(e) => e,
    }
}

#[track_caller]
fn assert_error(spec: &str, location: &str, message_part: &str) {
    let error = error_of(spec);
    assert_eq!(error.location, location, "{error}");
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

#[test]
fn openapi_3_1_is_refused() {
    assert_error(
        &edited("openapi: 3.0.3", "openapi: 3.1.0"),
        "openapi",
        "3.1.0 is not supported",
    );
}

#[test]
fn missing_openapi_version_is_refused() {
    assert_error(&edited("openapi: 3.0.3\n", ""), "openapi", "missing");
}

#[test]
fn missing_operation_id() {
    assert_error(
        &edited("      operationId: listOrders\n", ""),
        "paths./store/orders.get",
        "missing operationId",
    );
}

#[test]
fn duplicate_operation_id() {
    assert_error(
        &edited("operationId: getPetById", "operationId: listOrders"),
        "paths./pets/{petId}.get.operationId",
        "duplicate operationId `listOrders`, first used at paths./store/orders.get",
    );
}

#[test]
fn error_responses_must_share_one_schema() {
    let spec = edited(
        "        '401':\n          $ref: '#/components/responses/Unauthorized'\n        '5XX':",
        "        '401':\n          description: other\n          content:\n            application/json:\n              schema:\n                $ref: '#/components/schemas/Order'\n        '5XX':",
    );
    assert_error(&spec, "paths./store/orders.get.responses.5XX", "share one schema");
}

#[test]
fn error_response_without_body() {
    let spec = edited(
        "        '409':\n          $ref: '#/components/responses/Conflict'\n",
        "        '409':\n          description: shipped\n",
    );
    assert_error(
        &spec,
        "paths./store/orders/{orderId}.delete.responses.409",
        "must carry an application/json body",
    );
}

#[test]
fn default_response_is_refused() {
    let spec = edited(
        "        '5XX':\n          $ref: '#/components/responses/ServerError'\n  /store/orders/{orderId}:",
        "        default:\n          $ref: '#/components/responses/ServerError'\n  /store/orders/{orderId}:",
    );
    assert_error(
        &spec,
        "paths./store/orders.get.responses.default",
        "`default` response is not supported",
    );
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

#[test]
fn router_literal_beside_variable() {
    assert_error(
        &with_path("/store/orders/latest", "[]"),
        "paths./store/orders/latest",
        "same position as variable `{orderId}`",
    );
}

#[test]
fn router_two_variable_names_at_one_position() {
    let params = "\n        - {name: id, in: path, required: true, schema: {type: integer}}";
    assert_error(
        &with_path("/pets/{id}/owner", params),
        "paths./pets/{petId}",
        "needs one name",
    );
}

#[test]
fn router_partial_segment_variable() {
    let params = "\n        - {name: orderId, in: path, required: true, schema: {type: integer}}";
    assert_error(
        &with_path("/store/receipt-{orderId}", params),
        "paths./store/receipt-{orderId}",
        "whole-segment",
    );
}

#[test]
fn path_variable_without_parameter() {
    assert_error(
        &edited(
            "      parameters:\n        - name: petId\n          in: path\n          required: true\n          description: The identifier of the pet to return.\n          schema:\n            type: integer\n            format: int64\n",
            "",
        ),
        "paths./pets/{petId}.get.parameters",
        "`{petId}` has no declared path parameter",
    );
}

#[test]
fn structural_error_names_the_path() {
    // `responses` is required on an operation.
    let spec = edited(
        "      responses:\n        '200':\n          description: The pet.",
        "      responsez:\n        '200':\n          description: The pet.",
    );
    let error = error_of(&spec);
    assert!(error.location.starts_with("paths./pets/{petId}"), "{error}");
}

#[test]
fn secured_operation_must_document_401() {
    let spec = edited(
        "        '401':\n          $ref: '#/components/responses/Unauthorized'\n        '5XX':\n          $ref: '#/components/responses/ServerError'\n  /store/orders/{orderId}:",
        "        '5XX':\n          $ref: '#/components/responses/ServerError'\n  /store/orders/{orderId}:",
    );
    assert_error(&spec, "paths./store/orders.get.responses", "must document 401");
}

#[test]
fn servers_must_share_a_base_path() {
    assert_error(
        &edited(
            "https://staging.petstore.example.com/v1",
            "https://staging.petstore.example.com/v2",
        ),
        "servers.1.url",
        "differs from `/v1`",
    );
}

#[test]
fn garbage_is_not_a_spec() {
    for text in ["", "[]", "42", "openapi: 3.0.3\n", "\u{0}\u{1}"] {
        let _ = error_of(text);
    }
}
