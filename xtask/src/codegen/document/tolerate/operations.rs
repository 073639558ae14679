//! Operations: statuses written as numbers, Swagger 2.0's `formData`,
//! untyped list items of parameters, informational statuses, response
//! headers and content keys that are not what they look like, and bodies
//! whose schema describes what their bytes encode.

use serde_norway::{Mapping, Value};

use super::values::key_text;
use crate::codegen::document::media::{self, MediaKind, is_media_type};
use crate::codegen::document::model::METHODS;

/// `200:` in YAML is an integer key; OpenAPI's keys are strings.
pub(super) fn integer_statuses(responses: &mut Mapping, at: &str, note: &mut impl FnMut(String, &str)) {
    if !responses.keys().any(|k| matches!(k, Value::Number(_))) {
        return;
    }
    let entries: Vec<(Value, Value)> = std::mem::take(responses).into_iter().collect();
    for (key, value) in entries {
        let key = match key {
            Value::Number(n) => {
                note(
                    format!("{at}.{n}"),
                    "a status written as a number is read as the string OpenAPI keys responses by",
                );
                Value::String(n.to_string())
            }
            other => other,
        };
        responses.insert(key, value);
    }
}

/// Swagger 2.0's `in: formData` parameters, left in a 3.0 document: the
/// fields of a form body (multipart where one is a file), when the
/// operation has no body of its own.
pub(super) fn form_data(op: &mut Mapping, at: &str, note: &mut impl FnMut(String, &str)) {
    let Some(Value::Sequence(parameters)) = op.get("parameters") else {
        return;
    };
    let is_form = |p: &Value| p.get("in").and_then(Value::as_str) == Some("formData");
    if !parameters.iter().any(is_form) || op.contains_key("requestBody") {
        return;
    }
    let mut properties = Mapping::new();
    let mut required = Vec::new();
    let mut multipart = false;
    for parameter in parameters.iter().filter(|p| is_form(p)) {
        let Some(name) = parameter.get("name").and_then(Value::as_str) else {
            continue;
        };
        // Swagger 2.0 writes the type on the parameter; 3.0 in `schema`.
        let mut schema = match parameter.get("schema") {
            Some(Value::Mapping(schema)) => schema.clone(),
            _ => {
                let mut schema = Mapping::new();
                for key in [
                    "type", "format", "items", "enum", "default", "minimum", "maximum", "pattern",
                ] {
                    if let Some(value) = parameter.get(key) {
                        schema.insert(key.into(), value.clone());
                    }
                }
                schema
            }
        };
        if schema.get("type").and_then(Value::as_str) == Some("file") {
            schema.insert("type".into(), "string".into());
            schema.insert("format".into(), "binary".into());
        }
        multipart |= schema.get("format").and_then(Value::as_str) == Some("binary");
        if let Some(description) = parameter.get("description") {
            schema.insert("description".into(), description.clone());
        }
        properties.insert(name.into(), Value::Mapping(schema));
        if parameter.get("required").and_then(Value::as_bool) == Some(true) {
            required.push(Value::String(name.to_string()));
        }
    }
    let mut schema = Mapping::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Mapping(properties));
    if !required.is_empty() {
        schema.insert("required".into(), Value::Sequence(required.clone()));
    }
    let media_type = if multipart {
        "multipart/form-data"
    } else {
        "application/x-www-form-urlencoded"
    };
    let mut media = Mapping::new();
    media.insert("schema".into(), Value::Mapping(schema));
    let mut content = Mapping::new();
    content.insert(media_type.into(), Value::Mapping(media));
    let mut body = Mapping::new();
    body.insert("content".into(), Value::Mapping(content));
    if !required.is_empty() {
        body.insert("required".into(), Value::Bool(true));
    }
    if let Some(Value::Sequence(parameters)) = op.get_mut("parameters") {
        parameters.retain(|p| !is_form(p));
    }
    op.insert("requestBody".into(), Value::Mapping(body));
    note(
        format!("{at}.parameters"),
        &format!("Swagger 2.0's `in: formData` parameters are read as the fields of a `{media_type}` body"),
    );
}

