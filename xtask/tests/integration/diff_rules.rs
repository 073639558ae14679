//! Each rule of `cargo xtask diff` on a pair of specs: the real one, and a
//! copy with one change.

use crate::support;

use serde_json::{Value, json};
use xtask::designer::diff::{Level, diff, major_version};

const TODAY: &str = "2026-11-21";

fn base() -> Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/petstore.yaml")).unwrap();
    serde_norway::from_str(&text).unwrap()
}

/// The one change between the base and `edit(base)`.
#[track_caller]
fn only_change(edit: impl FnOnce(&mut Value)) -> (Level, String, String) {
    let old = base();
    let mut new = old.clone();
    edit(&mut new);
    let changes = diff(&old, &new, TODAY);
    assert_eq!(changes.len(), 1, "{changes:#?}");
    let change = changes.into_iter().next().unwrap();
    (change.level, change.location, change.message)
}

#[track_caller]
fn assert_breaking(edit: impl FnOnce(&mut Value), location: &str, message_part: &str) {
    let (level, at, message) = only_change(edit);
    assert_eq!((level, at.as_str()), (Level::Breaking, location), "{message}");
    assert!(message.contains(message_part), "{message}");
}

#[track_caller]
fn assert_compatible(edit: impl FnOnce(&mut Value), location: &str, message_part: &str) {
    let (level, at, message) = only_change(edit);
    assert_eq!((level, at.as_str()), (Level::Compatible, location), "{message}");
    assert!(message.contains(message_part), "{message}");
}

#[track_caller]
fn assert_warning(edit: impl FnOnce(&mut Value), location: &str, message_part: &str) {
    let (level, at, message) = only_change(edit);
    assert_eq!((level, at.as_str()), (Level::Warning, location), "{message}");
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
    // `quantity` is optional: clients that read it may find none (a
    // required one removed is breaking: `oasdiff_agreement`'s pairs).
    assert_warning(
        |d| {
            drop(
                d["components"]["schemas"]["Order"]["properties"]
                    .as_object_mut()
                    .unwrap()
                    .remove("quantity"),
            )
        },
        "paths./store/orders.get.responses.200.content.application/json.schema.items.properties.quantity",
        "optional response property removed",
    );
}

#[test]
fn response_field_type_changed() {
    assert_breaking(
        |d| *order_property(d, "quantity") = json!({"type": "string"}),
        "paths./store/orders.get.responses.200.content.application/json.schema.items.properties.quantity",
        "type changed from `integer` to `string`",
    );
}

#[test]
fn response_field_format_changed() {
    // Every int32 is an int64: clients read what they read before.
    assert_compatible(
        |d| order_property(d, "id")["format"] = json!("int32"),
        "paths./store/orders.get.responses.200.content.application/json.schema.items.properties.id",
        "format changed from `int64` to `int32`",
    );
    assert_breaking(
        |d| order_property(d, "id")["format"] = json!("uuid"),
        "paths./store/orders.get.responses.200.content.application/json.schema.items.properties.id",
        "format changed from `int64` to `uuid`",
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
    assert_eq!(changes[0].level, Level::Breaking);
    assert!(
        changes[0].message.contains("request property became required"),
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
            .any(|c| c.level == Level::Breaking && c.message.starts_with("new required request property")),
        "{changes:#?}"
    );
}

#[test]
fn parameter_bound_set() {
    // A bound where there was none may only state what the server already
    // refused: a warning, as oasdiff's (a narrowed one is breaking).
    assert_warning(
        |d| d["paths"]["/store/orders/{orderId}"]["delete"]["parameters"][0]["schema"]["minimum"] = json!(5),
        "paths./store/orders/{orderId}.delete.parameters.path.orderId.schema",
        "bound set: minimum none -> 5",
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
    assert_eq!(changes[0].level, Level::Breaking);
    assert_eq!(
        changes[0].message,
        "enum value \"shipped\" removed: requests with it now fail"
    );
}

#[test]
fn success_status_changed() {
    let old = base();
    let mut new = old.clone();
    let responses = new["paths"]["/store/orders/{orderId}"]["delete"]["responses"]
        .as_object_mut()
        .unwrap();
    let no_content = responses.remove("204").unwrap();
    responses.insert("200".into(), no_content);
    let changes: Vec<(Level, String, String)> = diff(&old, &new, TODAY)
        .into_iter()
        .map(|c| (c.level, c.location, c.message))
        .collect();
    assert_eq!(
        changes,
        [
            (
                Level::Breaking,
                "paths./store/orders/{orderId}.delete.responses.204".to_string(),
                "success status 204 removed: clients that expect it fail".to_string()
            ),
            (
                Level::Compatible,
                "paths./store/orders/{orderId}.delete.responses.200".to_string(),
                "new success status 200".to_string()
            ),
        ]
    );
}

#[test]
fn optional_field_added() {
    assert_compatible(
        |d| *order_property(d, "giftWrap") = json!({"type": "boolean"}),
        "paths./store/orders.get.responses.200.content.application/json.schema.items.properties.giftWrap",
        "new response property",
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
    assert_eq!(changes[0].level, Level::Breaking);
    assert!(changes[0].message.contains("before its sunset date 2027-06-30"));

    // After the sunset date, the removal is expected.
    let changes = diff(&old, &new, "2027-07-01");
    assert_eq!(changes[0].level, Level::Compatible, "{changes:#?}");
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
    assert_eq!(changes[0].level, Level::Breaking);
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

/// v1 → v2, as `cargo xtask diff --versions` prints it for the client guide's
/// migration section: every breaking change a consumer must act on.
#[test]
fn v1_to_v2_lists_every_breaking_change() {
    let v2_text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/v2/petstore.yaml")).unwrap();
    let v2: Value = serde_norway::from_str(&v2_text).unwrap();
    let breaking: Vec<String> = diff(&base(), &v2, TODAY)
        .into_iter()
        .filter(|c| c.level == Level::Breaking)
        .map(|c| c.location)
        .collect();
    assert_eq!(
        breaking,
        [
            "components.schemas.Error",
            "components.schemas.Pet",
            "paths./pets/{petId}.get",
            "paths./store/orders.get.responses.200.content.application/json.schema",
            "servers",
        ]
    );
    assert_eq!((major_version(&base()), major_version(&v2)), (Some(1), Some(2)));
    // The client guide's migration section holds the list as printed.
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/client.md")).unwrap();
    for change in diff(&base(), &v2, TODAY) {
        let line = format!("  {change}");
        assert!(
            guide.contains(&line),
            "docs/client.md's migration section lacks `{line}`: paste `cargo xtask diff --versions`"
        );
    }
}
