//! Each rule of `cargo xtask diff` on a pair of specs: the real one, and a
//! copy with one change.

mod support;

use serde_json::{Value, json};
use xtask::designer::diff::{Compatibility, diff, major_version};

const TODAY: &str = "2026-11-21";

fn base() -> Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/petstore.yaml")).unwrap();
    serde_norway::from_str(&text).unwrap()
}

/// The one change between the base and `edit(base)`.
#[track_caller]
fn only_change(edit: impl FnOnce(&mut Value)) -> (Compatibility, String, String) {
    let old = base();
    let mut new = old.clone();
    edit(&mut new);
    let changes = diff(&old, &new, TODAY);
    assert_eq!(changes.len(), 1, "{changes:#?}");
    let change = changes.into_iter().next().unwrap();
    (change.compatibility, change.location, change.message)
}

#[track_caller]
fn assert_breaking(edit: impl FnOnce(&mut Value), location: &str, message_part: &str) {
    let (compatibility, at, message) = only_change(edit);
    assert_eq!(
        (compatibility, at.as_str()),
        (Compatibility::Breaking, location),
        "{message}"
    );
    assert!(message.contains(message_part), "{message}");
}

#[track_caller]
fn assert_compatible(edit: impl FnOnce(&mut Value), location: &str, message_part: &str) {
    let (compatibility, at, message) = only_change(edit);
    assert_eq!(
        (compatibility, at.as_str()),
        (Compatibility::Compatible, location),
        "{message}"
    );
    assert!(message.contains(message_part), "{message}");
}

fn order_property<'a>(doc: &'a mut Value, name: &str) -> &'a mut Value {
    &mut doc["components"]["schemas"]["Order"]["properties"][name]
}

#[test]
fn no_change_no_report() {
    assert!(diff(&base(), &base(), TODAY).is_empty());
}

#[test]
fn operation_removed() {
    assert_breaking(
        |d| drop(d["paths"].as_object_mut().unwrap().remove("/store/orders/{orderId}")),
        "paths./store/orders/{orderId}.delete",
        "operation `cancelOrder` removed",
    );
}

#[test]
fn response_field_removed() {
    assert_breaking(
        |d| {
            drop(
                d["components"]["schemas"]["Order"]["properties"]
                    .as_object_mut()
                    .unwrap()
                    .remove("quantity"),
            )
        },
        "paths./store/orders.get.responses.200.schema.items.properties.quantity",
        "response field removed",
    );
}

#[test]
fn response_field_type_changed() {
    assert_breaking(
        |d| *order_property(d, "quantity") = json!({"type": "string"}),
        "paths./store/orders.get.responses.200.schema.items.properties.quantity",
        "type changed from `integer` to `string`",
    );
}

#[test]
fn response_field_format_changed() {
    assert_breaking(
        |d| order_property(d, "id")["format"] = json!("int32"),
        "paths./store/orders.get.responses.200.schema.items.properties.id",
        "format changed from `int64` to `int32`",
    );
}

#[test]
fn new_required_parameter() {
    assert_breaking(
        |d| {
            d["paths"]["/store/orders"]["get"]["parameters"] =
                json!([{"name": "limit", "in": "query", "required": true, "schema": {"type": "integer"}}])
        },
        "paths./store/orders.get.parameters.query.limit",
        "new required parameter",
    );
}

#[test]
fn new_required_request_field() {
    let body = |required: Value| json!({"content": {"application/json": {"schema": {"type": "object", "required": required, "properties": {"reason": {"type": "string"}, "note": {"type": "string"}}}}}});
    let old_body = body(json!(["reason"]));
    let mut old = base();
    old["paths"]["/store/orders/{orderId}"]["delete"]["requestBody"] = old_body.clone();
    let mut new = old.clone();
    new["paths"]["/store/orders/{orderId}"]["delete"]["requestBody"] = body(json!(["reason", "note"]));
    let changes = diff(&old, &new, TODAY);
    assert_eq!(changes.len(), 1, "{changes:#?}");
    assert_eq!(changes[0].compatibility, Compatibility::Breaking);
    assert!(
        changes[0].message.contains("request field became required"),
        "{:?}",
        changes[0]
    );

    // A new property that is required from the start.
    let mut newer = old.clone();
    newer["paths"]["/store/orders/{orderId}"]["delete"]["requestBody"]["content"]["application/json"]["schema"]["properties"]
        ["urgent"] = json!({"type": "boolean"});
    newer["paths"]["/store/orders/{orderId}"]["delete"]["requestBody"]["content"]["application/json"]["schema"]["required"] =
        json!(["reason", "urgent"]);
    let changes = diff(&old, &newer, TODAY);
    assert!(
        changes
            .iter()
            .any(|c| c.compatibility == Compatibility::Breaking && c.message == "new required request field"),
        "{changes:#?}"
    );
}

#[test]
fn parameter_narrowed() {
    assert_breaking(
        |d| d["paths"]["/store/orders/{orderId}"]["delete"]["parameters"][0]["schema"]["maximum"] = json!(1000),
        "paths./store/orders/{orderId}.delete.parameters.path.orderId.schema",
        "narrowed: new maximum 1000",
    );
}

#[test]
fn enum_value_removed_from_a_parameter() {
    let with_enum = |values: Value| {
        move |d: &mut Value| {
            d["paths"]["/store/orders"]["get"]["parameters"] = json!([{"name": "status", "in": "query", "required": false, "schema": {"type": "string", "enum": values}}]);
        }
    };
    let mut old = base();
    with_enum(json!(["pending", "shipped"]))(&mut old);
    let mut new = base();
    with_enum(json!(["pending"]))(&mut new);
    let changes = diff(&old, &new, TODAY);
    assert_eq!(changes.len(), 1, "{changes:#?}");
    assert_eq!(changes[0].compatibility, Compatibility::Breaking);
    assert_eq!(changes[0].message, "enum value \"shipped\" removed");
}

