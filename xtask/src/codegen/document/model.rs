//! The document as the generators read it: [`Spec`], its operations
//! ([`OperationRef`]), and what every check and generator asks of it
//! (a schema's type, required names, statuses, security, the path the
//! document itself is served at). A leaf of `document/`: the checks and the
//! generators depend on it, it on none of them.

use openapiv3::{OpenAPI, Operation, StatusCode};
use serde_json::{Map, Value};

use super::errors::SpecError;
use crate::codegen::references::COMPONENTS_PREFIX;

/// Where, under the base path, the server serves the spec it was generated
/// from (an unpublished route).
pub const DOCUMENT_PATH: &str = "/openapi.json";

/// Where it serves it when the spec has a path of that name of its own
/// (an API that publishes its document as an operation).
pub const DOCUMENT_PATH_BESIDE_THE_SPECS: &str = "/.well-known/openapi.json";

/// The path of the served document for `api`: [`DOCUMENT_PATH`], unless
/// one of the spec's own paths takes it.
pub fn document_path(api: &OpenAPI) -> &'static str {
    match api.paths.paths.contains_key(DOCUMENT_PATH) {
        true => DOCUMENT_PATH_BESIDE_THE_SPECS,
        false => DOCUMENT_PATH,
    }
}

/// The HTTP methods of a path item, in the order openapiv3 iterates them.
pub const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// A path item's operation slots, each beside its method in [`METHODS`]'
/// order: what openapiv3 keeps as eight fields, for code that changes
/// them by method.
pub fn operation_slots(item: &mut openapiv3::PathItem) -> [(&'static str, &mut Option<Operation>); 8] {
    let [get, put, post, delete, options, head, patch, trace] = METHODS;
    [
        (get, &mut item.get),
        (put, &mut item.put),
        (post, &mut item.post),
        (delete, &mut item.delete),
        (options, &mut item.options),
        (head, &mut item.head),
        (patch, &mut item.patch),
        (trace, &mut item.trace),
    ]
}

/// A parsed and checked spec.
pub struct Spec {
    /// openapiv3's reading: structure and document order.
    pub api: OpenAPI,
    /// The document as JSON, as written but for the operations it does
    /// not name usably ([`names`]), which `derived_names` lists.
    pub json: Value,
    pub derived_names: Vec<DerivedName>,
    /// Component schemas typify cannot map, by name, with why: their Rust
    /// type is `serde_json::Value`, while requests are still validated
    /// against them as written (degrade the type, keep the contract).
    pub degraded: std::collections::BTreeMap<String, String>,
    /// Inline schemas (of parameters, bodies, responses, headers) that
    /// typify or progenitor cannot map, by location, with why: degraded
    /// as components are.
    pub degraded_inline: std::collections::BTreeMap<String, String>,
}

/// An operation with its place in the document.
pub struct OperationRef<'a> {
    pub path: &'a str,
    pub method: &'a str,
    pub operation: &'a Operation,
    /// The operation's JSON.
    pub json: &'a Value,
    /// Its path item's JSON (for the parameters every operation shares).
    pub item_json: &'a Value,
}

impl OperationRef<'_> {
    pub fn location(&self) -> String {
        format!("paths.{}.{}", self.path, self.method)
    }

    /// [`parse`] gives every operation a usable one.
    pub fn operation_id(&self) -> &str {
        self.operation.operation_id.as_deref().unwrap_or_default()
    }
}

static NO_MAP: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();

