//! A response's documented headers, from the struct a handler fills (one
//! field per header, named as the spec names it) to header lines: a
//! scalar as its text, a list as its items joined by commas (the `simple`
//! style, OpenAPI's only one for headers).

use http::header::{HeaderName, HeaderValue};
use serde::Serialize;

/// A struct of header values as (name, value) pairs.
pub(crate) fn header_fields<H: Serialize>(headers: &H) -> Result<Vec<(HeaderName, HeaderValue)>, String> {
    let serde_json::Value::Object(fields) = serde_json::to_value(headers).map_err(|e| e.to_string())? else {
        return Err("not a struct".into());
    };
    let mut out = Vec::with_capacity(fields.len());
    for (name, value) in fields {
        let value = match value {
            serde_json::Value::Null => continue,
            serde_json::Value::Array(items) => {
                let texts = items.into_iter().map(|item| {
                    scalar_text(item).map_err(|other| format!("`{name}` has an item that is not a scalar: {other}"))
                });
                texts.collect::<Result<Vec<_>, _>>()?.join(",")
            }
            value => scalar_text(value).map_err(|other| format!("`{name}` is not a scalar: {other}"))?,
        };
        let name = HeaderName::try_from(name.as_str()).map_err(|e| format!("`{name}`: {e}"))?;
        let value = HeaderValue::try_from(value).map_err(|e| format!("`{name}`: {e}"))?;
        out.push((name, value));
    }
    Ok(out)
}

fn scalar_text(value: serde_json::Value) -> Result<String, serde_json::Value> {
    match value {
        serde_json::Value::String(s) => Ok(s),
        serde_json::Value::Number(n) => Ok(n.to_string()),
        serde_json::Value::Bool(b) => Ok(b.to_string()),
        other => Err(other),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::header_fields;

    #[test]
    fn scalars_are_their_text_and_lists_their_items_joined() {
        let fields = header_fields(&json!({"x-count": 3, "content-language": ["en", "fr"], "x-gone": null})).unwrap();
        let lines: Vec<(String, String)> = fields
            .into_iter()
            .map(|(name, value)| (name.to_string(), value.to_str().unwrap().to_string()))
            .collect();
        assert_eq!(
            lines,
            [
                ("content-language".to_string(), "en,fr".to_string()),
                ("x-count".to_string(), "3".to_string())
            ]
        );
        let nested = header_fields(&json!({"x-list": [["a"]]})).unwrap_err();
        assert!(nested.contains("`x-list` has an item that is not a scalar"), "{nested}");
        let object = header_fields(&json!({"x-object": {"a": 1}})).unwrap_err();
        assert!(object.contains("`x-object` is not a scalar"), "{object}");
    }
}