/// A parameter's list whose items say nothing (`items: {}`): each item of
/// a parameter is text, so a string.
pub(super) fn untyped_parameter_items(item: &mut Mapping, at: &str, note: &mut impl FnMut(String, &str)) {
    let mut fix = |list: Option<&mut Value>, at: String| {
        let Some(Value::Sequence(parameters)) = list else {
            return;
        };
        for (i, parameter) in parameters.iter_mut().enumerate() {
            if let Some(Value::Mapping(schema)) = parameter.get_mut("schema")
                && schema.get("type").and_then(Value::as_str) == Some("array")
                && let Some(Value::Mapping(items)) = schema.get_mut("items")
                && items
                    .keys()
                    .all(|k| ["description", "title", "example"].contains(&key_text(k).as_str()))
            {
                items.insert("type".into(), "string".into());
                note(
                    format!("{at}.{i}.schema.items"),
                    "a parameter's list items without a type are text: read as strings",
                );
            }
        }
    };
    fix(item.get_mut("parameters"), format!("{at}.parameters"));
    for method in METHODS {
        if let Some(op) = item.get_mut(method) {
            fix(op.get_mut("parameters"), format!("{at}.{method}.parameters"));
        }
    }
}

pub(super) fn informational_statuses(responses: &mut Mapping, at: &str, note: &mut impl FnMut(String, &str)) {
    let informational: Vec<Value> = responses
        .keys()
        .filter(|k| {
            let text = key_text(k);
            text.len() == 3 && text.starts_with('1') && text != "101"
        })
        .cloned()
        .collect();
    // An operation keeps at least one response.
    if informational.len() == responses.len() {
        return;
    }
    for key in informational {
        responses.shift_remove(&key);
        note(
            format!("{at}.{}", key_text(&key)),
            "an informational status other than 101 is the HTTP machinery's to send, not a handler's answer: not mapped",
        );
    }
}

pub(super) fn response_parts(response: &mut Value, at: &str, note: &mut impl FnMut(String, &str)) {
    if let Some(Value::Mapping(headers)) = response.get_mut("headers") {
        let content_type: Vec<Value> = headers
            .keys()
            .filter(|k| key_text(k).eq_ignore_ascii_case("content-type"))
            .cloned()
            .collect();
        for key in content_type {
            headers.shift_remove(&key);
            note(
                format!("{at}.headers.{}", key_text(&key)),
                "a `Content-Type` response header is the response's media type, which OpenAPI says to ignore",
            );
        }
        // A header is text: one that says nothing of its value is any text,
        // and one whose `content` is text is its schema's text.
        for (name, header) in headers.iter_mut() {
            if let Value::Mapping(header) = header
                && !header.contains_key("schema")
                && let Some(Value::Mapping(content)) = header.get("content")
                && content.len() == 1
                && let Some((media_type, media)) = content.iter().next()
                && media::kind(&key_text(media_type)) == MediaKind::Text
            {
                let schema = media.get("schema").cloned().unwrap_or_else(|| {
                    let mut schema = Mapping::new();
                    schema.insert("type".into(), "string".into());
                    Value::Mapping(schema)
                });
                header.shift_remove("content");
                header.insert("schema".into(), schema);
                note(
                    format!("{at}.headers.{}.content", key_text(name)),
                    "a header's value given as text content: read as its schema",
                );
                continue;
            }
            if let Value::Mapping(header) = header
                && !["schema", "content", "$ref"].iter().any(|k| header.contains_key(*k))
            {
                let mut schema = Mapping::new();
                schema.insert("type".into(), "string".into());
                header.insert("schema".into(), Value::Mapping(schema));
                note(
                    format!("{at}.headers.{}", key_text(name)),
                    "a header without a `schema`: read as any text (`type: string`)",
                );
            }
        }
    }
    content_keys(response, at, note);
}

