//! The `x-ecma-pattern` keyword: a schema's `pattern` that the
//! validator's own engine (Rust's `regex`, to which jsonschema translates
//! ECMA-262) cannot read, checked by regress, an ECMA-262 engine, so that
//! the pattern is checked as JSON Schema says, not dropped. The generator
//! writes it in place of `pattern` for exactly those patterns; read in
//! Unicode mode, as JSON Schema reads patterns, or in the legacy mode
//! where only that reads it.

use jsonschema::paths::Location;
use jsonschema::{Keyword, ValidationError};
use serde_json::{Map, Value};

/// The keyword's name, as the generator writes it.
pub(crate) const KEYWORD: &str = "x-ecma-pattern";

struct EcmaPattern {
    pattern: String,
    regex: regress::Regex,
}

impl<'i> Keyword<'i> for EcmaPattern {
    fn validate(&self, instance: &'i Value) -> Result<(), ValidationError<'i>> {
        match self.is_valid(instance) {
            true => Ok(()),
            false => Err(ValidationError::custom(format!(
                "{instance} does not match \"{}\"",
                self.pattern
            ))),
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        match instance {
            Value::String(text) => self.regex.find(text).is_some(),
            // Like `pattern`, it says nothing of other values.
            _ => true,
        }
    }
}

/// Compiles the keyword's pattern.
pub(crate) fn factory<'a>(
    _parent: &'a Map<String, Value>,
    value: &'a Value,
    _path: Location,
) -> Result<Box<dyn for<'i> Keyword<'i>>, ValidationError<'a>> {
    let pattern = value
        .as_str()
        .ok_or_else(|| ValidationError::custom("x-ecma-pattern must be a string"))?;
    let regex = regress::Regex::with_flags(pattern, "u")
        .or_else(|_| regress::Regex::new(pattern))
        .map_err(|e| ValidationError::custom(format!("x-ecma-pattern {pattern:?} does not compile: {e}")))?;
    Ok(Box::new(EcmaPattern {
        pattern: pattern.to_string(),
        regex,
    }))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn a_pattern_the_validator_cannot_read_is_checked_as_ecma_262() {
        // `\(`, `\p`, `\{` are ECMA-262's identity escapes here (legacy
        // mode): the validator's translation refuses them.
        let schema = json!({"x-ecma-pattern": r"^\([\p\{L\}_]*\)$"});
        let validator = jsonschema::options()
            .with_keyword(super::KEYWORD, super::factory)
            .build(&schema)
            .unwrap();
        assert!(validator.is_valid(&json!("(p{L}_)")));
        assert!(!validator.is_valid(&json!("(x)")));
        assert!(validator.is_valid(&json!(42)), "a number is not a string to match");
        let instance = json!("(x)");
        let error = validator.validate(&instance).unwrap_err();
        assert!(error.to_string().contains("does not match"), "{error}");
    }

    #[test]
    fn unicode_mode_is_read_first() {
        let schema = json!({"x-ecma-pattern": r"^\p{L}+$"});
        let validator = jsonschema::options()
            .with_keyword(super::KEYWORD, super::factory)
            .build(&schema)
            .unwrap();
        assert!(validator.is_valid(&json!("été")));
        assert!(!validator.is_valid(&json!("a1")));
    }
}
