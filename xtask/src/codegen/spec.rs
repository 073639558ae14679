//! Loading and checking the OpenAPI document.
//!
//! progenitor, typify and dropshot panic, or fail with messages that do not
//! say where, on several kinds of bad input. Everything the generators rely
//! on is checked here first, and every failure names its location in the
//! spec (`paths./store/orders.get.responses.404`), so an API designer can go
//! straight to the line to fix.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use openapiv3::{OpenAPI, Operation, ReferenceOr, Response, StatusCode};

/// A problem in the spec, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError {
    /// A dotted path into the document (`paths./pets/{petId}.get`), or
    /// `line L, column C` for a syntax error.
    pub location: String,
    pub message: String,
}

impl SpecError {
    fn new(location: impl Into<String>, message: impl Into<String>) -> Self {
        SpecError {
            location: location.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

impl std::error::Error for SpecError {}

/// The HTTP methods of a path item, in the order openapiv3 iterates them.
/// Where, under the base path, the server serves the spec it was generated
/// from (an unpublished route, which no spec path may take).
pub const DOCUMENT_PATH: &str = "/openapi.json";

pub const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// An operation with its place in the document.
pub struct OperationRef<'a> {
    pub path: &'a str,
    pub method: &'a str,
    pub operation: &'a Operation,
}

impl OperationRef<'_> {
    pub fn location(&self) -> String {
        format!("paths.{}.{}", self.path, self.method)
    }

    /// Checked by [`parse`]: every operation has one.
    pub fn operation_id(&self) -> &str {
        self.operation.operation_id.as_deref().unwrap_or_default()
    }
}

/// Every operation of the document, in document order.
pub fn operations(spec: &OpenAPI) -> Vec<OperationRef<'_>> {
    spec.paths
        .paths
        .iter()
        .filter_map(|(path, item)| item.as_item().map(|item| (path, item)))
        .flat_map(|(path, item)| {
            item.iter().map(move |(method, operation)| OperationRef {
                path: path.as_str(),
                method,
                operation,
            })
        })
        .collect()
}

