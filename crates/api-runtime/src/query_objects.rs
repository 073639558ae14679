//! Object query parameters, as OpenAPI's styles write them (each property
//! a scalar, read by its type):
//!
//! - `deepObject`: `filter[color]=red&filter[size]=L`;
//! - `form` with `explode: true` (the default): each property its own
//!   pair, `color=red&size=L`, beside the other parameters;
//! - `form` with `explode: false`: one pair, `filter=color,red,size,L`.
//!
//! And in a path segment or a header, as the `simple` style writes one:
//! `color,red,size,L`, or `color=red,size=L` with `explode: true`.
//!
//! A `deepObject` property the schema does not name is kept as text, for
//! the schema to judge (`additionalProperties`); an exploded form cannot
//! tell such a pair from any other query parameter, so it reads only the
//! properties it names.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::contract::{Location, Parameter, Scalar};
use crate::problem::Problem;
use crate::values::{quote, read_scalar, split_list};

/// The object's properties found in the query, each read by its type;
/// empty when none is there.
pub(crate) fn query_object_fields(
    parameter: &Parameter,
    properties: &[(&str, Scalar)],
    deep: bool,
    query: &[(Cow<'_, str>, Cow<'_, str>)],
) -> Result<Map<String, Value>, Problem> {
    let scalar_of = |name: &str| properties.iter().find(|(p, _)| *p == name).map(|(_, s)| *s);
    let mut fields = Map::new();
    for (name, text) in query {
        if deep {
            let property = name
                .strip_prefix(parameter.name)
                .and_then(|rest| rest.strip_prefix('['))
                .and_then(|rest| rest.strip_suffix(']'));
            if let Some(property) = property {
                add(parameter, properties, &mut fields, property, text)?;
            }
        } else if parameter.explode {
            if scalar_of(name).is_some() {
                add(parameter, properties, &mut fields, name, text)?;
            }
        } else if name == parameter.name {
            fields.extend(simple_object_fields(parameter, properties, text)?);
        }
    }
    Ok(fields)
}

/// The object's properties in one text, as the `simple` style writes an
/// object in a path segment or a header (and `form` without `explode` in
/// the query): `name,value,...` pairs, or `name=value,...` with `explode`
/// (not in the query, where each pair is its own).
pub(crate) fn simple_object_fields(
    parameter: &Parameter,
    properties: &[(&str, Scalar)],
    text: &str,
) -> Result<Map<String, Value>, Problem> {
    let mut fields = Map::new();
    let mut items = split_list(text);
    if parameter.explode && parameter.location != Location::Query {
        for item in items {
            let Some((property, value)) = item.split_once('=') else {
                return Err(Problem::invalid_parameter(
                    parameter,
                    format!(": {} is not `name=value` pairs", quote(text)),
                ));
            };
            add(parameter, properties, &mut fields, property, value)?;
        }
        return Ok(fields);
    }
    while let Some(property) = items.next() {
        let Some(value) = items.next() else {
            return Err(Problem::invalid_parameter(
                parameter,
                format!(": {} is not `name,value` pairs", quote(text)),
            ));
        };
        add(parameter, properties, &mut fields, property, value)?;
    }
    Ok(fields)
}

/// Adds the property `name` read from `text` by its type (text when the
/// schema does not name it, for the schema to judge); given twice is an
/// error.
fn add(
    parameter: &Parameter,
    properties: &[(&str, Scalar)],
    fields: &mut Map<String, Value>,
    name: &str,
    text: &str,
) -> Result<(), Problem> {
    let scalar = properties.iter().find(|(p, _)| *p == name).map(|(_, s)| *s);
    let value = match scalar {
        Some(scalar) => read_scalar(text, scalar).map_err(|why| {
            Problem::invalid_parameter(parameter, format!(" property `{name}`: {} {why}", quote(text)))
        })?,
        None => Value::String(text.to_string()),
    };
    match fields.insert(name.to_string(), value) {
        None => Ok(()),
        Some(_) => Err(Problem::invalid_parameter(
            parameter,
            format!(" property `{name}` is given more than once"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::ValueKind;
    use crate::schema::{Components, Schema};

    static COMPONENTS: Components = Components::new(&[]);
    static ANY: Schema = Schema::new(&COMPONENTS, "{}", None);
    const PROPERTIES: &[(&str, Scalar)] = &[("color", Scalar::String), ("size", Scalar::Integer)];

    fn filter(deep: bool, explode: bool) -> Parameter {
        Parameter {
            name: "filter",
            key: "filter",
            location: Location::Query,
            required: false,
            value: ValueKind::Object {
                properties: PROPERTIES,
                deep,
            },
            explode,
            default: None,
            description: None,
            schema: &ANY,
        }
    }

    fn read(parameter: &Parameter, query: &str) -> Result<Value, String> {
        let pairs: Vec<_> = form_urlencoded::parse(query.as_bytes()).collect();
        let ValueKind::Object { properties, deep } = parameter.value else {
            unreachable!()
        };
        query_object_fields(parameter, properties, deep, &pairs)
            .map(Value::Object)
            .map_err(|problem| problem.message)
    }

    #[test]
    fn each_style_reads_the_same_object() {
        let expected = serde_json::json!({"color": "red", "size": 2});
        assert_eq!(
            read(&filter(true, true), "filter%5Bcolor%5D=red&filter[size]=2&other=x").unwrap(),
            expected
        );
        assert_eq!(
            read(&filter(false, true), "color=red&size=2&other=x").unwrap(),
            expected
        );
        assert_eq!(
            read(&filter(false, false), "filter=color,red,size,2").unwrap(),
            expected
        );
        // Absent: nothing read.
        assert_eq!(read(&filter(true, true), "other=x").unwrap(), serde_json::json!({}));
        // A deepObject property the schema does not name is kept.
        assert_eq!(
            read(&filter(true, true), "filter[shape]=round").unwrap(),
            serde_json::json!({"shape": "round"})
        );
    }

    #[test]
    fn a_property_that_does_not_fit_is_named() {
        let error = read(&filter(true, true), "filter[size]=big").unwrap_err();
        assert!(error.contains("query parameter `filter` property `size`"), "{error}");
        let twice = read(&filter(false, true), "size=1&size=2").unwrap_err();
        assert!(twice.contains("more than once"), "{twice}");
        let odd = read(&filter(false, false), "filter=color,red,size").unwrap_err();
        assert!(odd.contains("`name,value` pairs"), "{odd}");
    }

    #[test]
    fn a_simple_object_is_pairs_or_assignments() {
        let path = |explode| Parameter {
            location: Location::Path,
            ..filter(false, explode)
        };
        let expected = serde_json::json!({"color": "red", "size": 2});
        let read = |parameter: &Parameter, text: &str| {
            simple_object_fields(parameter, PROPERTIES, text)
                .map(Value::Object)
                .map_err(|problem| problem.message)
        };
        assert_eq!(read(&path(false), "color,red,size,2").unwrap(), expected);
        assert_eq!(read(&path(true), "color=red,size=2").unwrap(), expected);
        let unpaired = read(&path(true), "color=red,size").unwrap_err();
        assert!(unpaired.contains("`name=value` pairs"), "{unpaired}");
        let typed = read(&path(false), "size,big").unwrap_err();
        assert!(typed.contains("property `size`"), "{typed}");
    }
}
