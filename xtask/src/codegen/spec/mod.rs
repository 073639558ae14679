//! Loading and checking the OpenAPI document.
//!
//! progenitor, typify and dropshot panic, or fail with messages that do not
//! say where, on several kinds of bad input. Everything the generators rely
//! on is checked here first ([`checks`], [`router`]), and every failure
//! names its location in the spec (`paths./store/orders.get.responses.404`),
//! so an API designer can go straight to the line to fix.
//!
//! openapiv3's reading gives the document's structure and order; schemas,
//! parameters and bodies are read from the document as JSON, as written.

mod checks;
mod errors;
pub mod forms;
pub mod leave_out;
pub mod media;
pub mod multipart;
mod names;
pub mod per_operation;
mod router;
mod servers;
pub mod tolerate;

use openapiv3::{OpenAPI, Operation, ReferenceOr, StatusCode};
use serde_json::{Map, Value};

pub(crate) use checks::{BODY_MEDIA_TYPES, is_readable_body_type};
pub use checks::{is_xml, schema_type, served_body};
pub use errors::{Refusals, SpecError, SpecErrors};
pub use router::path_variables;
pub use servers::{base_path, mount_path, server_url};

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

/// A parsed and checked spec.
pub struct Spec {
    /// openapiv3's reading: structure and document order.
    pub api: OpenAPI,
    /// The document as JSON, as written but for the operations it does
    /// not name usably ([`names`]), which `derived_names` lists.
    pub json: Value,
    pub derived_names: Vec<names::DerivedName>,
    /// Component schemas typify cannot map, by name, with why: their Rust
    /// type is `serde_json::Value`, while requests are still validated
    /// against them as written (degrade the type, keep the contract).
    pub degraded: std::collections::BTreeMap<String, String>,
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
            .and_then(|reference| reference.strip_prefix(crate::codegen::schema::COMPONENTS_PREFIX))
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

/// Parses and checks a spec given as YAML (or JSON, which is YAML).
pub fn parse(text: &str) -> Result<Spec, SpecErrors> {
    let mut raw: serde_norway::Value = serde_norway::from_str(text).map_err(|e| {
        let location = e
            .location()
            .map(|l| format!("line {}, column {}", l.line(), l.column()))
            .unwrap_or_else(|| "document".to_string());
        SpecError::new(location, format!("invalid YAML: {e}"))
    })?;
    let mut json = serde_json::to_value(&raw).map_err(|e| SpecError::new("document", format!("not JSON: {e}")))?;
    check_version(&json)?;
    let derived_names = names::name_operations(&mut json);
    // openapiv3 reads the YAML value, which keeps the document's order
    // (serde_json's maps are sorted); it gets the same names.
    for name in &derived_names {
        names::set_operation_id(&mut raw, name);
    }
    let api: OpenAPI = deserialize_at(&raw, "").map_err(|e| locate_structural_error(&raw).unwrap_or(e))?;
    let spec = Spec {
        api,
        json,
        derived_names,
        degraded: Default::default(),
    };
    checks::check(&spec)?;
    Ok(spec)
}

/// Deserializes `value`, naming the failing field relative to `prefix`.
fn deserialize_at<T: serde::de::DeserializeOwned>(value: &serde_norway::Value, prefix: &str) -> Result<T, SpecError> {
    serde_path_to_error::deserialize(value.clone()).map_err(|e| {
        let inner = e.path().to_string();
        let location = match (prefix, inner.as_str()) {
            ("", ".") => "document".to_string(),
            ("", p) => p.to_string(),
            (prefix, ".") => prefix.to_string(),
            (prefix, p) => format!("{prefix}.{p}"),
        };
        SpecError::new(location, format!("not a valid OpenAPI 3.0 document: {}", e.inner()))
    })
}

/// openapiv3 reads path items, operations and schemas through untagged
/// enums, which lose the error's position; this retries the parts one by
/// one to find which operation or schema is wrong.
fn locate_structural_error(raw: &serde_norway::Value) -> Option<SpecError> {
    if let Some(paths) = raw.get("paths").and_then(|p| p.as_mapping()) {
        for (path, item) in paths {
            let path = path.as_str()?;
            for method in METHODS {
                if let Some(op) = item.get(method)
                    && let Err(e) = deserialize_at::<Operation>(op, &format!("paths.{path}.{method}"))
                {
                    return Some(e);
                }
            }
            if let Err(e) = deserialize_at::<openapiv3::PathItem>(item, &format!("paths.{path}")) {
                return Some(e);
            }
        }
    }
    let schemas = raw
        .get("components")
        .and_then(|c| c.get("schemas"))
        .and_then(|s| s.as_mapping());
    for (name, schema) in schemas.into_iter().flatten() {
        let at = format!("components.schemas.{}", name.as_str()?);
        if let Err(e) = deserialize_at::<ReferenceOr<openapiv3::Schema>>(schema, &at) {
            return Some(e);
        }
    }
    None
}

/// progenitor and openapiv3 read OpenAPI 3.0 only; a 3.1 document often
/// parses into nonsense instead of failing, so this is checked on the raw
/// value first.
fn check_version(json: &Value) -> Result<(), SpecError> {
    match json.get("openapi").and_then(Value::as_str) {
        Some(v) if v.starts_with("3.0.") => Ok(()),
        Some(v) => Err(SpecError::new(
            "openapi",
            format!("version {v} is not supported: progenitor and openapiv3 read OpenAPI 3.0.x only"),
        )),
        None => Err(SpecError::new(
            "openapi",
            "missing: the document must declare `openapi: 3.0.x`",
        )),
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