/// Parses and checks a spec given as YAML (or JSON, which is YAML).
pub fn parse(text: &str) -> Result<OpenAPI, SpecError> {
    // serde_norway's Value keeps the document's key order, which the
    // generated code follows.
    let raw: serde_norway::Value = serde_norway::from_str(text).map_err(|e| {
        let location = e
            .location()
            .map(|l| format!("line {}, column {}", l.line(), l.column()))
            .unwrap_or_else(|| "document".to_string());
        SpecError::new(location, format!("invalid YAML: {e}"))
    })?;
    check_version(&raw)?;
    let spec: OpenAPI = deserialize_at(&raw, "").map_err(|e| locate_structural_error(&raw).unwrap_or(e))?;
    check(&spec)?;
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
fn check_version(raw: &serde_norway::Value) -> Result<(), SpecError> {
    match raw.get("openapi").and_then(|v| v.as_str()) {
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

fn check(spec: &OpenAPI) -> Result<(), SpecError> {
    check_servers(spec)?;
    for (path, item) in &spec.paths.paths {
        if item.as_item().is_none() {
            return Err(SpecError::new(
                format!("paths.{path}"),
                "a $ref path item is not supported",
            ));
        }
    }
    check_operation_ids(spec)?;
    check_router(spec)?;
    for op in operations(spec) {
        check_parameters(spec, &op)?;
        check_responses(spec, &op)?;
        if op.operation.request_body.is_some() {
            return Err(SpecError::new(
                format!("{}.requestBody", op.location()),
                "request bodies are not supported by the server generator yet",
            ));
        }
        check_security(spec, &op)?;
    }
    Ok(())
}

/// The spec's servers must agree on one base path: the server mounts the
/// API there.
fn check_servers(spec: &OpenAPI) -> Result<(), SpecError> {
    if spec.servers.is_empty() {
        return Err(SpecError::new(
            "servers",
            "at least one server is required: it gives the base path",
        ));
    }
    let first = base_path(&spec.servers[0].url);
    for (i, server) in spec.servers.iter().enumerate() {
        if !server.url.starts_with("https://") && !server.url.starts_with("http://") {
            return Err(SpecError::new(
                format!("servers.{i}.url"),
                "must be an absolute http(s) URL",
            ));
        }
        if base_path(&server.url) != first {
            return Err(SpecError::new(
                format!("servers.{i}.url"),
                format!(
                    "base path `{}` differs from `{first}` of servers.0",
                    base_path(&server.url)
                ),
            ));
        }
    }
    Ok(())
}

/// The path part of a server URL, without a trailing slash (`/v1`).
pub fn base_path(url: &str) -> String {
    let after_scheme = url.split_once("://").map(|(_, rest)| rest).unwrap_or(url);
    let path = after_scheme.find('/').map(|i| &after_scheme[i..]).unwrap_or("");
    path.trim_end_matches('/').to_string()
}

fn check_operation_ids(spec: &OpenAPI) -> Result<(), SpecError> {
    let mut seen: HashMap<&str, String> = HashMap::new();
    for op in operations(spec) {
        let Some(id) = op.operation.operation_id.as_deref() else {
            return Err(SpecError::new(
                op.location(),
                "missing operationId: the generators name code after it",
            ));
        };
        let valid = id.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(SpecError::new(
                format!("{}.operationId", op.location()),
                format!("`{id}` must start with a letter and hold only letters, digits and `_`"),
            ));
        }
        if let Some(first) = seen.insert(id, op.location()) {
            return Err(SpecError::new(
                format!("{}.operationId", op.location()),
                format!("duplicate operationId `{id}`, first used at {first}"),
            ));
        }
    }
    Ok(())
}

/// One node of the router's tree: what dropshot's router accepts at one
/// position of a path.
#[derive(Default)]
struct RouteNode {
    literals: BTreeMap<String, RouteNode>,
    variable: Option<(String, Box<RouteNode>)>,
}

/// dropshot's router panics at start-up on layouts it cannot route; these are
/// its rules: a segment is a literal or a whole `{variable}`; at one position
/// of the tree there are either literals or one variable, never both, and
/// never two variable names; a name is used once per path.
fn check_router(spec: &OpenAPI) -> Result<(), SpecError> {
    let mut root = RouteNode::default();
    // The server's own route for the spec document takes part too.
    let own = std::iter::once(DOCUMENT_PATH.to_string());
    for path in own.chain(spec.paths.paths.keys().cloned()) {
        let path = &path;
        let location = format!("paths.{path}");
        if !path.starts_with('/') {
            return Err(SpecError::new(location, "a path must start with `/`"));
        }
        let mut node = &mut root;
        let mut names = Vec::new();
        for segment in path.trim_start_matches('/').split('/') {
            if segment.is_empty() {
                if path == "/" {
                    break;
                }
                return Err(SpecError::new(location, "empty path segment (`//` or a trailing `/`)"));
            }
            match path_variable(segment) {
                Some(Ok(name)) => {
                    if names.contains(&name) {
                        return Err(SpecError::new(location, format!("variable `{name}` is used twice")));
                    }
                    names.push(name);
                    if let Some(literal) = node.literals.keys().next() {
                        return Err(SpecError::new(
                            location,
                            format!(
                                "variable `{{{name}}}` at the same position as literal `{literal}` of another path: dropshot's router cannot route both"
                            ),
                        ));
                    }
                    let (existing, child) = node.variable.get_or_insert_with(|| (name.to_string(), Box::default()));
                    if existing != name {
                        return Err(SpecError::new(
                            location,
                            format!(
                                "variable `{{{name}}}` at the same position as `{{{existing}}}` of another path: dropshot's router needs one name"
                            ),
                        ));
                    }
                    node = child;
                }
                Some(Err(())) => {
                    return Err(SpecError::new(
                        location,
                        format!(
                            "segment `{segment}` mixes a variable with other text: dropshot's router needs a whole-segment `{{name}}`"
                        ),
                    ));
                }
                None => {
                    if let Some((name, _)) = &node.variable {
                        return Err(SpecError::new(
                            location,
                            format!(
                                "literal `{segment}` at the same position as variable `{{{name}}}` of another path: dropshot's router cannot route both"
                            ),
                        ));
                    }
                    node = node.literals.entry(segment.to_string()).or_default();
                }
            }
        }
    }
    Ok(())
}

/// `Some(Ok(name))` for `{name}`, `Some(Err)` for a segment that holds a
/// brace but is not a whole variable, `None` for a literal.
fn path_variable(segment: &str) -> Option<Result<&str, ()>> {
    if !segment.contains(['{', '}']) {
        return None;
    }
    let name = segment.strip_prefix('{').and_then(|s| s.strip_suffix('}'));
    Some(match name {
        Some(n) if !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => Ok(n),
        _ => Err(()),
    })
}

/// The variables of a path template, in order.
pub fn path_variables(path: &str) -> Vec<&str> {
    path.split('/')
        .filter_map(path_variable)
        .filter_map(Result::ok)
        .collect()
}

fn check_parameters(spec: &OpenAPI, op: &OperationRef<'_>) -> Result<(), SpecError> {
    let variables = path_variables(op.path);
    let mut declared = Vec::new();
    for (i, param) in op.operation.parameters.iter().enumerate() {
        let location = format!("{}.parameters.{i}", op.location());
        let param = resolve_parameter(spec, param).ok_or_else(|| SpecError::new(&location, "unresolvable $ref"))?;
        let openapiv3::Parameter::Path { parameter_data, .. } = param else {
            return Err(SpecError::new(
                location,
                "only path parameters are supported by the server generator yet",
            ));
        };
        if !variables.contains(&parameter_data.name.as_str()) {
            return Err(SpecError::new(
                location,
                format!("path parameter `{}` does not appear in the path", parameter_data.name),
            ));
        }
        declared.push(parameter_data.name.as_str());
    }
    if let Some(missing) = variables.iter().find(|v| !declared.contains(v)) {
        return Err(SpecError::new(
            format!("{}.parameters", op.location()),
            format!("path variable `{{{missing}}}` has no declared path parameter"),
        ));
    }
    Ok(())
}

pub fn resolve_parameter<'a>(
    spec: &'a OpenAPI,
    param: &'a ReferenceOr<openapiv3::Parameter>,
) -> Option<&'a openapiv3::Parameter> {
    match param {
        ReferenceOr::Item(p) => Some(p),
        ReferenceOr::Reference { reference } => {
            let name = reference.strip_prefix("#/components/parameters/")?;
            spec.components.as_ref()?.parameters.get(name)?.as_item()
        }
    }
}

