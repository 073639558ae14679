//! The spec's schemas at run time, in the two forms the generator writes:
//! the JSON Schema (2020-12) a request is validated against, and the
//! OpenAPI-flavoured form dropshot's document is built from.

use std::sync::OnceLock;

use schemars::r#gen::SchemaGenerator;
use serde_json::Value;

/// The spec's `components.schemas`, shared by every schema of a contract.
#[derive(Debug)]
pub struct Components {
    entries: &'static [ComponentSchema],
    /// Every validation form, by name: the `$defs` of each validator.
    definitions: OnceLock<Value>,
    /// Every documentation form, by name, parsed: what bodies in other
    /// encodings than JSON are read by (their `xml` objects, say).
    docs: OnceLock<serde_json::Map<String, Value>>,
}

/// One entry of `components.schemas`.
#[derive(Debug)]
pub struct ComponentSchema {
    pub name: &'static str,
    /// For dropshot's document (schemars' JSON, OpenAPI 3.0 flavoured).
    pub doc: &'static str,
    /// JSON Schema 2020-12; references are `#/$defs/<name>`.
    pub validation: &'static str,
}

impl Components {
    pub const fn new(entries: &'static [ComponentSchema]) -> Self {
        Components {
            entries,
            definitions: OnceLock::new(),
            docs: OnceLock::new(),
        }
    }

    /// The documentation form of the component `name`, parsed.
    pub(crate) fn doc_value(&self, name: &str) -> Option<&Value> {
        let docs = self.docs.get_or_init(|| {
            let entries = self.entries.iter();
            entries
                .map(|entry| (entry.name.to_string(), parse(entry.doc)))
                .collect()
        });
        docs.get(name)
    }

    fn definitions(&self) -> &Value {
        self.definitions.get_or_init(|| {
            let map = self
                .entries
                .iter()
                .map(|entry| (entry.name.to_string(), parse(entry.validation)))
                .collect();
            Value::Object(map)
        })
    }

    /// Adds every component to `generator`'s definitions, so that a
    /// document built with it carries them all (dropshot writes a
    /// generator's definitions as `components.schemas`).
    pub fn register(&self, generator: &mut SchemaGenerator) {
        let definitions = generator.definitions_mut();
        for entry in self.entries {
            definitions
                .entry(entry.name.to_string())
                .or_insert_with(|| doc_schema(entry.doc));
        }
    }

    /// The documentation form of one component.
    pub fn doc_schema(&self, name: &str) -> schemars::schema::Schema {
        self.entries
            .iter()
            .find(|entry| entry.name == name)
            .map(|entry| doc_schema(entry.doc))
            .unwrap_or(schemars::schema::Schema::Bool(true))
    }
}

/// A schema of a parameter, body, response or header.
#[derive(Debug)]
pub struct Schema {
    components: &'static Components,
    doc: &'static str,
    /// `None` when reading the value as its type already enforces all the
    /// schema says (a plain `integer`, say), so no validator is needed.
    validation: Option<&'static str>,
    validator: OnceLock<Result<jsonschema::Validator, String>>,
    doc_value: OnceLock<Value>,
    /// Whether serde reads its values without trying alternatives
    /// ([`crate::checked_strings`]).
    without_alternatives: OnceLock<bool>,
}

/// Why a value does not satisfy its schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// A JSON pointer into the value (empty for the value itself).
    pub pointer: String,
    /// What is wrong, for a human.
    pub message: String,
    /// The schema keyword that failed (`minimum`, `required`, ...).
    pub keyword: String,
}

/// Longer messages are cut: they quote the offending value, which a client
/// chooses.
const MAX_MESSAGE: usize = 300;

impl Schema {
    pub const fn new(components: &'static Components, doc: &'static str, validation: Option<&'static str>) -> Self {
        Schema {
            components,
            doc,
            validation,
            validator: OnceLock::new(),
            doc_value: OnceLock::new(),
            without_alternatives: OnceLock::new(),
        }
    }

    /// Whether a validator checks values of this schema (otherwise their
    /// type alone enforces it).
    pub(crate) fn has_validator(&self) -> bool {
        self.validation.is_some()
    }

    /// Whether serde reads values of this schema without trying
    /// alternatives, worked out once by `find` ([`crate::checked_strings`]).
    pub(crate) fn without_alternatives(&self, find: impl FnOnce() -> bool) -> bool {
        *self.without_alternatives.get_or_init(find)
    }

    /// The documentation form, parsed; its references name
    /// [`Schema::components`]' entries (`#/components/schemas/<name>`).
    pub(crate) fn doc_value(&self) -> &Value {
        self.doc_value.get_or_init(|| parse(self.doc))
    }

