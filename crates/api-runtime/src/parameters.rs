//! Path, query and header parameters, read by the operation's table after
//! the caller is authenticated (so a request without a key gets 401 before
//! any 400), checked against the spec's schemas, and handed over typed.
//!
//! dropshot's `Path`, `Query` and `Header` extractors parse before the
//! handler runs and answer with their own error body; `Query` takes
//! scalars only. [`Parameters`] is an extractor that never fails: it exists
//! for its description in dropshot's document; [`read_parameters`] does the
//! reading.

use std::borrow::Cow;
use std::marker::PhantomData;

use async_trait::async_trait;
use dropshot::{
    ApiEndpointBodyContentType, ExtractorMetadata, HttpError, RequestContext, ServerContext, SharedExtractor,
};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::brackets::{self, Tree};
use crate::contract::{Contract, Location, Operation, Parameter, Scalar, ValueKind};
use crate::credentials::cookie_values;
use crate::problem::Problem;
use crate::query_objects::{query_object_fields, simple_object_fields};
use crate::schema_walk::Walker;
use crate::values::{quote, read_scalar, split_list};

/// The parameters of the operation `C`, as an extractor: it always
/// succeeds, and describes the parameters in dropshot's document.
pub struct Parameters<C>(PhantomData<fn() -> C>);

#[async_trait]
impl<C: Contract> SharedExtractor for Parameters<C> {
    async fn from_request<Context: ServerContext>(_rqctx: &RequestContext<Context>) -> Result<Self, HttpError> {
        Ok(Parameters(PhantomData))
    }

    fn metadata(_body_content_type: ApiEndpointBodyContentType) -> ExtractorMetadata {
        crate::documentation::parameters::<C>()
    }
}

/// A set of parameters with none in it.
#[derive(Debug, Clone, Copy, Default, serde::Deserialize)]
pub struct NoParameters {}

/// Reads the operation's parameters from a request: the path ones into
/// `P`, the query and header ones into `Q` (structs whose fields carry the
/// parameters' names). A missing, malformed or invalid one gets the
/// Error content naming it and the rule it breaks.
pub fn read_parameters<P, Q, Context>(operation: &Operation, rqctx: &RequestContext<Context>) -> Result<(P, Q), Problem>
where
    P: DeserializeOwned,
    Q: DeserializeOwned,
    Context: ServerContext,
{
    let request = &rqctx.request;
    let path = path_variables(operation.path, request.uri().path());
    let query: Vec<(Cow<'_, str>, Cow<'_, str>)> = match request.uri().query() {
        Some(query) => form_urlencoded::parse(query.as_bytes()).collect(),
        None => Vec::new(),
    };
    let mut in_path = Map::new();
    let mut others = Map::new();
    for parameter in operation.parameters {
        if let ValueKind::Object { properties, deep } = parameter.value
            && parameter.location == Location::Query
        {
            let fields = query_object_fields(parameter, properties, deep, &query)?;
            if let Some(value) = read_object(parameter, fields)? {
                others.insert(parameter.key.to_string(), value);
            }
            continue;
        }
        if parameter.value == ValueKind::Deep {
            if let Some(value) = read_deep(parameter, &query)? {
                others.insert(parameter.key.to_string(), value);
            }
            continue;
        }
        let texts: Vec<Cow<'_, str>> = match parameter.location {
            Location::Path => path
                .iter()
                .filter(|(name, _)| *name == parameter.name)
                .map(|(_, value)| Cow::Borrowed(value.as_str()))
                .collect(),
            Location::Query => query
                .iter()
                .filter(|(name, _)| name == parameter.name)
                .map(|(_, value)| value.clone())
                .collect(),
            Location::Header => header_texts(request.headers(), parameter)?,
            Location::Cookie => cookie_values(request.headers(), parameter.name)
                .map(Cow::Owned)
                .collect(),
        };
        let Some(value) = read_parameter(parameter, &texts)? else {
            continue;
        };
        match parameter.location {
            Location::Path => in_path.insert(parameter.key.to_string(), value),
            Location::Query | Location::Header | Location::Cookie => others.insert(parameter.key.to_string(), value),
        };
    }
    Ok((typed(in_path)?, typed(others)?))
}

/// Parameters already checked against their schemas, as the handler's
/// types (which typify made from the same schemas).
fn typed<T: DeserializeOwned>(map: Map<String, Value>) -> Result<T, Problem> {
    typed_value(&Value::Object(map)).map_err(|(path, message)| {
        let name = path.split('.').next().unwrap_or_default().to_string();
        Problem::new("invalid_parameter", format!("parameter `{name}`: {message}"))
    })
}

