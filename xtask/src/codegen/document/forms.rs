//! Form bodies (`application/x-www-form-urlencoded`): how each field of
//! the form's object travels as `name=value` text, which the server reads
//! and the client writes alike (`runtime::FormField`).

use serde_json::Value;

use super::errors::SpecError;
use super::model::{Spec, required_names};
use super::model::{is_scalar, schema_type};

/// How one field travels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormKind<'a> {
    /// One value of a scalar type (`string`, `integer`, ...).
    One(&'a str),
    /// A list: a pair per item (`tag=a&tag=b`), each of a scalar type, or
    /// of any (`None`: JSON text); a required one may be absent (empty).
    List { items: Option<&'a str>, required: bool },
    /// An object: JSON text, or its scalar properties (these, with their
    /// types) as pairs of their own.
    Object(Vec<(&'a str, &'a str)>),
    /// A value of any type: JSON text (a string as it is).
    Any,
}

impl FormKind<'_> {
    /// Whether the field is written as a pair per item.
    pub fn is_list(&self) -> bool {
        matches!(self, FormKind::List { .. })
    }
}

/// Compositions deeper than this are not followed for a form's fields.
const MAX_PARTS: usize = 16;

/// A form's fields, by the properties of its schema: its own, each
/// `allOf` part's (whose `required` applies too), and each `oneOf` or
/// `anyOf` choice's (a field named by several choices read by the first):
/// a form of a composition of objects (a token request of one `grant_type`
/// or another) has the fields of all. A schema of no object (a string, a
/// list) is no form's.
struct FormObject<'a> {
    properties: Vec<(&'a str, &'a Value)>,
    required: Vec<&'a str>,
}

impl<'a> FormObject<'a> {
    fn of(spec: &'a Spec, schema: &'a Value, location: &str) -> Result<Self, SpecError> {
        let mut object = FormObject {
            properties: Vec::new(),
            required: Vec::new(),
        };
        if !object.gather(spec, schema, true, 0) {
            return Err(SpecError::new(location, "a form body's schema must be an object"));
        }
        Ok(object)
    }

    /// Adds `schema`'s properties; whether it is an object's (of `type:
    /// object`, with properties, or a composition of such).
    fn gather(&mut self, spec: &'a Spec, schema: &'a Value, always: bool, depth: usize) -> bool {
        let schema = spec.resolve_schema(schema);
        if depth > MAX_PARTS {
            return false;
        }
        let mut object = match schema.get("type") {
            Some(ty) => ty == "object",
            None => schema.get("properties").is_some() || schema.get("additionalProperties").is_some(),
        };
        for (name, property) in schema
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if !self.properties.iter().any(|(known, _)| known == name) {
                self.properties.push((name.as_str(), property));
            }
        }
        if always {
            self.required.extend(required_names(schema));
        }
        for (key, applies) in [("allOf", always), ("oneOf", false), ("anyOf", false)] {
            for part in schema.get(key).and_then(Value::as_array).into_iter().flatten() {
                object |= self.gather(spec, part, applies, depth + 1);
            }
        }
        object && schema.get("type").is_none_or(|ty| ty == "object")
    }
}

/// Each field of a form body's schema and how it travels.
pub fn form_fields<'a>(
    spec: &'a Spec,
    schema: &'a Value,
    location: &str,
) -> Result<Vec<(&'a str, FormKind<'a>)>, SpecError> {
    let object = FormObject::of(spec, schema, location)?;
    Ok(object
        .properties
        .into_iter()
        .map(|(name, property)| {
            let ty = schema_type(spec, property);
            let kind = match ty {
                Some(scalar) if is_scalar(ty) => FormKind::One(scalar),
                Some("array") => FormKind::List {
                    items: property
                        .get("items")
                        .map(|items| schema_type(spec, items))
                        .and_then(|item| item.filter(|_| is_scalar(item))),
                    required: object.required.contains(&name),
                },
                Some("object") => FormKind::Object(scalar_properties(spec, property)),
                _ => FormKind::Any,
            };
            (name, kind)
        })
        .collect())
}

/// An object's properties (`$ref` and a described `allOf: [one]`
/// followed).
fn properties_of<'a>(spec: &'a Spec, schema: &'a Value) -> Option<&'a serde_json::Map<String, Value>> {
    let resolved = match (
        schema.get("$ref"),
        schema.get("allOf").and_then(Value::as_array).map(Vec::as_slice),
    ) {
        (None, Some([one])) => return properties_of(spec, one),
        _ => spec.resolve_schema(schema),
    };
    resolved["properties"].as_object()
}

/// Whether a schema is a free-form object: no properties named, and any
/// others (`additionalProperties` absent, `true`, `{}` or a scalar type).
/// As a `deepObject` query parameter, each `name[key]=value` pair is one
/// of its properties, read as text for the schema to judge.
pub fn is_free_form_object(spec: &Spec, schema: &Value) -> bool {
    let resolved = spec.resolve_schema(schema);
    let additional = match resolved.get("additionalProperties") {
        None | Some(Value::Bool(true)) => true,
        Some(Value::Object(map)) if map.is_empty() => true,
        Some(other @ Value::Object(_)) => is_scalar(schema_type(spec, other)),
        Some(_) => false,
    };
    resolved.get("type").and_then(Value::as_str) == Some("object")
        && properties_of(spec, schema).is_none_or(|p| p.is_empty())
        && additional
}

/// An object's properties of every scalar type, when each one is a scalar
/// and there is one at least: what an object in a query string carries.
pub fn all_scalar_properties<'a>(spec: &'a Spec, schema: &'a Value) -> Option<Vec<(&'a str, &'a str)>> {
    let all = properties_of(spec, schema)?;
    let scalars = scalar_properties(spec, schema);
    (!all.is_empty() && scalars.len() == all.len()).then_some(scalars)
}

/// An object's scalar properties and their types.
fn scalar_properties<'a>(spec: &'a Spec, schema: &'a Value) -> Vec<(&'a str, &'a str)> {
    let properties = properties_of(spec, schema).into_iter().flatten();
    properties
        .filter_map(|(name, property)| {
            let ty = schema_type(spec, property);
            is_scalar(ty).then(|| (name.as_str(), ty.unwrap_or("string")))
        })
        .collect()
}

/// The fields a form's media type encodes in the `deepObject` style
/// (`encoding: {card: {style: deepObject}}`): bracket notation,
/// `card[number]=4242`, which the server reads for any field and the
/// client writes for these.
pub fn deep_fields(media: &Value) -> Vec<&str> {
    let entries = media.get("encoding").and_then(Value::as_object).into_iter().flatten();
    entries
        .filter(|(_, entry)| entry.get("style").and_then(Value::as_str) == Some("deepObject"))
        .map(|(name, _)| name.as_str())
        .collect()
}

/// Whether a form body has a field progenitor's encoder cannot write (a
/// list or a structured value): the client's own encoder writes it.
pub fn is_structured(fields: &[(&str, FormKind<'_>)]) -> bool {
    fields.iter().any(|(_, kind)| !matches!(kind, FormKind::One(_)))
}