pub fn resolve_response<'a>(spec: &'a OpenAPI, response: &'a ReferenceOr<Response>) -> Option<&'a Response> {
    match response {
        ReferenceOr::Item(r) => Some(r),
        ReferenceOr::Reference { reference } => {
            let name = reference.strip_prefix("#/components/responses/")?;
            spec.components.as_ref()?.responses.get(name)?.as_item()
        }
    }
}

/// The JSON body schema of a response, or `None` for a response without one.
pub fn json_schema(response: &Response) -> Option<&ReferenceOr<openapiv3::Schema>> {
    response.content.get("application/json").and_then(|m| m.schema.as_ref())
}

pub fn status_key(status: &StatusCode) -> String {
    match status {
        StatusCode::Code(c) => c.to_string(),
        StatusCode::Range(r) => format!("{r}XX"),
    }
}

pub fn is_error_status(status: &StatusCode) -> bool {
    match status {
        StatusCode::Code(c) => *c >= 400,
        StatusCode::Range(r) => *r >= 4,
    }
}

/// progenitor makes one error type per operation and rejects `default`;
/// every error response therefore carries one shared JSON schema.
fn check_responses(spec: &OpenAPI, op: &OperationRef<'_>) -> Result<(), SpecError> {
    let responses = &op.operation.responses;
    let at = |key: &str| format!("{}.responses.{key}", op.location());
    if responses.default.is_some() {
        return Err(SpecError::new(
            at("default"),
            "a `default` response is not supported (progenitor rejects it): list each status, or a range such as `5XX`",
        ));
    }
    let mut error_schema: Option<(String, String)> = None;
    let mut success = Vec::new();
    for (status, response) in &responses.responses {
        let key = status_key(status);
        let response = resolve_response(spec, response).ok_or_else(|| SpecError::new(at(&key), "unresolvable $ref"))?;
        match status {
            StatusCode::Code(c) if !(200..600).contains(c) => {
                return Err(SpecError::new(at(&key), "status must be between 200 and 599"));
            }
            StatusCode::Range(r) if *r != 5 => {
                return Err(SpecError::new(
                    at(&key),
                    "only the `5XX` range is supported; list 2xx and 4xx statuses one by one",
                ));
            }
            _ => {}
        }
        if !is_error_status(status) {
            success.push(key);
            continue;
        }
        let Some(schema) = json_schema(response) else {
            return Err(SpecError::new(
                at(&key),
                "an error response must carry an application/json body (the Error object)",
            ));
        };
        let schema = serde_json::to_string(schema).unwrap_or_default();
        match &error_schema {
            None => error_schema = Some((key, schema)),
            Some((first, first_schema)) if *first_schema != schema => {
                return Err(SpecError::new(
                    at(&key),
                    format!(
                        "error responses must share one schema (progenitor makes one error type per operation), but this one differs from responses.{first}"
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    match success.as_slice() {
        [one] if ["200", "201", "202", "204"].contains(&one.as_str()) => Ok(()),
        [one] => Err(SpecError::new(
            at(one),
            "the success status must be one of 200, 201, 202, 204",
        )),
        [] => Err(SpecError::new(
            format!("{}.responses", op.location()),
            "no success (2xx) response",
        )),
        [_, second, ..] => Err(SpecError::new(
            at(second),
            "more than one success status: the server's typed response allows one",
        )),
    }
}

/// Security must be bearer auth (the one scheme the generated layer applies),
/// or explicitly none.
fn check_security(spec: &OpenAPI, op: &OperationRef<'_>) -> Result<(), SpecError> {
    let (requirements, location) = match &op.operation.security {
        Some(s) => (s, format!("{}.security", op.location())),
        None => match &spec.security {
            Some(s) => (s, "security".to_string()),
            None => return Ok(()),
        },
    };
    for requirement in requirements {
        for name in requirement.keys() {
            let scheme = spec
                .components
                .as_ref()
                .and_then(|c| c.security_schemes.get(name))
                .and_then(|s| s.as_item());
            match scheme {
                Some(openapiv3::SecurityScheme::HTTP { scheme, .. }) if scheme.eq_ignore_ascii_case("bearer") => {}
                Some(_) => {
                    return Err(SpecError::new(
                        location,
                        format!("security scheme `{name}` must be HTTP bearer: the generated layer applies only that"),
                    ));
                }
                None => {
                    return Err(SpecError::new(
                        location,
                        format!("security scheme `{name}` is not declared in components.securitySchemes"),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Whether an operation requires a bearer key: its own `security`, else the
/// document's.
pub fn requires_auth(spec: &OpenAPI, operation: &Operation) -> bool {
    let requirements = operation.security.as_ref().or(spec.security.as_ref());
    // `security: [{}]` or `[]` makes auth optional or absent.
    requirements.is_some_and(|r| !r.is_empty() && r.iter().all(|req| !req.is_empty()))
}
