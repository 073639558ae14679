//! How a parameter's value travels in its text, which the server reads
//! and the client writes alike (`runtime::ValueKind`): a scalar (of one
//! type, or of none: a schema without `type`, or a choice of scalar
//! types), a list of scalars, an object of scalar properties, or JSON
//! text: a `content` parameter's, and, degraded, a value no style of
//! OpenAPI's writes (a list of objects, an object of lists), which
//! OpenAPI leaves undefined and the generated code reads and sends as
//! JSON text rather than refuse.

use serde_json::Value;

use super::forms::{all_scalar_properties, is_free_form_object};
use super::media::{MediaKind, kind};
use super::model::{Spec, is_scalar, schema_type};

/// A parameter's shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParameterShape<'a> {
    /// One scalar, of a type (`Some("integer")`) or of none (`None`).
    Scalar(Option<&'a str>),
    /// A list of scalars.
    List(Option<&'a str>),
    /// An object of scalar properties, with their types.
    Object(Vec<(&'a str, &'a str)>),
    /// A free-form object (`deepObject`: each pair a property).
    FreeObject,
    /// A query value of any other structure in the `deepObject` style:
    /// bracket notation (`created[gt]=1`, `expand[]=a`, `created=1`),
    /// each text read by the schema (`runtime::ValueKind::Deep`).
    Deep,
    /// JSON text.
    Json {
        /// A schema parameter no style writes (not a `content` one).
        degraded: bool,
    },
}

/// The schema a parameter's value has: its `schema`, or its `content`'s
/// one media type's (`{}` when it gives none).
pub fn parameter_schema(parameter: &Value) -> Option<&Value> {
    static ANY: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    if let Some(schema) = parameter.get("schema") {
        return Some(schema);
    }
    let (_, media) = parameter.get("content")?.as_object()?.iter().next()?;
    Some(
        media
            .get("schema")
            .unwrap_or_else(|| ANY.get_or_init(|| Value::Object(Default::default()))),
    )
}

/// Where [`parameter_schema`] is, for a parameter at `location`.
pub fn parameter_schema_location(parameter: &Value, location: &str) -> String {
    match (
        parameter.get("schema"),
        parameter.get("content").and_then(Value::as_object),
    ) {
        (None, Some(content)) => match content.iter().next() {
            Some((media_type, media)) if media.get("schema").is_some() => {
                format!("{location}.content.{media_type}.schema")
            }
            Some((media_type, _)) => format!("{location}.content.{media_type}"),
            None => format!("{location}.content"),
        },
        _ => format!("{location}.schema"),
    }
}

/// The shape of `parameter` (a Parameter Object), or `None` when it has
/// no schema, or one its place cannot carry (`why`).
pub fn parameter_shape<'a>(spec: &'a Spec, parameter: &'a Value) -> Result<ParameterShape<'a>, &'static str> {
    let place = parameter["in"].as_str().unwrap_or_default();
    if let Some((media_type, media)) = parameter
        .get("content")
        .and_then(Value::as_object)
        .and_then(|c| c.iter().next())
        .filter(|_| parameter.get("schema").is_none())
    {
        // Text (or any type, `*/*`) of a scalar schema is that scalar's
        // text; any other text a string, any other value JSON.
        let ty = media.get("schema").and_then(|schema| schema_type(spec, schema));
        return match kind(media_type) {
            MediaKind::Json => Ok(ParameterShape::Json { degraded: false }),
            MediaKind::Text | MediaKind::Range if is_scalar(ty) => Ok(ParameterShape::Scalar(ty)),
            MediaKind::Text => Ok(ParameterShape::Scalar(Some("string"))),
            MediaKind::Range => Ok(ParameterShape::Json { degraded: false }),
            MediaKind::Binary => Err("a `content` parameter's media type must be JSON, text or a range"),
        };
    }
    let schema = parameter_schema(parameter).ok_or("a parameter needs a `schema` or a `content`")?;
    let ty = schema_type(spec, schema);
    let style = parameter.get("style").and_then(Value::as_str);
    let scalar = is_scalar(ty) || (ty.is_none() && scalar_of_no_type(spec, schema, 0));
    let items = || {
        let items = schema
            .get("items")
            .or_else(|| spec.resolve_schema(schema).get("items"))?;
        let item = schema_type(spec, items);
        (is_scalar(item) || (item.is_none() && scalar_of_no_type(spec, items, 0))).then_some(item)
    };
    // An object of scalar properties, with their types: in the query, a
    // `deepObject` or a form's; in a path or a header, the `simple` style.
    let scalar_object = || match ty {
        Some("object") => all_scalar_properties(spec, schema),
        _ => None,
    };
    match place {
        "path" | "cookie" if scalar => Ok(ParameterShape::Scalar(ty)),
        // A list's items, or an object's names and values, joined by
        // commas (the `simple` style).
        "path" => match (ty, items()) {
            (Some("array"), Some(item)) => Ok(ParameterShape::List(item)),
            _ if let Some(properties) = scalar_object() => Ok(ParameterShape::Object(properties)),
            _ => Err(
                "a path parameter must be a scalar, a list of scalars or an object of scalar properties (a value \
                 of no one of these shapes is not mapped yet)",
            ),
        },
        "cookie" => Err("a cookie parameter must be a scalar (a list or an object in a cookie is not mapped yet)"),
        "header" if scalar => Ok(ParameterShape::Scalar(ty)),
        "header" => match (ty, items()) {
            (Some("array"), Some(item)) => Ok(ParameterShape::List(item)),
            _ if let Some(properties) = scalar_object() => Ok(ParameterShape::Object(properties)),
            (Some("object"), _) => Err("a header parameter that is an object must have scalar properties"),
            _ => Ok(ParameterShape::Json { degraded: true }),
        },
        _ if style == Some("deepObject") => match (ty, items()) {
            _ if let Some(properties) = scalar_object() => Ok(ParameterShape::Object(properties)),
            (Some("object"), _) if is_free_form_object(spec, schema) => Ok(ParameterShape::FreeObject),
            _ => Ok(ParameterShape::Deep),
        },
        _ if scalar => Ok(ParameterShape::Scalar(ty)),
        _ => match (ty, items()) {
            (Some("array"), Some(item)) => Ok(ParameterShape::List(item)),
            _ if let Some(properties) = scalar_object() => Ok(ParameterShape::Object(properties)),
            _ => Ok(ParameterShape::Json { degraded: true }),
        },
    }
}

