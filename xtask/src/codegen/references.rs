//! Where a spec's references to its schemas point, for every part of the
//! generator that makes or reads one (a leaf: it depends on nothing here).

/// Where references to the spec's components point.
pub const COMPONENTS_PREFIX: &str = "#/components/schemas/";

/// Calls `visit` with every `$ref` inside `value`, at any depth.
pub fn each_reference(value: &serde_json::Value, visit: &mut impl FnMut(&str)) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, inner) in map {
                match (key.as_str(), inner) {
                    ("$ref", serde_json::Value::String(reference)) => visit(reference),
                    _ => each_reference(inner, visit),
                }
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|item| each_reference(item, visit)),
        _ => {}
    }
}
