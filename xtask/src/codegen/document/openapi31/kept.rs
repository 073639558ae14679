//! What OpenAPI 3.0 cannot say of a 3.1 schema: the keywords with no 3.0
//! form (and no Rust type), kept under [`JSON_SCHEMA_KEY`] for the
//! validation form to put back, and the keywords JSON Schema does not
//! know, which it reads as annotations and which go.

use serde_norway::{Mapping, Value};

use super::super::keywords::{JSON_SCHEMA_KEY, KEYWORDS};

/// Keywords with no OpenAPI 3.0 form: validated as written, not typed.
const VALIDATED_ONLY: [&str; 13] = [
    "prefixItems",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "dependentRequired",
    "unevaluatedProperties",
    "unevaluatedItems",
    "patternProperties",
    "propertyNames",
    "contains",
    "minContains",
    "maxContains",
];

/// Moves the keywords 3.0 cannot say under [`JSON_SCHEMA_KEY`], with
/// those whose meaning depends on them (`items` beside `prefixItems` is
/// the items after them; `additionalProperties` beside
/// `patternProperties`, the properties neither names nor matches).
pub(super) fn validated_only(map: &mut Mapping, at: &str, note: &mut dyn FnMut(String, &str)) {
    let found: Vec<&str> = VALIDATED_ONLY
        .iter()
        .copied()
        .filter(|key| map.contains_key(*key))
        .collect();
    if found.is_empty() {
        return;
    }
    let mut moved: Vec<&str> = found.clone();
    if found.contains(&"prefixItems") {
        moved.push("items");
    }
    if found.contains(&"patternProperties") {
        moved.push("additionalProperties");
    }
    for key in moved {
        if let Some(value) = map.shift_remove(key) {
            extension(map).insert(key.into(), value);
        }
    }
    // Items of any kind, in the Rust type (the kept `items` replaces them
    // for validation).
    if found.contains(&"prefixItems") {
        map.insert("items".into(), Value::Mapping(Mapping::new()));
    }
    let named: Vec<String> = found.iter().map(|k| format!("`{k}`")).collect();
    note(
        at.to_string(),
        &format!(
            "(degrade) {} (no Rust type): the value's type is looser, and it is validated as written",
            named.join(", ")
        ),
    );
}

/// The mapping of [`JSON_SCHEMA_KEY`], made if missing.
pub(super) fn extension(map: &mut Mapping) -> &mut Mapping {
    let entry = map
        .entry(JSON_SCHEMA_KEY.into())
        .or_insert_with(|| Value::Mapping(Mapping::new()));
    if !entry.is_mapping() {
        *entry = Value::Mapping(Mapping::new());
    }
    entry.as_mapping_mut().expect("made a mapping above")
}

/// A keyword JSON Schema 2020-12 does not know (a misspelling such as
/// `additional_properties`) is an annotation there, which validates
/// nothing: it goes, named.
pub(super) fn unknown(map: &mut Mapping, at: &str, note: &mut dyn FnMut(String, &str)) {
    let unknown: Vec<String> = map
        .keys()
        .filter_map(Value::as_str)
        .filter(|key| !KEYWORDS.contains(key) && !key.starts_with("x-"))
        .map(str::to_string)
        .collect();
    for key in unknown {
        map.shift_remove(key.as_str());
        note(
            format!("{at}.{key}"),
            &format!("`{key}` is no JSON Schema keyword: an annotation, which constrains nothing, left out"),
        );
    }
}
