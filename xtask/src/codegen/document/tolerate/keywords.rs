//! Schema keywords written in another form than OpenAPI 3.0 reads:
//! 3.1's numeric exclusive bounds, counts written as floats, and patterns
//! in another dialect than ECMA-262's.

use serde_norway::{Mapping, Value};

/// OpenAPI 3.1's numeric `exclusiveMinimum` in a 3.0 document.
pub(super) fn numeric_exclusive_bounds(map: &mut Mapping, at: &str, note: &mut impl FnMut(String, &str)) {
    for (exclusive, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
        if let Some(number @ Value::Number(_)) = map.get(exclusive).cloned() {
            map.insert(bound.into(), number);
            map.insert(exclusive.into(), Value::Bool(true));
            note(
                format!("{at}.{exclusive}"),
                &format!(
                    "OpenAPI 3.1's numeric `{exclusive}` in a 3.0 document is read as `{bound}` with `{exclusive}: true`"
                ),
            );
        }
    }
}

/// A count (`maxLength: 2.0`) written as a float without a fraction: the
/// integer it is (a count is a non-negative integer; JSON Schema reads
/// `2.0` as one, OpenAPI 3.0's readers do not).
pub(super) fn integral_counts(map: &mut Mapping, at: &str, note: &mut impl FnMut(String, &str)) {
    const COUNTS: [&str; 8] = [
        "maxLength",
        "minLength",
        "maxItems",
        "minItems",
        "maxProperties",
        "minProperties",
        "maxContains",
        "minContains",
    ];
    for key in COUNTS {
        if let Some(Value::Number(n)) = map.get(key)
            && n.as_u64().is_none()
            && let Some(float) = n.as_f64()
            && float >= 0.0
            && float.fract() == 0.0
            && float < 9.0e15
        {
            let written = n.to_string();
            map.insert(key.into(), Value::from(float as u64));
            note(
                format!("{at}.{key}"),
                &format!(
                    "a count written as a number with a fraction (`{written}`): read as the integer `{}`",
                    float as u64
                ),
            );
        }
    }
}

/// A pattern that is not ECMA-262 as JSON Schema reads it (Unicode
/// mode): written in another dialect (`\A`, `(?i)`, `\p{Punct}`), it is
/// read as its translation; one no engine reads is not checked (the last
/// resort).
pub(super) fn pattern_dialect(map: &mut Mapping, at: &str, note: &mut impl FnMut(String, &str)) {
    use crate::codegen::patterns::{Reading, is_unicode_ecma, reading, translated};
    let Some(pattern) = map.get("pattern").and_then(Value::as_str).map(str::to_string) else {
        return;
    };
    if is_unicode_ecma(&pattern) {
        return;
    }
    if let Some(translation) = translated(&pattern)
        && is_unicode_ecma(&translation)
    {
        note(
            format!("{at}.pattern"),
            &format!("`{pattern}` is written in another dialect than ECMA-262's: read as `{translation}`"),
        );
        map.insert("pattern".into(), Value::String(translation));
        return;
    }
    if reading(&pattern) == Reading::Unread {
        map.shift_remove("pattern");
        note(
            format!("{at}.pattern"),
            &format!("`{pattern}` is not a regular expression any ECMA-262 engine reads: not checked"),
        );
    }
}
