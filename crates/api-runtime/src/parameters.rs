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

use crate::contract::{Contract, Location, Operation, Parameter, ValueKind};
use crate::credentials::cookie_values;
use crate::problem::Problem;
use crate::query_objects::query_object_fields;
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
        if let ValueKind::Object { properties, deep } = parameter.value {
            let fields = query_object_fields(parameter, properties, deep, &query)?;
            if let Some(value) = read_object(parameter, fields)? {
                others.insert(parameter.name.to_string(), value);
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
            Location::Path => in_path.insert(parameter.name.to_string(), value),
            Location::Query | Location::Header | Location::Cookie => others.insert(parameter.name.to_string(), value),
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
        (ValueKind::Array(scalar), texts) => {
            let mut items = Vec::new();
            for text in texts {
                // `explode: false` joins the items with commas; a client
                // that repeats the name anyway (progenitor's does) is read
                // too.
                let split: Vec<&str> = match parameter.explode && parameter.location == Location::Query {
                    true => vec![text.as_ref()],
                    false => split_list(text).collect(),
                };
                for item in split {
                    let index = items.len();
                    let value = read_scalar(item, scalar)
                        .map_err(|reason| invalid(format!(" item {index}: {} {reason}", quote(item))))?;
                    items.push(value);
                }
            }
            Value::Array(items)
        }
        (ValueKind::Object { .. }, _) => return Err(invalid(" is an object, read from the query".into())),
    };
    validated(parameter, value).map(Some)
}

/// `value` if it satisfies the parameter's schema; the problem otherwise.
fn validated(parameter: &Parameter, value: Value) -> Result<Value, Problem> {
    let invalid = |detail: String| Problem::invalid_parameter(parameter, detail);
    parameter.schema.validate(&value).map_err(|violation| {
        let at = match violation.pointer.as_str() {
            "" => String::new(),
            pointer => format!(" at `{pointer}`"),
        };
        invalid(format!("{at}: {} ({})", violation.message, violation.keyword))
    })?;
    Ok(value)
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
mod tests {
    use super::*;
    use crate::contract::Scalar;
    use crate::schema::{Components, Schema};

    static COMPONENTS: Components = Components::new(&[]);
    static LIMIT: Schema = Schema::new(
        &COMPONENTS,
        "{}",
        Some(r#"{"type":"integer","minimum":1,"maximum":100}"#),
    );
    static IDS: Schema = Schema::new(&COMPONENTS, "{}", Some(r#"{"type":"array","maxItems":3}"#));

    fn parameter(value: ValueKind, explode: bool, schema: &'static Schema) -> Parameter {
        Parameter {
            name: "p",
            location: Location::Query,
            required: false,
            value,
            explode,
            default: Some("10"),
            description: None,
            schema,
        }
    }

    fn texts(values: &[&'static str]) -> Vec<Cow<'static, str>> {
        values.iter().map(|v| Cow::Borrowed(*v)).collect()
    }

    #[test]
    fn a_scalar_is_read_checked_and_defaulted() {
        let limit = parameter(ValueKind::Scalar(Scalar::Integer), true, &LIMIT);
        assert_eq!(
            read_parameter(&limit, &texts(&["7"])).unwrap(),
            Some(serde_json::json!(7))
        );
        assert_eq!(read_parameter(&limit, &[]).unwrap(), Some(serde_json::json!(10)));
        let problem = read_parameter(&limit, &texts(&["0"])).unwrap_err();
        assert_eq!(problem.code, "invalid_parameter");
        assert!(
            problem.message.starts_with("query parameter `p`: "),
            "{}",
            problem.message
        );
        assert!(problem.message.ends_with("(minimum)"), "{}", problem.message);
        assert!(
            read_parameter(&limit, &texts(&["x"]))
                .unwrap_err()
                .message
                .contains("\"x\"")
        );
        assert!(
            read_parameter(&limit, &texts(&["1", "2"]))
                .unwrap_err()
                .message
                .contains("more than once")
        );
    }

    #[test]
    fn arrays_explode_or_join() {
        let exploded = parameter(ValueKind::Array(Scalar::Integer), true, &IDS);
        assert_eq!(
            read_parameter(&exploded, &texts(&["1", "2"])).unwrap(),
            Some(serde_json::json!([1, 2]))
        );
        assert!(read_parameter(&exploded, &texts(&["1,2"])).is_err(), "one item `1,2`");
        let joined = parameter(ValueKind::Array(Scalar::Integer), false, &IDS);
        assert_eq!(
            read_parameter(&joined, &texts(&["1,2", "3"])).unwrap(),
            Some(serde_json::json!([1, 2, 3]))
        );
        assert_eq!(
            read_parameter(&joined, &texts(&[""])).unwrap(),
            Some(serde_json::json!([]))
        );
        let problem = read_parameter(&joined, &texts(&["1,2,3,4"])).unwrap_err();
        assert!(problem.message.contains("(maxItems)"), "{}", problem.message);
    }

    #[test]
    fn path_variables_follow_the_route() {
        assert_eq!(
            path_variables("/v1/orders/{orderId}/lines/{line}", "/v1//orders/a%20b/lines/7"),
            [
                ("orderId".to_string(), "a b".to_string()),
                ("line".to_string(), "7".to_string())
            ]
        );
        // As many segments as the route: an empty one is an empty value.
        assert_eq!(
            path_variables("/user/{username}", "/user/"),
            [("username".to_string(), String::new())]
        );
        // A variable with text around it: the text is not its value.
        assert_eq!(
            path_variables("/Calls/{Sid}.json", "/Calls/CA%2012.json"),
            [("Sid".to_string(), "CA 12".to_string())]
        );
        // Several variables in one segment, split at the text between
        // them, each decoded after the split (an encoded `,` is a value's).
        assert_eq!(
            path_variables("/@{lat},{lon}", "/@1.5%2C7,-2"),
            [
                ("lat".to_string(), "1.5,7".to_string()),
                ("lon".to_string(), "-2".to_string())
            ]
        );
    }
}