    pub(crate) fn components(&self) -> &'static Components {
        self.components
    }

    /// Checks `value` against the schema.
    pub fn validate(&self, value: &Value) -> Result<(), Violation> {
        let Some(validation) = self.validation else {
            return Ok(());
        };
        let validator = self
            .validator
            .get_or_init(|| compile(validation, self.components.definitions()));
        let validator = match validator {
            Ok(validator) => validator,
            // The generator compiles every schema before it writes one, so
            // this is a broken build, reported rather than ignored.
            Err(reason) => {
                return Err(Violation {
                    pointer: String::new(),
                    message: format!("the contract's schema does not compile: {reason}"),
                    keyword: "$schema".into(),
                });
            }
        };
        validator.validate(value).map_err(|error| Violation {
            pointer: error.instance_path().to_string(),
            message: shorten(error.to_string()),
            keyword: error.kind().keyword().to_string(),
        })
    }

    /// The documentation form as the generator wrote it (JSON text).
    pub fn doc_json(&self) -> &'static str {
        self.doc
    }

    /// The documentation form, as dropshot takes it.
    pub fn doc_schema(&self) -> schemars::schema::Schema {
        doc_schema(self.doc)
    }

    /// The documentation form with every component registered in
    /// `generator`, for a document built with it.
    pub fn document(&self, generator: &mut SchemaGenerator) -> schemars::schema::Schema {
        self.components.register(generator);
        self.doc_schema()
    }
}

fn compile(validation: &str, definitions: &Value) -> Result<jsonschema::Validator, String> {
    let mut root = parse(validation);
    if let Value::Object(map) = &mut root {
        map.insert("$defs".into(), definitions.clone());
    }
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .with_keyword(crate::ecma_pattern::KEYWORD, crate::ecma_pattern::factory)
        .build(&root)
        .map_err(|e| e.to_string())
}

/// The generator writes valid JSON (it parses every schema it writes);
/// `true` (anything) stands in should that ever not hold.
fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Bool(true))
}

fn doc_schema(text: &str) -> schemars::schema::Schema {
    serde_json::from_str(text).unwrap_or(schemars::schema::Schema::Bool(true))
}

fn shorten(message: String) -> String {
    if message.chars().count() <= MAX_MESSAGE {
        return message;
    }
    let mut short: String = message.chars().take(MAX_MESSAGE).collect();
    short.push_str("...");
    short
}

#[cfg(test)]
mod tests {
    use super::*;

    static COMPONENTS: Components = Components::new(&[ComponentSchema {
        name: "Tag",
        doc: r#"{"type":"string","minLength":2}"#,
        validation: r#"{"type":"string","minLength":2}"#,
    }]);

    static LIMITED: Schema = Schema::new(
        &COMPONENTS,
        r#"{"type":"integer"}"#,
        Some(r#"{"type":"integer","minimum":1,"maximum":10}"#),
    );

    static TAGGED: Schema = Schema::new(
        &COMPONENTS,
        r#"{"type":"object"}"#,
        Some(r##"{"type":"object","properties":{"tags":{"type":"array","items":{"$ref":"#/$defs/Tag"}}}}"##),
    );

    #[test]
    fn a_violation_names_the_rule_and_the_place() {
        assert!(LIMITED.validate(&serde_json::json!(5)).is_ok());
        let violation = LIMITED.validate(&serde_json::json!(0)).unwrap_err();
        assert_eq!(violation.keyword, "minimum");
        assert_eq!(violation.pointer, "");
        assert!(violation.message.contains("minimum of 1"), "{violation:?}");

        let violation = TAGGED.validate(&serde_json::json!({"tags": ["ok", "x"]})).unwrap_err();
        assert_eq!(
            (violation.pointer.as_str(), violation.keyword.as_str()),
            ("/tags/1", "minLength")
        );
    }

    #[test]
    fn formats_are_checked() {
        static DAY: Schema = Schema::new(
            &COMPONENTS,
            r#"{"type":"string"}"#,
            Some(r#"{"type":"string","format":"date"}"#),
        );
        assert!(DAY.validate(&serde_json::json!("2026-02-28")).is_ok());
        assert_eq!(
            DAY.validate(&serde_json::json!("2026-02-30")).unwrap_err().keyword,
            "format"
        );
    }

    #[test]
    fn long_messages_are_cut() {
        let violation = LIMITED.validate(&serde_json::json!("x".repeat(10_000))).unwrap_err();
        assert!(violation.message.len() < 400, "{}", violation.message.len());
    }
}
