//! Reading the document as YAML values, for every rule: keys as text,
//! mappings by key, and path variables' names owned.

use serde_norway::{Mapping, Value};

/// `path_variables`' names, owned: the document they borrow from is
/// rewritten beside them.
pub(super) fn owned(names: Vec<&str>) -> Vec<String> {
    names.into_iter().map(str::to_string).collect()
}

pub(super) fn key_text(key: &Value) -> String {
    match key {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => String::new(),
    }
}

pub(super) fn mapping<'a>(doc: &'a Value, key: &str) -> Option<&'a Mapping> {
    doc.get(key).and_then(Value::as_mapping)
}
