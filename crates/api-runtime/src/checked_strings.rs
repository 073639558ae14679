//! Strings the schema has already checked. The runtime types a request
//! body only after the body's validator accepted it. While it does, the
//! generated types' string newtypes (a `pattern`, a `minLength`) take
//! their string as it is rather than checking it a second time. typify's
//! check and the validator's test the same constraint of the same schema,
//! so the second one only repeats the first. For a body of patterned
//! strings it was most of the typed read: regress backtracking over every
//! string, 15k instructions of quoteOrder's 1 KB body.
//!
//! Never where the body's schema offers alternatives (`oneOf`, `anyOf`, a
//! list of types, an `enum` of several JSON types): serde picks an
//! alternative by trying each in turn, and a string that skipped its own
//! check would let the wrong alternative succeed. Never either where the
//! schema has no validator (its type alone enforces it).

use std::cell::Cell;
use std::collections::BTreeSet;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::schema::Schema;
use crate::schema_walk::Walker;

thread_local! {
    static CHECKED: Cell<bool> = const { Cell::new(false) };
}

/// Whether the string being typed was checked against its schema already.
/// The generated `Deserialize` of a constrained string newtype asks it.
pub fn checked_by_schema() -> bool {
    CHECKED.with(Cell::get)
}

/// `value`, which `schema`'s validator accepted, as a `T`: its strings
/// taken as checked where the schema vouches for them.
pub(crate) fn typed<T: DeserializeOwned>(schema: &Schema, value: Value) -> Result<T, serde_json::Error> {
    match vouches_for_strings(schema) {
        true => reading_checked(|| T::deserialize(value)),
        false => T::deserialize(value),
    }
}

/// Whether a value `schema`'s validator accepted may be typed without
/// its strings checked again: there is a validator, and no alternatives
/// for serde to try.
fn vouches_for_strings(schema: &Schema) -> bool {
    schema.has_validator()
        && schema.without_alternatives(|| without_alternatives(schema.doc_value(), Walker::new(schema.components())))
}

/// `read`, on this thread, with strings taken as checked.
fn reading_checked<R>(read: impl FnOnce() -> R) -> R {
    /// Puts the flag back, however `read` ends.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            CHECKED.with(|checked| checked.set(self.0));
        }
    }
    let _restore = Restore(CHECKED.with(|checked| checked.replace(true)));
    read()
}

/// Whether serde reads a value of `schema` without choosing among
/// alternatives by trying them: no `oneOf`, `anyOf`, list of types or
/// `enum` of several JSON types anywhere in it, its references followed.
/// Any object inside the schema is looked at (an `example` too): a false
/// alarm only keeps the second check.
fn without_alternatives(schema: &Value, walker: Walker) -> bool {
    let mut followed = BTreeSet::new();
    let mut pending = vec![schema];
    while let Some(value) = pending.pop() {
        match value {
            Value::Array(items) => pending.extend(items),
            Value::Object(map) => {
                if offers_alternatives(map) {
                    return false;
                }
                if let Some(reference) = map.get("$ref").and_then(Value::as_str)
                    && followed.insert(reference)
                {
                    pending.push(walker.resolve(value));
                }
                pending.extend(map.iter().filter(|(key, _)| *key != "$ref").map(|(_, v)| v));
            }
            _ => {}
        }
    }
    true
}