/// A request body of bytes (`application/jwt`, `image/jpeg`) whose schema
/// is not `{type: string, format: binary}`: its schema describes what the
/// bytes encode (a JWT's claims, base64), which the layer cannot check on
/// the bytes; the body is read as bytes, the schema's description kept. A
/// `text/*` body with a schema other than a string is read as text.
pub(super) fn body_schemas(body: &mut Value, at: &str, note: &mut impl FnMut(String, &str)) {
    let Some(Value::Mapping(content)) = body.get_mut("content") else {
        return;
    };
    for (media_type, media) in content.iter_mut() {
        let media_type = key_text(media_type);
        let Value::Mapping(media) = media else { continue };
        let form = ["application/x-www-form-urlencoded", "multipart/form-data"]
            .contains(&media::essence(&media_type).as_str());
        match media.get_mut("schema") {
            // A JSON body with no schema: any JSON value (the type says
            // no more than the document does).
            None if media::kind(&media_type) == MediaKind::Json => {
                media.insert("schema".into(), Value::Mapping(Mapping::new()));
                note(
                    format!("{at}.content.{media_type}"),
                    "no schema: read as any JSON value",
                );
            }
            // A form's fields without `type: object`: a form is an object.
            Some(Value::Mapping(schema))
                if form && !schema.contains_key("type") && schema.contains_key("properties") =>
            {
                schema.insert("type".into(), "object".into());
                note(
                    format!("{at}.content.{media_type}.schema"),
                    "a form's properties without `type: object`: read as the object a form is",
                );
            }
            _ => {}
        }
    }
    // Beside JSON, a form or XML, the body is read as that one value and
    // other media types get 415: nothing to read as bytes.
    let structured = content.keys().map(key_text).any(|media_type| {
        media::kind(&media_type) == MediaKind::Json
            || media::is_xml(&media_type)
            || ["application/x-www-form-urlencoded", "multipart/form-data"]
                .contains(&media::essence(&media_type).as_str())
    });
    if structured {
        return;
    }
    for (media_type, media) in content.iter_mut() {
        let media_type = key_text(media_type);
        let essence = media::essence(&media_type);
        let kind = media::kind(&media_type);
        let special = ["application/x-www-form-urlencoded", "multipart/form-data"].contains(&essence.as_str())
            || media::is_xml(&media_type);
        let (ty, format) = match kind {
            MediaKind::Binary if !special => ("string", Some("binary")),
            MediaKind::Range if media::is_octet_range(&media_type) => ("string", Some("binary")),
            MediaKind::Text if !special => ("string", None),
            _ => continue,
        };
        let Value::Mapping(media) = media else { continue };
        let schema = media.get("schema");
        let is_plain = schema.and_then(Value::as_mapping).is_some_and(|schema| {
            schema.get("type").and_then(Value::as_str) == Some(ty)
                && schema.get("format").and_then(Value::as_str) == format
                && schema
                    .keys()
                    .all(|k| ["type", "format", "description", "title", "example"].contains(&key_text(k).as_str()))
        });
        // A string schema with constraints on a text body means them: it
        // stays refused (progenitor's client sends text as it is) rather
        // than checked no more.
        let string_text =
            format.is_none() && schema.and_then(|s| s.get("type")).and_then(Value::as_str) == Some("string");
        if is_plain || string_text {
            continue;
        }
        let mut plain = Mapping::new();
        plain.insert("type".into(), ty.into());
        if let Some(format) = format {
            plain.insert("format".into(), format.into());
        }
        if let Some(description) = schema.and_then(|s| s.get("description")) {
            plain.insert("description".into(), description.clone());
        }
        media.insert("schema".into(), Value::Mapping(plain));
        let what = match format {
            Some(_) => "bytes",
            None => "text",
        };
        note(
            format!("{at}.content.{media_type}.schema"),
            &format!(
                "degraded: a `{media_type}` body is read as {what}; its schema (what the {what} encode) is not checked"
            ),
        );
    }
}

pub(super) fn content_keys(holder: &mut Value, at: &str, note: &mut impl FnMut(String, &str)) {
    let Some(Value::Mapping(content)) = holder.get_mut("content") else {
        return;
    };
    let not_media: Vec<Value> = content
        .keys()
        .filter(|k| !is_media_type(&key_text(k)))
        .cloned()
        .collect();
    for key in not_media {
        content.shift_remove(&key);
        note(
            format!("{at}.content.{}", key_text(&key)),
            "not a media type (a property's name or example, where media types belong): not read as content",
        );
    }
}
