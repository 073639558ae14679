//! The spec as untyped JSON, for the tools that walk it by location
//! (`lint`, `diff`): they report JSON paths, and must also read documents
//! that the typed model in `spec` would reject or normalise.

use serde_json::Value;

/// Reads a spec of the workspace (`spec_path`, relative to `root`), checks
/// it as `generate` does (so every tool reports a broken spec the same way,
/// with its location), and gives it as JSON: a 3.1 document as its 3.0
/// rendering, which the tools read as they read any 3.0 document.
pub fn read_checked(root: &std::path::Path, spec_path: &str) -> Result<Value, String> {
    let text = std::fs::read_to_string(root.join(spec_path)).map_err(|e| format!("cannot read {spec_path}: {e}"))?;
    let text = match crate::codegen::document::openapi31::render(&text).map_err(|e| format!("{spec_path}: {e}"))? {
        Some(rendered) => rendered.text,
        None => text,
    };
    crate::codegen::document::parse(&text).map_err(|e| format!("{spec_path}: {e}"))?;
    serde_norway::from_str(&text).map_err(|e| format!("{spec_path}: {e}"))
}

/// Follows a local `$ref` (and a `$ref` it leads to, a bounded number of
/// times, so that a cycle cannot hang the tool).
pub fn resolve<'v>(doc: &'v Value, value: &'v Value) -> &'v Value {
    let mut value = value;
    for _ in 0..16 {
        match value
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix('#'))
        {
            Some(pointer) => value = doc.pointer(pointer).unwrap_or(&Value::Null),
            None => break,
        }
    }
    value
}

/// The items of the array under `key`; none when it is missing or not an
/// array.
pub fn items<'v>(value: &'v Value, key: &str) -> impl Iterator<Item = &'v Value> {
    value.get(key).and_then(Value::as_array).into_iter().flatten()
}