/// A value already checked against its schema, as the Rust type typify made
/// of that schema; should serde still refuse it, where and why. Read from
/// the borrowed value (about half the work of tracking the path on the way),
/// and read again with the path only to say where it failed.
pub(crate) fn typed_value<T: DeserializeOwned>(value: &Value) -> Result<T, (String, String)> {
    T::deserialize(value).map_err(|_| match serde_path_to_error::deserialize::<_, T>(value) {
        Err(e) => (e.path().to_string(), e.inner().to_string()),
        Ok(_) => (String::new(), "the value does not fit its type".into()),
    })
}

/// The value of a parameter that is absent: its default, an error when it
/// is required, or `None`.
fn absent(parameter: &Parameter) -> Result<Option<Value>, Problem> {
    match parameter.default {
        Some(default) => serde_json::from_str(default)
            .map(Some)
            .map_err(|e| Problem::invalid_parameter(parameter, format!(" has an invalid default: {e}"))),
        None if parameter.required => Err(Problem::invalid_parameter(parameter, " is required".into())),
        None => Ok(None),
    }
}

/// An object parameter's value from its properties' pairs (none: absent),
/// checked against its schema.
fn read_object(parameter: &Parameter, fields: Map<String, Value>) -> Result<Option<Value>, Problem> {
    let value = match fields.is_empty() {
        true => match absent(parameter)? {
            Some(value) => value,
            None => return Ok(None),
        },
        false => Value::Object(fields),
    };
    validated(parameter, value).map(Some)
}

/// A `deepObject` parameter's value from its pairs in bracket notation
/// (none: absent), read and checked by its schema.
fn read_deep(parameter: &Parameter, query: &[(Cow<'_, str>, Cow<'_, str>)]) -> Result<Option<Value>, Problem> {
    let mut tree = None;
    for (name, text) in query {
        let keys = match brackets::split(name) {
            Some((base, keys)) if base == parameter.name => keys,
            None if name == parameter.name => Vec::new(),
            _ => continue,
        };
        Tree::add(&mut tree, &keys, text).map_err(|why| Problem::invalid_parameter(parameter, format!(" {why}")))?;
    }
    let value = match tree {
        None => match absent(parameter)? {
            Some(value) => value,
            None => return Ok(None),
        },
        Some(tree) => {
            let walker = Walker::new(parameter.schema.components());
            brackets::read(&walker, tree, parameter.schema.doc_value())
                .map_err(|(pointer, why)| Problem::invalid_parameter(parameter, format!("{}: {why}", at(&pointer))))?
        }
    };
    validated(parameter, value).map(Some)
}

