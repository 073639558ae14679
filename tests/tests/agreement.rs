//! The spec and the code agree: the document dropshot emits from the
//! generated trait, brought to the source's terms, matches
//! `openapi/petstore.yaml`. The snapshot of what remains must be empty.

use petstore_tests::source_spec;
use petstore_tests::spec_diff::{differences, emitted_spec, normalize_emitted};
use serde_json::{Value, json};

fn remaining_differences(source: &Value) -> Vec<String> {
    differences(source, &normalize_emitted(&emitted_spec(), source))
}

#[test]
fn spec_and_code_agree() {
    let report = remaining_differences(&source_spec()).join("\n");
    insta::assert_snapshot!("spec_vs_code_differences", report);
}

/// The comparison bites: a spec that no longer matches the code is reported.
#[test]
fn a_changed_field_type_is_reported() {
    let mut spec = source_spec();
    spec["components"]["schemas"]["Order"]["properties"]["quantity"] = json!({"type": "string"});
    let diffs = remaining_differences(&spec);
    assert!(
        diffs
            .iter()
            .any(|d| d.contains("components.schemas.Order.properties.quantity")
                && d.contains("spec string")
                && d.contains("code integer/int64")),
        "{diffs:#?}"
    );
}

#[test]
fn a_removed_operation_is_reported() {
    let mut spec = source_spec();
    spec["paths"].as_object_mut().unwrap().remove("/store/orders/{orderId}");
    let diffs = remaining_differences(&spec);
    assert!(
        diffs
            .iter()
            .any(|d| d.starts_with("only in the code: paths./store/orders/{orderId}.delete.operationId")),
        "{diffs:#?}"
    );
}

#[test]
fn an_added_parameter_is_reported() {
    let mut spec = source_spec();
    spec["paths"]["/store/orders"]["get"]["parameters"] =
        json!([{"name": "limit", "in": "query", "required": false, "schema": {"type": "integer", "format": "int32"}}]);
    let diffs = remaining_differences(&spec);
    assert!(
        diffs
            .iter()
            .any(|d| d.starts_with("only in the spec: paths./store/orders.get.parameters.query.limit")),
        "{diffs:#?}"
    );
}

#[test]
fn a_deprecation_change_is_reported() {
    let mut spec = source_spec();
    spec["paths"]["/pets/{petId}"]["get"]["deprecated"] = json!(false);
    let diffs = remaining_differences(&spec);
    assert!(
        diffs.iter().any(|d| d.contains("paths./pets/{petId}.get.deprecated")),
        "{diffs:#?}"
    );
}
