//! 3.1 keywords that 3.0 says otherwise: `examples` as `example`,
//! content keywords as formats (and annotations 3.0 has no place for
//! left out), numeric exclusive bounds as 3.0's bound and flag, and
//! `const` as a one-value enum of the value's type.

use serde_norway::{Mapping, Value};

use super::kept::extension;

/// Keywords that only annotate, with no 3.0 form.
const ANNOTATIONS_DROPPED: [&str; 10] = [
    "$schema",
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "$comment",
    "$vocabulary",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
    "$defs",
];

/// `examples` as `example`; annotations 3.0 has no place for go.
pub(super) fn annotations(map: &mut Mapping) {
    if let Some(examples) = map.shift_remove("examples")
        && !map.contains_key("example")
        && let Value::Sequence(mut examples) = examples
        && !examples.is_empty()
    {
        map.insert("example".into(), examples.swap_remove(0));
    }
    let format = match (map.get("contentEncoding"), map.get("contentMediaType")) {
        (Some(Value::String(encoding)), _) if encoding == "base64" || encoding == "base64url" => Some("byte"),
        // 3.1's binary string (FastAPI's upload): 3.0's `format: binary`.
        (None, Some(Value::String(media_type))) if !media_type.starts_with("text/") && !media_type.contains("json") => {
            Some("binary")
        }
        _ => None,
    };
    if let Some(format) = format
        && !map.contains_key("format")
        && map.get("type").is_none_or(|ty| ty.as_str() == Some("string"))
    {
        map.insert("format".into(), format.into());
    }
    for key in ANNOTATIONS_DROPPED {
        map.shift_remove(key);
    }
}

/// Numeric exclusive bounds (2020-12) as 3.0's bound and flag: the
/// stricter of it and an inclusive bound beside it.
pub(super) fn bounds(map: &mut Mapping, at: &str, note: &mut dyn FnMut(String, &str)) {
    for (exclusive, inclusive, stricter) in [
        ("exclusiveMinimum", "minimum", std::cmp::Ordering::Greater),
        ("exclusiveMaximum", "maximum", std::cmp::Ordering::Less),
    ] {
        match map.get(exclusive) {
            Some(Value::Number(bound)) => {
                let bound = Value::Number(bound.clone());
                let keep_inclusive = map
                    .get(inclusive)
                    .and_then(Value::as_f64)
                    .zip(bound.as_f64())
                    .is_some_and(|(inclusive, exclusive)| inclusive.partial_cmp(&exclusive) == Some(stricter));
                if keep_inclusive {
                    map.shift_remove(exclusive);
                } else {
                    map.insert(inclusive.into(), bound);
                    map.insert(exclusive.into(), Value::Bool(true));
                }
            }
            Some(Value::Bool(_)) => note(
                format!("{at}.{exclusive}"),
                "a boolean `exclusive` bound is OpenAPI 3.0's: read as 3.0 reads it",
            ),
            _ => {}
        }
    }
}

/// `const` as a one-value `enum` (where an `enum` beside it allows the
/// value; otherwise both are kept, for validation).
pub(super) fn constant(map: &mut Mapping) {
    let Some(value) = map.shift_remove("const") else {
        return;
    };
    let allowed = match map.get("enum") {
        None => true,
        Some(Value::Sequence(values)) => values.contains(&value),
        Some(_) => false,
    };
    if allowed {
        // The value's type, which a `const` implies, so that the enum is
        // typed (and dropshot's document keeps it).
        let implied = match &value {
            Value::String(_) => Some("string"),
            Value::Bool(_) => Some("boolean"),
            Value::Number(n) if n.is_i64() || n.is_u64() => Some("integer"),
            Value::Number(_) => Some("number"),
            _ => None,
        };
        if let Some(implied) = implied
            && !map.contains_key("type")
        {
            map.insert("type".into(), implied.into());
        }
        map.insert("enum".into(), Value::Sequence(vec![value]));
    } else {
        extension(map).insert("const".into(), value);
    }
}
