//! Parameter text read as JSON values of the type the schema declares, so
//! that the schema (and then serde) can take over. The syntax is the
//! JSON's: an integer is `-?[0-9]+` (Rust's `FromStr` would also take
//! `+5`), a boolean `true` or `false`.

use serde_json::{Number, Value};

use crate::contract::Scalar;

/// `raw` as a JSON value of type `scalar`, or why it is not one.
pub fn read_scalar(raw: &str, scalar: Scalar) -> Result<Value, String> {
    match scalar {
        Scalar::String => Ok(Value::String(raw.to_string())),
        Scalar::Boolean => match raw {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err("is not a boolean: expected `true` or `false`".into()),
        },
        Scalar::Integer => read_integer(raw),
        Scalar::Number => read_number(raw),
        Scalar::Any => Ok(match raw {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => read_number(raw).unwrap_or_else(|_| Value::String(raw.to_string())),
        }),
    }
}

fn read_integer(raw: &str) -> Result<Value, String> {
    let digits = raw.strip_prefix('-').unwrap_or(raw);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err("is not an integer: expected decimal digits".into());
    }
    if let Ok(value) = raw.parse::<i64>() {
        return Ok(Value::Number(value.into()));
    }
    match raw.parse::<u64>() {
        Ok(value) => Ok(Value::Number(value.into())),
        Err(_) => Err("is not an integer in range: too many digits".into()),
    }
}

fn read_number(raw: &str) -> Result<Value, String> {
    // JSON's grammar: an optional minus, digits, an optional fraction and
    // exponent. Rust's parser also takes `+1`, `inf` and `NaN`.
    let valid = {
        let rest = raw.strip_prefix('-').unwrap_or(raw);
        let (mantissa, exponent) = match rest.find(['e', 'E']) {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None => (rest, None),
        };
        let (whole, fraction) = match mantissa.split_once('.') {
            Some((whole, fraction)) => (whole, Some(fraction)),
            None => (mantissa, None),
        };
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        digits(whole)
            && fraction.is_none_or(digits)
            && exponent.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)))
    };
    if !valid {
        return Err("is not a number".into());
    }
    if let Ok(value) = raw.parse::<i64>() {
        return Ok(Value::Number(value.into()));
    }
    raw.parse::<f64>()
        .ok()
        .and_then(Number::from_f64)
        .map(Value::Number)
        .ok_or_else(|| "is not a number in range".into())
}

/// The items of a list sent as one text (`1,2,3`). An empty text is an
/// empty list.
pub fn split_list(raw: &str) -> impl Iterator<Item = &str> {
    raw.split(',')
        .filter(move |_| !raw.is_empty())
        .map(|item| item.trim_matches([' ', '\t']))
}

/// A client-chosen text, quoted and cut short for a message.
pub fn quote(raw: &str) -> String {
    let shown: String = raw.chars().take(64).collect();
    let ellipsis = if raw.chars().count() > 64 { "..." } else { "" };
    format!("{shown:?}{ellipsis}")
}

/// Numbers written with a fraction of zero (`4.0`) as the integers they
/// are. JSON Schema (since draft 6, and 2020-12, which validates here)
/// counts `4.0` as an integer, so a body the schema allows may carry one
/// where the Rust type is an integer, which serde would refuse. A number
/// read into an `f64` or kept as JSON is the same number either way.
pub fn integral_numbers_as_integers(value: &mut Value) {
    match value {
        Value::Number(number) if number.is_f64() => {
            let Some(float) = number.as_f64() else { return };
            // Within ±2^53 a float is exact, and an integer the same.
            if float.fract() == 0.0 && float.abs() <= 9_007_199_254_740_992.0 {
                *number = Number::from(float as i64);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(integral_numbers_as_integers),
        Value::Object(map) => map.values_mut().for_each(integral_numbers_as_integers),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn integral_numbers_become_integers_and_others_stay() {
        let mut value = serde_json::json!({"a": 4.0, "b": [1.5, -2.0, 3], "c": 1e300, "d": "4.0"});
        super::integral_numbers_as_integers(&mut value);
        assert_eq!(
            value,
            serde_json::json!({"a": 4, "b": [1.5, -2, 3], "c": 1e300, "d": "4.0"})
        );
        assert!(value["a"].is_u64() && value["b"][1].is_i64());
        let level: std::num::NonZeroU64 = serde_json::from_value(value["a"].clone()).unwrap();
        assert_eq!(level.get(), 4);
    }

    use super::*;

    #[test]
    fn integers_are_decimal_digits_only() {
        assert_eq!(read_scalar("42", Scalar::Integer), Ok(serde_json::json!(42)));
        assert_eq!(read_scalar("-3", Scalar::Integer), Ok(serde_json::json!(-3)));
        assert_eq!(
            read_scalar("18446744073709551615", Scalar::Integer),
            Ok(serde_json::json!(u64::MAX))
        );
        for raw in [
            "",
            "-",
            "+5",
            "1e3",
            "0x10",
            " 1",
            "1.0",
            "\u{661}",
            "99999999999999999999",
        ] {
            assert!(read_scalar(raw, Scalar::Integer).is_err(), "{raw:?}");
        }
    }

    #[test]
    fn numbers_follow_json() {
        assert_eq!(read_scalar("1.5", Scalar::Number), Ok(serde_json::json!(1.5)));
        assert_eq!(read_scalar("-2e3", Scalar::Number), Ok(serde_json::json!(-2000.0)));
        assert_eq!(read_scalar("7", Scalar::Number), Ok(serde_json::json!(7)));
        for raw in ["", "+1", "inf", "NaN", "1.", ".5", "1e", "1e999", "0x1"] {
            assert!(read_scalar(raw, Scalar::Number).is_err(), "{raw:?}");
        }
    }

    #[test]
    fn booleans_are_true_or_false() {
        assert_eq!(read_scalar("true", Scalar::Boolean), Ok(Value::Bool(true)));
        assert_eq!(read_scalar("true", Scalar::Any), Ok(Value::Bool(true)));
        assert_eq!(read_scalar("-2.5", Scalar::Any), Ok(serde_json::json!(-2.5)));
        assert_eq!(read_scalar("7", Scalar::Any), Ok(serde_json::json!(7)));
        assert_eq!(read_scalar("0x7", Scalar::Any), Ok(serde_json::json!("0x7")));
        for raw in ["True", "1", "yes", ""] {
            assert!(read_scalar(raw, Scalar::Boolean).is_err(), "{raw:?}");
        }
    }

    #[test]
    fn lists_split_on_commas() {
        assert_eq!(split_list("a,b, c").collect::<Vec<_>>(), ["a", "b", "c"]);
        assert_eq!(split_list("").count(), 0);
        assert_eq!(split_list(",").collect::<Vec<_>>(), ["", ""]);
    }
}