/// One parameter's value: read from its texts, the default when absent,
/// checked against its schema. `None` for an optional one that is absent
/// and has no default.
fn read_parameter(parameter: &Parameter, texts: &[Cow<'_, str>]) -> Result<Option<Value>, Problem> {
    let invalid = |detail: String| Problem::invalid_parameter(parameter, detail);
    let value = match (parameter.value, texts) {
        (_, []) => match absent(parameter)? {
            Some(value) => value,
            None => return Ok(None),
        },
        (ValueKind::Scalar(scalar), [text]) => {
            read_scalar(text, scalar).map_err(|reason| invalid(format!(": {} {reason}", quote(text))))?
        }
        (ValueKind::Scalar(_), _) => return Err(invalid(" is given more than once".into())),
        (ValueKind::Array(scalar), texts) => read_items(parameter, scalar, texts, |text| split_list(text).collect())?,
        (ValueKind::Delimited(scalar, delimiter), texts) => read_items(parameter, scalar, texts, |text| {
            text.split(delimiter).filter(|_| !text.is_empty()).collect()
        })?,
        // In a path segment or a header (the `simple` style).
        (ValueKind::Object { properties, .. }, [text]) if parameter.location != Location::Query => {
            Value::Object(simple_object_fields(parameter, properties, text)?)
        }
        (ValueKind::Object { .. } | ValueKind::Deep, _) => return Err(invalid(" is given more than once".into())),
        (ValueKind::Json, [text]) => {
            serde_json::from_str(text).map_err(|e| invalid(format!(": {} is not JSON: {e}", quote(text))))?
        }
        (ValueKind::Json, _) => return Err(invalid(" is given more than once".into())),
    };
    match validated(parameter, value) {
        Ok(value) => Ok(Some(value)),
        // A scalar of no one type whose natural reading (a number, a
        // boolean) the schema refuses: its text may be what it accepts.
        Err(problem) => match as_text(parameter, texts) {
            Some(text) => validated(parameter, text).map(Some).map_err(|_| problem),
            None => Err(problem),
        },
    }
}

/// A list's items from its texts, each read by its type: with `explode`
/// in the query each text is an item; otherwise each is `split` into
/// items (a client that repeats the name anyway, as progenitor's does,
/// is read too).
fn read_items(
    parameter: &Parameter,
    scalar: Scalar,
    texts: &[Cow<'_, str>],
    split: impl Fn(&str) -> Vec<&str>,
) -> Result<Value, Problem> {
    let mut items = Vec::new();
    for text in texts {
        let split = match parameter.explode && parameter.location == Location::Query {
            true => vec![text.as_ref()],
            false => split(text),
        };
        for item in split {
            let index = items.len();
            let value = read_scalar(item, scalar).map_err(|reason| {
                Problem::invalid_parameter(parameter, format!(" item {index}: {} {reason}", quote(item)))
            })?;
            items.push(value);
        }
    }
    Ok(Value::Array(items))
}

/// The texts of a parameter of no one scalar type read as text (as a
/// list of texts for a list), where that reading differs from the first.
fn as_text(parameter: &Parameter, texts: &[Cow<'_, str>]) -> Option<Value> {
    match (parameter.value, texts) {
        (ValueKind::Scalar(Scalar::Any), [text]) => Some(Value::String(text.to_string())),
        (ValueKind::Array(Scalar::Any), texts) if !texts.is_empty() => {
            let split = parameter.explode && parameter.location == Location::Query;
            let items = texts.iter().flat_map(|text| match split {
                true => vec![Value::String(text.to_string())],
                false => split_list(text).map(|item| Value::String(item.to_string())).collect(),
            });
            Some(Value::Array(items.collect()))
        }
        _ => None,
    }
}

/// `value` if it satisfies the parameter's schema; the problem otherwise.
fn validated(parameter: &Parameter, value: Value) -> Result<Value, Problem> {
    let invalid = |detail: String| Problem::invalid_parameter(parameter, detail);
    parameter.schema.validate(&value).map_err(|violation| {
        let at = at(&violation.pointer);
        invalid(format!("{at}: {} ({})", violation.message, violation.keyword))
    })?;
    Ok(value)
}

/// Where in a parameter's value a problem is, for its message: ` at
/// `/gt`` (nothing for the value itself).
fn at(pointer: &str) -> String {
    match pointer {
        "" => String::new(),
        pointer => format!(" at `{pointer}`"),
    }
}

/// A header parameter's texts: one per header line, or none.
fn header_texts<'a>(headers: &'a http::HeaderMap, parameter: &Parameter) -> Result<Vec<Cow<'a, str>>, Problem> {
    headers
        .get_all(parameter.name)
        .iter()
        .map(|value| {
            value.to_str().map(Cow::Borrowed).map_err(|_| {
                Problem::new(
                    "invalid_parameter",
                    format!("header parameter `{}` is not visible ASCII", parameter.name),
                )
            })
        })
        .collect()
}

/// The values of a route's `{variables}` in a request path,
/// percent-decoded. A path with as many segments as the route, empty ones
/// included, is read segment for segment, so `/user/` gives an empty
/// `{username}` (`crate::routing` hands such requests over); otherwise
/// empty segments are skipped, as dropshot's router skips them.
fn path_variables(route: &str, path: &str) -> Vec<(String, String)> {
    let route: Vec<&str> = route.split('/').filter(|s| !s.is_empty()).collect();
    let written: Vec<&str> = path.strip_prefix('/').unwrap_or(path).split('/').collect();
    let path: Vec<&str> = match written.len() == route.len() {
        true => written,
        false => written.into_iter().filter(|s| !s.is_empty()).collect(),
    };
    route
        .into_iter()
        .zip(path)
        .flat_map(|(template, segment)| {
            // `{Sid}.json`, `{lat},{lon}`: the text around and between the
            // variables is not their value.
            let template = api_shared::routes::Segment::parse(template);
            let values: Vec<(String, String)> = template
                .values(segment)
                .unwrap_or_else(|| template.variable().map(|name| (name, segment)).into_iter().collect())
                .into_iter()
                .map(|(name, raw)| {
                    let value = percent_encoding::percent_decode_str(raw).decode_utf8_lossy();
                    (name.to_string(), value.into_owned())
                })
                .collect();
            values
        })
        .collect()
}

#[cfg(test)]
mod tests;
