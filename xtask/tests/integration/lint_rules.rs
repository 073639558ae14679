//! Each rule of `cargo xtask lint` on the real spec and a broken copy.

use crate::support;

use serde_json::{Value, json};
use xtask::designer::lint::{Finding, Severity, lint};

fn base() -> Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/petstore.yaml")).unwrap();
    serde_norway::from_str(&text).unwrap()
}

fn findings_after(edit: impl FnOnce(&mut Value)) -> Vec<Finding> {
    let mut doc = base();
    edit(&mut doc);
    lint(&doc)
}

#[track_caller]
fn assert_finding(findings: &[Finding], severity: Severity, rule: &str, location: &str) {
    assert!(
        findings
            .iter()
            .any(|f| f.severity == severity && f.rule == rule && f.location == location),
        "no {severity:?} {rule} at {location}: {findings:#?}"
    );
}

#[test]
fn the_real_spec_is_clean() {
    let findings = lint(&base());
    assert!(findings.is_empty(), "{findings:#?}");
}

#[test]
fn operation_ids_unique_and_camel_case() {
    let findings = findings_after(|d| d["paths"]["/pets/{petId}"]["get"]["operationId"] = json!("listOrders"));
    assert_finding(
        &findings,
        Severity::Error,
        "operation-id",
        "paths./store/orders.get.operationId",
    );
    let findings = findings_after(|d| d["paths"]["/pets/{petId}"]["get"]["operationId"] = json!("get_pet"));
    assert_finding(
        &findings,
        Severity::Error,
        "operation-id",
        "paths./pets/{petId}.get.operationId",
    );
}

#[test]
fn secured_operations_document_401() {
    let findings = findings_after(|d| {
        drop(
            d["paths"]["/store/orders"]["get"]["responses"]
                .as_object_mut()
                .unwrap()
                .remove("401"),
        )
    });
    assert_finding(
        &findings,
        Severity::Error,
        "secured-401",
        "paths./store/orders.get.responses",
    );
}

#[test]
fn every_operation_that_can_fail_documents_a_4xx_error() {
    let findings = findings_after(|d| {
        d["security"] = json!([]);
        let list = &mut d["paths"]["/store/orders"]["get"];
        drop(list["responses"].as_object_mut().unwrap().remove("401"));
        // A parameter can be malformed: the layer answers 400.
        list["parameters"] = json!([{"name": "limit", "in": "query", "schema": {"type": "integer"}}]);
    });
    assert_finding(
        &findings,
        Severity::Error,
        "error-4xx",
        "paths./store/orders.get.responses",
    );
    // Public, without parameters or a body: nothing answers a 4xx.
    let findings = findings_after(|d| {
        d["security"] = json!([]);
        drop(
            d["paths"]["/store/orders"]["get"]["responses"]
                .as_object_mut()
                .unwrap()
                .remove("401"),
        );
    });
    assert!(
        !findings
            .iter()
            .any(|f| f.rule == "error-4xx" && f.location == "paths./store/orders.get.responses"),
        "{findings:#?}"
    );
}

/// The error object is recognised by its fields, not its name (v2 names it
/// Problem): a 4xx schema without `status` is not the error object.
#[test]
fn the_error_object_is_known_by_its_required_fields() {
    let renamed = findings_after(support::rename_error_schema_to_problem);
    assert!(!renamed.iter().any(|f| f.rule == "error-4xx"), "{renamed:#?}");
    let incomplete = findings_after(|d| {
        d["components"]["schemas"]["Error"]["required"] = json!(["code", "message"]);
    });
    assert_finding(
        &incomplete,
        Severity::Error,
        "error-4xx",
        "paths./store/orders.get.responses",
    );
}

#[test]
fn summaries_present() {
    let findings = findings_after(|d| {
        drop(
            d["paths"]["/store/orders"]["get"]
                .as_object_mut()
                .unwrap()
                .remove("summary"),
        )
    });
    assert_finding(&findings, Severity::Warning, "summary", "paths./store/orders.get");
}

#[test]
fn tags_declared() {
    let findings = findings_after(|d| d["paths"]["/store/orders"]["get"]["tags"] = json!(["orders"]));
    assert_finding(&findings, Severity::Error, "tags", "paths./store/orders.get.tags");
}

