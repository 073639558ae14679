//! Reading the document as YAML values, for every rule: keys as text,
//! mappings by key, path variables' names owned, and the value a JSON
//! pointer (as a reference writes it) leads to.

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

/// The value at a JSON pointer of the document (as a URI fragment
/// writes it: percent-encoded, `%7B` for `{`).
pub(super) fn pointed<'a>(doc: &'a Value, pointer: &str) -> Option<&'a Value> {
    let mut value = doc;
    for part in pointer.split('/').skip(1) {
        let part = percent_decoded(part).replace("~1", "/").replace("~0", "~");
        value = match value {
            Value::Mapping(map) => map.get(part.as_str())?,
            Value::Sequence(items) => items.get(part.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(value)
}

/// `text` with each `%XX` as the byte it encodes (left as written where
/// that is not UTF-8).
fn percent_decoded(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('%') {
        return text.into();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(high), Some(low)) => {
                out.push((high * 16 + low) as u8);
                i += 3;
            }
            (byte, _, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_or(text.into(), Into::into)
}