impl Spec {
    /// Every operation of the document, in document order.
    pub fn operations(&self) -> Vec<OperationRef<'_>> {
        self.api
            .paths
            .paths
            .iter()
            .filter_map(|(path, item)| item.as_item().map(|item| (path, item)))
            .flat_map(|(path, item)| {
                let item_json = &self.json["paths"][path.as_str()];
                item.iter().map(move |(method, operation)| OperationRef {
                    path: path.as_str(),
                    method,
                    operation,
                    json: &item_json[method],
                    item_json,
                })
            })
            .collect()
    }

    /// `schema`, or the `components.schemas` entry its `$ref` names (the
    /// reference itself when it names none: the checks refuse that).
    pub fn resolve_schema<'a>(&'a self, schema: &'a Value) -> &'a Value {
        schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|reference| reference.strip_prefix(COMPONENTS_PREFIX))
            .and_then(|name| self.component_schemas().get(name))
            .unwrap_or(schema)
    }

    /// `components.schemas`, by name.
    pub fn component_schemas(&self) -> &Map<String, Value> {
        self.json
            .pointer("/components/schemas")
            .and_then(Value::as_object)
            .unwrap_or_else(|| NO_MAP.get_or_init(Map::new))
    }

    /// `value`, or what its local `$ref` (into `components.<kind>`) leads
    /// to, with the location of what is returned.
    pub fn follow(&self, value: &Value, kind: &str, location: String) -> Result<(Value, String), SpecError> {
        let Some(reference) = value.get("$ref") else {
            return Ok((value.clone(), location));
        };
        let prefix = format!("#/components/{kind}/");
        let name = reference
            .as_str()
            .and_then(|r| r.strip_prefix(&prefix))
            .ok_or_else(|| SpecError::new(&location, format!("a $ref here must point into components.{kind}")))?;
        let target = self
            .json
            .pointer(&format!(
                "/components/{kind}/{}",
                name.replace('~', "~0").replace('/', "~1")
            ))
            .ok_or_else(|| {
                SpecError::new(
                    &location,
                    format!("unresolvable $ref: components.{kind}.{name} does not exist"),
                )
            })?;
        if target.get("$ref").is_some() {
            return Err(SpecError::new(
                format!("components.{kind}.{name}"),
                "a $ref to a $ref is not supported",
            ));
        }
        Ok((target.clone(), format!("components.{kind}.{name}")))
    }

    /// An operation's parameters: its path item's, overridden by its own
    /// of the same name and location, `$ref`s followed.
    pub fn parameters(&self, op: &OperationRef<'_>) -> Result<Vec<(Value, String)>, SpecError> {
        let mut out: Vec<(Value, String)> = Vec::new();
        let lists = [
            (op.item_json.get("parameters"), format!("paths.{}.parameters", op.path)),
            (op.json.get("parameters"), format!("{}.parameters", op.location())),
        ];
        for (list, at) in lists {
            for (i, parameter) in list.and_then(Value::as_array).into_iter().flatten().enumerate() {
                let (parameter, location) = self.follow(parameter, "parameters", format!("{at}.{i}"))?;
                if is_ignored_header(&parameter) {
                    continue;
                }
                let key = |p: &Value| (p["name"].clone(), p["in"].clone());
                out.retain(|(existing, _)| key(existing) != key(&parameter));
                out.push((parameter, location));
            }
        }
        Ok(out)
    }

    /// An operation's request body, `$ref` followed.
    pub fn request_body(&self, op: &OperationRef<'_>) -> Result<Option<(Value, String)>, SpecError> {
        op.json
            .get("requestBody")
            .map(|body| self.follow(body, "requestBodies", format!("{}.requestBody", op.location())))
            .transpose()
    }

    /// An operation's responses in document order, by status key, `$ref`s
    /// followed; `default` last.
    pub fn responses(&self, op: &OperationRef<'_>) -> Result<Vec<(String, Value, String)>, SpecError> {
        let mut out = Vec::new();
        for status in op.operation.responses.responses.keys() {
            let key = status_key(status);
            let response = &op.json["responses"][key.as_str()];
            let (response, location) =
                self.follow(response, "responses", format!("{}.responses.{key}", op.location()))?;
            out.push((key, response, location));
        }
        if op.operation.responses.default.is_some() {
            let (response, location) = self.follow(
                &op.json["responses"]["default"],
                "responses",
                format!("{}.responses.default", op.location()),
            )?;
            out.push(("default".to_string(), response, location));
        }
        // An operation that documents no response (OpenAPI requires one,
        // real documents leave it out) may answer anything: any status
        // with any body, as a `default` of `*/*` would say.
        if out.is_empty() {
            let anything = serde_json::json!({"description": "", "content": {"*/*": {}}});
            out.push(("default".to_string(), anything, format!("{}.responses", op.location())));
        }
        Ok(out)
    }
}