#[test]
fn success_status_changed() {
    assert_breaking(
        |d| {
            let responses = d["paths"]["/store/orders/{orderId}"]["delete"]["responses"]
                .as_object_mut()
                .unwrap();
            let no_content = responses.remove("204").unwrap();
            responses.insert("200".into(), no_content);
        },
        "paths./store/orders/{orderId}.delete.responses",
        "success status changed from 204 to 200",
    );
}

#[test]
fn optional_field_added() {
    assert_compatible(
        |d| *order_property(d, "giftWrap") = json!({"type": "boolean"}),
        "paths./store/orders.get.responses.200.schema.items.properties.giftWrap",
        "response field added",
    );
}

#[test]
fn operation_added() {
    assert_compatible(
        |d| {
            let mut op = d["paths"]["/pets/{petId}"].clone();
            op["get"]["operationId"] = json!("listPets");
            d["paths"]["/pets"] = op;
        },
        "paths./pets.get",
        "operation `listPets` added",
    );
}

#[test]
fn operation_deprecated() {
    assert_compatible(
        |d| d["paths"]["/store/orders"]["get"]["deprecated"] = json!(true),
        "paths./store/orders.get",
        "operation deprecated",
    );
}

#[test]
fn removing_a_deprecated_operation_before_its_sunset_is_breaking() {
    let mut old = base();
    old["paths"]["/pets/{petId}"]["get"]["x-sunset"] = json!("2027-06-30");
    let mut new = old.clone();
    new["paths"].as_object_mut().unwrap().remove("/pets/{petId}");
    let changes = diff(&old, &new, TODAY);
    assert_eq!(changes.len(), 1, "{changes:#?}");
    assert_eq!(changes[0].compatibility, Compatibility::Breaking);
    assert!(changes[0].message.contains("before its sunset date 2027-06-30"));

    // After the sunset date, the removal is expected.
    let changes = diff(&old, &new, "2027-07-01");
    assert_eq!(changes[0].compatibility, Compatibility::Compatible, "{changes:#?}");
}

#[test]
fn removing_a_deprecated_operation_without_a_sunset_is_breaking() {
    assert_breaking(
        |d| drop(d["paths"].as_object_mut().unwrap().remove("/pets/{petId}")),
        "paths./pets/{petId}.get",
        "no `x-sunset` date",
    );
}

#[test]
fn response_enum_value_added_is_breaking() {
    let mut old = base();
    *order_property(&mut old, "quantity") = json!({"type": "integer", "enum": [1, 2]});
    let mut new = old.clone();
    *order_property(&mut new, "quantity") = json!({"type": "integer", "enum": [1, 2, 3]});
    let changes = diff(&old, &new, TODAY);
    assert_eq!(changes.len(), 1, "{changes:#?}");
    assert_eq!(changes[0].compatibility, Compatibility::Breaking);
}

#[test]
fn major_version_is_read() {
    let mut doc = base();
    assert_eq!(major_version(&doc), Some(1));
    doc["info"]["version"] = json!("2.0.0");
    assert_eq!(major_version(&doc), Some(2));
}

#[test]
fn base_path_moved() {
    assert_breaking(
        |d| {
            for server in d["servers"].as_array_mut().unwrap() {
                let url = server["url"].as_str().unwrap().replace("/v1", "/v2");
                server["url"] = json!(url);
            }
        },
        "servers",
        "base path `/v1` is no longer served (now `/v2`)",
    );
}

#[test]
fn another_host_same_base_path_is_not_a_change() {
    let old = base();
    let mut new = old.clone();
    new["servers"][0]["url"] = json!("https://orders.example.com/v1");
    assert_eq!(diff(&old, &new, TODAY), vec![]);
}

#[test]
fn schema_renamed_with_the_same_fields() {
    assert_breaking(
        support::rename_error_schema_to_problem,
        "components.schemas.Error",
        "schema `Error` is now `Problem` (same fields)",
    );
}

#[test]
fn new_schema_is_compatible() {
    assert_compatible(
        |d| d["components"]["schemas"]["Unused"] = json!({"type": "string"}),
        "components.schemas.Unused",
        "new schema",
    );
}

/// v1 → v2, as `cargo xtask diff --versions` prints it for the README's
/// migration section: every breaking change a consumer must act on.
#[test]
fn v1_to_v2_lists_every_breaking_change() {
    let v2_text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/v2/petstore.yaml")).unwrap();
    let v2: Value = serde_norway::from_str(&v2_text).unwrap();
    let breaking: Vec<String> = diff(&base(), &v2, TODAY)
        .into_iter()
        .filter(|c| c.compatibility == Compatibility::Breaking)
        .map(|c| c.location)
        .collect();
    assert_eq!(
        breaking,
        [
            "components.schemas.Error",
            "components.schemas.Pet",
            "paths./pets/{petId}.get",
            "paths./store/orders.get.responses.200.schema",
            "servers",
        ]
    );
    assert_eq!((major_version(&base()), major_version(&v2)), (Some(1), Some(2)));
    // The README's migration section holds the list as printed.
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
    for change in diff(&base(), &v2, TODAY) {
        let line = format!("  {change}");
        assert!(
            readme.contains(&line),
            "README.md's migration section lacks `{line}`: paste `cargo xtask diff --versions`"
        );
    }
}
