//! Object query parameters, as OpenAPI's styles write them (each property
//! a scalar, read by its type):
//!
//! - `deepObject`: `filter[color]=red&filter[size]=L`;
//! - `form` with `explode: true` (the default): each property its own
//!   pair, `color=red&size=L`, beside the other parameters;
//! - `form` with `explode: false`: one pair, `filter=color,red,size,L`.
//!
//! A `deepObject` property the schema does not name is kept as text, for
//! the schema to judge (`additionalProperties`); an exploded form cannot
//! tell such a pair from any other query parameter, so it reads only the
//! properties it names.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::contract::{Parameter, Scalar};
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
    let mut add = |name: &str, text: &str| {
        let value = match scalar_of(name) {
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
    };
    for (name, text) in query {
        if deep {
            let property = name
                .strip_prefix(parameter.name)
                .and_then(|rest| rest.strip_prefix('['))
                .and_then(|rest| rest.strip_suffix(']'));
            if let Some(property) = property {
                add(property, text)?;
            }
        } else if parameter.explode {
            if scalar_of(name).is_some() {
                add(name, text)?;
            }
        } else if name == parameter.name {
            let mut items = split_list(text);
            while let Some(property) = items.next() {
                let Some(value) = items.next() else {
                    return Err(Problem::invalid_parameter(
                        parameter,
                        format!(": {} is not `name,value` pairs", quote(text)),
                    ));
                };
                add(property, value)?;
            }
        }
    }
    Ok(fields)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::{Location, ValueKind};
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
}