pub fn status_key(status: &StatusCode) -> String {
    match status {
        StatusCode::Code(c) => c.to_string(),
        StatusCode::Range(r) => format!("{r}XX"),
    }
}

/// Whether a status key (`404`, `5XX`, `default`) is an error's.
pub fn is_error_key(key: &str) -> bool {
    key.starts_with('4') || key.starts_with('5') || key == "default"
}

/// What a response's body is: each media type with its schema. Examples
/// and descriptions differ freely between statuses of one body.
pub type BodyShape = Vec<(String, Option<Value>)>;

pub fn body_shape(response: &Value) -> BodyShape {
    response
        .get("content")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(media_type, media)| (media_type.clone(), media.get("schema").cloned()))
        .collect()
}

/// The JSON schema of a response's or body's `application/json` content.
pub fn json_content_schema(json: &Value) -> Option<&Value> {
    json.get("content")?.get("application/json")?.get("schema")
}

/// Whether a schema (resolved) is the Error object of our house rules,
/// which the generated layer fills from a status, a code and a message:
/// an object that requires exactly those, as a string, a string and an
/// integer, none nullable.
pub fn is_error_object(object: &Value) -> bool {
    let required = required_names(object);
    let fields = [("code", "string"), ("message", "string"), ("status", "integer")];
    object.get("type").and_then(Value::as_str) == Some("object")
        && required.iter().all(|r| fields.iter().any(|(f, _)| f == r))
        && fields.iter().all(|(field, want)| {
            let ty = object
                .pointer(&format!("/properties/{field}/type"))
                .and_then(Value::as_str);
            let nullable = object.pointer(&format!("/properties/{field}/nullable")) == Some(&Value::Bool(true));
            ty == Some(*want) && required.contains(field) && !nullable
        })
}

/// The property names an object schema requires.
pub fn required_names(schema: &Value) -> Vec<&str> {
    schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// The security requirements that apply to an operation: its own, else
/// the document's.
pub fn security_of<'a>(spec: &'a Spec, op: &'a OperationRef<'_>) -> (Option<&'a Value>, String) {
    match op.json.get("security") {
        Some(s) => (Some(s), format!("{}.security", op.location())),
        None => (spec.json.get("security"), "security".to_string()),
    }
}

/// Header names OpenAPI leaves to the HTTP machinery: a header parameter
/// of one of these names "SHALL be ignored" (OpenAPI 3.0.3, Parameter
/// Object), by the server and the client alike.
pub(crate) const IGNORED_HEADERS: [&str; 3] = ["accept", "content-type", "authorization"];

/// Whether `parameter` (a Parameter Object) is a header that OpenAPI says
/// to ignore.
pub(crate) fn is_ignored_header(parameter: &Value) -> bool {
    parameter["in"] == "header"
        && parameter["name"]
            .as_str()
            .is_some_and(|name| IGNORED_HEADERS.contains(&name.to_ascii_lowercase().as_str()))
}

/// The JSON type of a schema, following a reference to a component.
pub fn schema_type<'a>(spec: &'a Spec, schema: &'a Value) -> Option<&'a str> {
    let schema = match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => spec
            .component_schemas()
            .get(reference.strip_prefix(COMPONENTS_PREFIX)?)?,
        None => schema,
    };
    if let Some(ty) = schema.get("type").and_then(Value::as_str) {
        return Some(ty);
    }
    // `allOf: [one]` (how a described reference is written) has its type.
    if let Some([one]) = schema.get("allOf").and_then(Value::as_array).map(Vec::as_slice) {
        return schema_type(spec, one);
    }
    // A choice whose branches all have one type has that type: a name or
    // an id, both strings (`NameOrId`), is read like any string.
    let branches = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)?;
    let mut types = branches.iter().map(|branch| schema_type(spec, branch));
    let first = types.next()??;
    types.all(|ty| ty == Some(first)).then_some(first)
}

pub(crate) fn is_scalar(ty: Option<&str>) -> bool {
    matches!(ty, Some("string" | "integer" | "number" | "boolean"))
}

/// An operation the document does not name usably, and what it is called.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DerivedName {
    pub path: String,
    pub method: String,
    /// The `operationId` as written, if there was one.
    pub written: Option<String>,
    pub given: String,
}