fn offers_alternatives(map: &serde_json::Map<String, Value>) -> bool {
    let several_types = match map.get("type") {
        Some(Value::Array(types)) => types.iter().filter(|t| t.as_str() != Some("null")).count() > 1,
        _ => false,
    };
    let mixed_enum = match map.get("enum") {
        Some(Value::Array(values)) => values.iter().any(|v| !(v.is_string() || v.is_null())),
        _ => false,
    };
    map.contains_key("oneOf") || map.contains_key("anyOf") || several_types || mixed_enum
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::schema::{ComponentSchema, Components};

    static COMPONENTS: Components = Components::new(&[
        ComponentSchema {
            name: "Tag",
            doc: r#"{"type":"string","pattern":"^[a-z]+$"}"#,
            validation: r#"{"type":"string","pattern":"^[a-z]+$"}"#,
        },
        ComponentSchema {
            name: "Either",
            doc: r##"{"oneOf":[{"$ref":"#/components/schemas/Tag"},{"type":"integer"}]}"##,
            validation: "{}",
        },
        ComponentSchema {
            name: "Tree",
            doc: r##"{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#/components/schemas/Tree"}},"tag":{"$ref":"#/components/schemas/Tag"}}}"##,
            validation: "{}",
        },
    ]);

    /// A string that must start with `a`, read as the generated newtypes
    /// read theirs (typify's check here a prefix rather than a pattern).
    #[derive(Debug, PartialEq)]
    struct Tag(String);

    impl<'de> serde::Deserialize<'de> for Tag {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let value = String::deserialize(deserializer)?;
            match checked_by_schema() || value.starts_with('a') {
                true => Ok(Tag(value)),
                false => Err(serde::de::Error::custom("does not start with `a`")),
            }
        }
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(untagged)]
    enum TagOrText {
        Tag(Tag),
        Text(String),
    }

    #[test]
    fn a_validated_string_is_typed_without_its_own_check_and_only_then() {
        static VALIDATED: Schema = Schema::new(&COMPONENTS, r#"{"type":"string"}"#, Some(r#"{"type":"string"}"#));
        static TYPE_ALONE: Schema = Schema::new(&COMPONENTS, r#"{"type":"string"}"#, None);
        assert_eq!(typed::<Tag>(&VALIDATED, json!("b")).unwrap(), Tag("b".into()));
        assert!(typed::<Tag>(&TYPE_ALONE, json!("b")).is_err());
        assert!(!checked_by_schema());
    }

    #[test]
    fn among_alternatives_each_string_keeps_its_check_so_serde_picks_the_right_one() {
        static EITHER: Schema = Schema::new(
            &COMPONENTS,
            r#"{"oneOf":[{"type":"string","pattern":"^a"},{"type":"string","pattern":"^[^a]"}]}"#,
            Some(r#"{"oneOf":[{"type":"string","pattern":"^a"},{"type":"string","pattern":"^[^a]"}]}"#),
        );
        assert_eq!(
            typed::<TagOrText>(&EITHER, json!("b")).unwrap(),
            TagOrText::Text("b".into())
        );
        assert_eq!(
            typed::<TagOrText>(&EITHER, json!("ab")).unwrap(),
            TagOrText::Tag(Tag("ab".into()))
        );
    }

    fn plain(schema: serde_json::Value) -> bool {
        without_alternatives(&schema, Walker::new(&COMPONENTS))
    }

    #[test]
    fn a_schema_of_patterned_strings_in_objects_and_arrays_has_no_alternatives() {
        assert!(plain(json!({
            "type": "object",
            "properties": {
                "tags": {"type": "array", "items": {"$ref": "#/components/schemas/Tag"}},
                "kind": {"type": "string", "enum": ["a", "b", null]},
                "note": {"type": ["string", "null"], "maxLength": 3}
            }
        })));
    }

    #[test]
    fn a_recursive_schema_is_walked_once() {
        assert!(plain(json!({"$ref": "#/components/schemas/Tree"})));
    }

    #[test]
    fn alternatives_anywhere_are_found_through_references() {
        assert!(!plain(
            json!({"type": "array", "items": {"$ref": "#/components/schemas/Either"}})
        ));
        assert!(!plain(json!({"properties": {"a": {"anyOf": [{"type": "string"}]}}})));
        assert!(!plain(json!({"properties": {"a": {"type": ["string", "integer"]}}})));
        assert!(!plain(json!({"properties": {"a": {"enum": ["one", 1]}}})));
    }

    #[test]
    fn the_flag_holds_only_while_reading_and_is_put_back_after_a_panic() {
        assert!(!checked_by_schema());
        assert!(reading_checked(checked_by_schema));
        assert!(!checked_by_schema());
        let unwound = std::panic::catch_unwind(|| reading_checked(|| panic!("a read that fails")));
        assert!(unwound.is_err());
        assert!(!checked_by_schema());
    }
}