/// The delimiter of a query list in the `spaceDelimited` (`' '`) or
/// `pipeDelimited` (`'|'`) style; `None` for any other style.
pub fn list_delimiter(parameter: &Value) -> Option<char> {
    match parameter.get("style").and_then(Value::as_str) {
        Some("spaceDelimited") => Some(' '),
        Some("pipeDelimited") => Some('|'),
        _ => None,
    }
}

/// How [`json_text_parameters`]' reasons start (their Rust type is the
/// schema's, not degraded).
pub const JSON_TEXT: &str = "read and sent as JSON text";

/// The parameters of `spec` whose value no style of OpenAPI's writes,
/// read and sent as JSON text instead: a degradation, by location, with
/// why (lint names each).
pub fn json_text_parameters(spec: &Spec) -> std::collections::BTreeMap<String, String> {
    let mut out = std::collections::BTreeMap::new();
    for op in spec.operations() {
        for (parameter, location) in spec.parameters(&op).unwrap_or_default() {
            if let Ok(ParameterShape::Json { degraded: true }) = parameter_shape(spec, &parameter) {
                let place = parameter["in"].as_str().unwrap_or_default();
                out.insert(
                    location,
                    format!(
                        "{JSON_TEXT}: no style of OpenAPI's writes this value in a {place} (a list of objects, an \
                         object of lists)"
                    ),
                );
            }
        }
    }
    out
}

/// Whether a schema without a type is still a scalar's: it names no
/// object or list keyword, and a choice among its branches is of scalars.
fn scalar_of_no_type(spec: &Spec, schema: &Value, depth: usize) -> bool {
    const STRUCTURED: [&str; 9] = [
        "properties",
        "additionalProperties",
        "items",
        "required",
        "minProperties",
        "maxProperties",
        "minItems",
        "maxItems",
        "uniqueItems",
    ];
    let schema = spec.resolve_schema(schema);
    let Some(map) = schema.as_object() else {
        return false;
    };
    if depth > 8 || STRUCTURED.iter().any(|k| map.contains_key(*k)) {
        return false;
    }
    if let Some(ty) = map.get("type") {
        return is_scalar(ty.as_str());
    }
    ["oneOf", "anyOf", "allOf"].iter().all(|key| {
        map.get(*key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .all(|branch| scalar_of_no_type(spec, branch, depth + 1))
    })
}
