//! Parameter values written as the server reads them, where progenitor
//! writes them otherwise: a header's or a path segment's text, JSON text,
//! and a cookie parameter in the request's one `Cookie` header.

use reqwest::header::{COOKIE, HeaderMap, HeaderValue, InvalidHeaderValue};

/// A parameter's value as a header or a path segment carries it (the
/// `simple` style): a string as it is, a list's items joined by commas,
/// an object's present properties as their names and values so joined.
pub fn parameter_text<T: serde::Serialize + ?Sized>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::Array(items)) => items.iter().map(text).collect::<Vec<_>>().join(","),
        Ok(serde_json::Value::Object(properties)) => present(&properties)
            .flat_map(|(name, value)| [name.clone(), text(value)])
            .collect::<Vec<_>>()
            .join(","),
        Ok(value) => text(&value),
        Err(_) => String::new(),
    }
}

/// An object parameter as a header or a path segment carries it with
/// `explode: true`: its present properties as `name=value`, joined by
/// commas; any other value as [`parameter_text`] writes it.
pub fn exploded_text<T: serde::Serialize + ?Sized>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::Object(properties)) => present(&properties)
            .map(|(name, value)| format!("{name}={}", text(value)))
            .collect::<Vec<_>>()
            .join(","),
        _ => parameter_text(value),
    }
}

/// A value as a parameter's text: a string as it is, anything else as
/// its JSON (`7`, `true`). What every writer of parameters and form
/// fields here sends a scalar as.
pub(crate) fn text(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

fn present(
    properties: &serde_json::Map<String, serde_json::Value>,
) -> impl Iterator<Item = (&String, &serde_json::Value)> {
    properties.iter().filter(|(_, value)| !value.is_null())
}

/// A parameter sent as JSON text (a `content` parameter, or a value no
/// style of OpenAPI's writes); `None` (absent) for an optional one not
/// given.
pub fn json_text<T: serde::Serialize + ?Sized>(value: &T) -> Option<String> {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::Null) | Err(_) => None,
        Ok(value) => Some(value.to_string()),
    }
}

/// Adds `name=value` to the request's one `Cookie` header (a cookie
/// parameter; RFC 6265 §5.4: a client sends one). The value is sent as it
/// is: one that a header cannot carry is the same error as for a header.
pub fn append_cookie(headers: &mut HeaderMap, name: &str, value: String) -> Result<(), InvalidHeaderValue> {
    let cookie = match headers.get(COOKIE).and_then(|v| v.to_str().ok()) {
        Some(cookies) => format!("{cookies}; {name}={value}"),
        None => format!("{name}={value}"),
    };
    headers.insert(COOKIE, HeaderValue::from_str(&cookie)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{append_cookie, exploded_text, json_text, parameter_text};

    #[test]
    fn a_value_is_its_text_and_a_list_its_items_joined() {
        assert_eq!(parameter_text("a b"), "a b");
        assert_eq!(parameter_text(&7), "7");
        assert_eq!(parameter_text(&json!(["x", 2, true])), "x,2,true");
        assert_eq!(parameter_text(&json!({"k": "v", "n": 2, "gone": null})), "k,v,n,2");
        assert_eq!(exploded_text(&json!({"k": "v", "n": 2, "gone": null})), "k=v,n=2");
        assert_eq!(exploded_text(&json!(["a", "b"])), "a,b");
    }

    #[test]
    fn json_text_is_absent_for_null_alone() {
        assert_eq!(json_text(&json!({"a": [1]})).as_deref(), Some(r#"{"a":[1]}"#));
        assert_eq!(json_text("s").as_deref(), Some(r#""s""#));
        assert_eq!(json_text(&None::<u8>), None);
    }

    #[test]
    fn cookies_share_one_header() {
        let mut headers = reqwest::header::HeaderMap::new();
        append_cookie(&mut headers, "a", "1".into()).unwrap();
        append_cookie(&mut headers, "b", "2".into()).unwrap();
        assert_eq!(headers.get_all(reqwest::header::COOKIE).iter().count(), 1);
        assert_eq!(headers[reqwest::header::COOKIE], "a=1; b=2");
        assert!(append_cookie(&mut headers, "c", "line\nbreak".into()).is_err());
    }
}
