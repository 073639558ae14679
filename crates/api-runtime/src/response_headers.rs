//! A response's documented headers, from the struct a handler fills (one
//! field per header, named as the spec names it) to header lines.

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
            serde_json::Value::String(s) => s,
            serde_json::Value::Number(n) => n.to_string(),
            serde_json::Value::Bool(b) => b.to_string(),
            other => return Err(format!("`{name}` is not a scalar: {other}")),
        };
        let name = HeaderName::try_from(name.as_str()).map_err(|e| format!("`{name}`: {e}"))?;
        let value = HeaderValue::try_from(value).map_err(|e| format!("`{name}`: {e}"))?;
        out.push((name, value));
    }
    Ok(out)
}