#[test]
fn path_parameters_declared_and_used() {
    let findings =
        findings_after(|d| d["paths"]["/store/orders/{orderId}"]["delete"]["parameters"][0]["name"] = json!("id"));
    assert_finding(
        &findings,
        Severity::Error,
        "path-parameters",
        "paths./store/orders/{orderId}.delete.parameters.0",
    );
    assert_finding(
        &findings,
        Severity::Error,
        "path-parameters",
        "paths./store/orders/{orderId}.delete",
    );
}

#[test]
fn no_unused_components() {
    let findings = findings_after(|d| d["components"]["schemas"]["Leftover"] = json!({"type": "string"}));
    assert_finding(
        &findings,
        Severity::Warning,
        "unused-component",
        "components.schemas.Leftover",
    );
}

#[test]
fn examples_match_their_schemas() {
    let findings = findings_after(|d| d["components"]["schemas"]["Order"]["example"]["quantity"] = json!("two"));
    assert_finding(
        &findings,
        Severity::Error,
        "examples",
        "components.schemas.Order.example",
    );
    let findings = findings_after(|d| d["components"]["schemas"]["Pet"]["example"] = json!({"id": 1}));
    assert_finding(&findings, Severity::Error, "examples", "components.schemas.Pet.example");
    let findings = findings_after(|d| d["components"]["schemas"]["Order"]["example"]["shipDate"] = json!("tomorrow"));
    assert_finding(
        &findings,
        Severity::Error,
        "examples",
        "components.schemas.Order.example",
    );
}

#[test]
fn our_versions_are_semantic() {
    // Generation reads the major out of `v1`; lint asks our own specs for
    // a version that says exactly what it means.
    let findings = findings_after(|d| d["info"]["version"] = json!("v1"));
    assert_finding(&findings, Severity::Error, "version", "info.version");
}

#[test]
fn a_bodiless_status_has_no_content() {
    // Generation drops the content (the server sends none); lint says so.
    let findings = findings_after(|d| {
        d["paths"]["/store/orders/{orderId}"]["delete"]["responses"]["204"]["content"] =
            json!({"application/json": {"schema": {"type": "object"}}});
    });
    assert_finding(
        &findings,
        Severity::Error,
        "no-content",
        "paths./store/orders/{orderId}.delete.responses.204.content",
    );
}

#[test]
fn scopes_ask_for_403_and_several_response_media_types_for_406() {
    let findings = findings_after(|d| {
        d["components"]["securitySchemes"]["oauth"] = json!({"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://x", "scopes": {"read": "r"}}}});
        let list = &mut d["paths"]["/store/orders"]["get"];
        list["security"] = json!([{"oauth": ["read"]}]);
        let ok = &mut list["responses"]["200"]["content"];
        ok["application/xml"] = ok["application/json"].clone();
    });
    let statuses: Vec<&str> = findings
        .iter()
        .filter(|f| f.rule == "layer-statuses" && f.location == "paths./store/orders.get.responses")
        .map(|f| f.message.as_str())
        .collect();
    assert!(statuses.iter().any(|m| m.contains("document 403")), "{findings:#?}");
    assert!(statuses.iter().any(|m| m.contains("document 406")), "{findings:#?}");
    // XML is listed, but the layer writes JSON only.
    assert_finding(
        &findings,
        Severity::Warning,
        "media-types",
        "paths./store/orders.get.responses.200.content.application/xml",
    );
}

#[test]
fn a_body_media_type_the_layer_does_not_read_is_named() {
    let findings = findings_after(|d| {
        d["paths"]["/store/orders"]["post"] = json!({
            "operationId": "placeOrder",
            "summary": "Place",
            "requestBody": {"content": {
                "application/json": {"schema": {"type": "object"}},
                // XML of the JSON's schema would be read; of another, not.
                "application/xml": {"schema": {"type": "array"}},
            }},
            "responses": {"204": {"description": "placed"}},
        });
    });
    assert_finding(
        &findings,
        Severity::Warning,
        "media-types",
        "paths./store/orders.post.requestBody.content.application/xml",
    );
}
