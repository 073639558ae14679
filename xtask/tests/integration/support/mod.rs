//! Edits of the real spec that more than one test file makes.

use serde_json::{Value, json};

/// Renames the Error schema to Problem, as v2 does, with every reference to
/// it: the same fields under another name.
pub fn rename_error_schema_to_problem(doc: &mut Value) {
    let error = doc["components"]["schemas"]
        .as_object_mut()
        .unwrap()
        .remove("Error")
        .unwrap();
    doc["components"]["schemas"]["Problem"] = error;
    for response in doc["components"]["responses"].as_object_mut().unwrap().values_mut() {
        response["content"]["application/json"]["schema"]["$ref"] = json!("#/components/schemas/Problem");
    }
}
