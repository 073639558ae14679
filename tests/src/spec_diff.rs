//! Does the code agree with the spec? The OpenAPI document dropshot emits
//! from the generated trait is brought to the source's terms (the facts
//! dropshot cannot express, each in [`normalize_emitted`] with its reason),
//! then both documents are reduced to flat facts (`paths./x.get.operationId
//! = listOrders`) and compared. What differs is listed.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// The document dropshot emits for the generated `PetStoreApi` trait.
pub fn emitted_spec() -> Value {
    let api = petstore_api::stub_api_description().expect("the generated API description is valid");
    let version: semver::Version = petstore_api::API_VERSION.parse().expect("info.version is semver");
    api.openapi("Pet Store", version).json().expect("dropshot emits JSON")
}

/// Brings dropshot's document to the source's terms. Each step is a fact
/// about the service that dropshot has no way to write down.
pub fn normalize_emitted(emitted: &Value, source: &Value) -> Value {
    let mut doc = emitted.clone();
    strip_base_path(&mut doc, petstore_api::BASE_PATH);
    copy_security(&mut doc, source);
    explicit_error_statuses(&mut doc, source);
    drop_nullable_on_optional_properties(&mut doc);
    doc
}

/// dropshot has no `servers`: its routes carry the base path (`/v1`) that
/// the spec's paths leave to the servers' URLs.
fn strip_base_path(doc: &mut Value, base_path: &str) {
    if let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) {
        let stripped: Map<String, Value> = std::mem::take(paths)
            .into_iter()
            .map(|(path, item)| (path.strip_prefix(base_path).unwrap_or(&path).to_string(), item))
            .collect();
        *paths = stripped;
    }
}

/// dropshot cannot declare security schemes. The generated `StrictServer`
/// authenticates every operation the spec secures, before its handler
/// runs; the end-to-end tests prove it per operation (missing, wrong and
/// revoked keys).
fn copy_security(doc: &mut Value, source: &Value) {
    if let Some(security) = source.get("security") {
        doc["security"] = security.clone();
    }
    if let Some(schemes) = source.pointer("/components/securitySchemes") {
        doc["components"]["securitySchemes"] = schemes.clone();
    }
}

/// dropshot declares every client error as one `4XX` range. The statuses
/// the server can actually send are the variants of each operation's
/// generated response enum (see the API surface snapshot), which are made
/// from the source's explicit statuses; so `4XX` stands for exactly those,
/// each with the body dropshot declares for the range.
fn explicit_error_statuses(doc: &mut Value, source: &Value) {
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for (path, item) in paths.iter_mut() {
        for method in METHODS {
            let Some(responses) = item
                .pointer_mut(&format!("/{method}/responses"))
                .and_then(Value::as_object_mut)
            else {
                continue;
            };
            let Some(range) = responses.remove("4XX") else { continue };
            let source_statuses = source
                .pointer(&format!("/paths/{}/{method}/responses", escape_pointer(path)))
                .and_then(Value::as_object)
                .map(|r| r.keys().filter(|k| k.starts_with('4')).cloned().collect::<Vec<_>>())
                .unwrap_or_default();
            for status in source_statuses {
                responses.insert(status, range.clone());
            }
        }
    }
}

/// schemars marks every `Option` field `nullable`. The generated types skip
/// `None` when serializing, so the server never sends `null` for an
/// optional field: it is optional, as the spec says, not nullable.
fn drop_nullable_on_optional_properties(doc: &mut Value) {
    let Some(schemas) = doc.pointer_mut("/components/schemas").and_then(Value::as_object_mut) else {
        return;
    };
    for schema in schemas.values_mut() {
        let required: Vec<String> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).map(String::from).collect())
            .unwrap_or_default();
        let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) else {
            continue;
        };
        for (name, property) in properties.iter_mut() {
            if !required.contains(name)
                && let Some(p) = property.as_object_mut()
            {
                p.remove("nullable");
            }
        }
    }
}

fn escape_pointer(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// Every difference between the source and the normalized emitted
/// document, one line each; empty when they agree.
pub fn differences(source: &Value, emitted: &Value) -> Vec<String> {
    let (source, emitted) = (facts(source), facts(emitted));
    let mut out = Vec::new();
    for (key, value) in &source {
        match emitted.get(key) {
            None => out.push(format!("only in the spec: {key} = {value}")),
            Some(other) if other != value => out.push(format!("differs: {key}: spec {value}, code {other}")),
            Some(_) => {}
        }
    }
    for (key, value) in &emitted {
        if !source.contains_key(key) {
            out.push(format!("only in the code: {key} = {value}"));
        }
    }
    out
}

/// A document as flat facts: what both documents must agree on.
/// Descriptions of responses are left out (dropshot writes its own), and
/// text is compared with whitespace collapsed (dropshot reflows doc
/// comments).
fn facts(doc: &Value) -> BTreeMap<String, String> {
    let mut facts = BTreeMap::new();
    let global_security = doc.get("security").cloned().unwrap_or(Value::Null);
    for (path, item) in doc.get("paths").and_then(Value::as_object).into_iter().flatten() {
        for method in METHODS {
            let Some(op) = item.get(method) else { continue };
            let at = format!("paths.{path}.{method}");
            let mut fact = |key: &str, value: String| {
                facts.insert(format!("{at}.{key}"), value);
            };
            fact("operationId", text(op.get("operationId")));
            fact("summary", text(op.get("summary")));
            fact("description", text(op.get("description")));
            fact("tags", op.get("tags").map(Value::to_string).unwrap_or_default());
            fact(
                "deprecated",
                op.get("deprecated")
                    .and_then(Value::as_bool)
                    .unwrap_or(false)
                    .to_string(),
            );
            fact("security", op.get("security").unwrap_or(&global_security).to_string());
            for param in op.get("parameters").and_then(Value::as_array).into_iter().flatten() {
                let param = resolve(doc, param);
                let key = format!("parameters.{}.{}", text(param.get("in")), text(param.get("name")));
                let required = param.get("required").and_then(Value::as_bool).unwrap_or(false);
                let schema = param.get("schema").map(describe).unwrap_or_default();
                fact(&key, format!("required={required} schema={schema}"));
            }
            for (status, response) in op.get("responses").and_then(Value::as_object).into_iter().flatten() {
                let response = resolve(doc, response);
                let body = match response.pointer("/content/application~1json/schema") {
                    Some(schema) => describe(schema),
                    None => "no body".to_string(),
                };
                fact(&format!("responses.{status}"), body);
                for (name, header) in response.get("headers").and_then(Value::as_object).into_iter().flatten() {
                    let header = resolve(doc, header);
                    let required = header.get("required").and_then(Value::as_bool).unwrap_or(false);
                    let schema = header.get("schema").map(describe).unwrap_or_default();
                    // Header names are case-insensitive.
                    let key = format!("responses.{status}.headers.{}", name.to_ascii_lowercase());
                    fact(&key, format!("required={required} schema={schema}"));
                }
            }
        }
    }
    for (name, schema) in doc
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let at = format!("components.schemas.{name}");
        facts.insert(format!("{at}.type"), text(schema.get("type")));
        facts.insert(format!("{at}.description"), text(schema.get("description")));
        let mut required: Vec<String> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().map(|v| text(Some(v))).collect())
            .unwrap_or_default();
        required.sort();
        facts.insert(format!("{at}.required"), required.join(","));
        for (prop, prop_schema) in schema
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            facts.insert(format!("{at}.properties.{prop}"), describe(prop_schema));
            facts.insert(
                format!("{at}.properties.{prop}.description"),
                text(prop_schema.get("description")),
            );
        }
    }
    if let Some(schemes) = doc.pointer("/components/securitySchemes").and_then(Value::as_object) {
        for (name, scheme) in schemes {
            facts.insert(
                format!("components.securitySchemes.{name}"),
                json!([scheme.get("type"), scheme.get("scheme")]).to_string(),
            );
        }
    }
    facts
}

/// A string value with whitespace collapsed.
fn text(value: Option<&Value>) -> String {
    match value {
        Some(Value::String(s)) => s.split_whitespace().collect::<Vec<_>>().join(" "),
        Some(other) => other.to_string(),
        None => String::new(),
    }
}

/// Follows a local `$ref` to `components.responses` or `components.parameters`.
fn resolve<'a>(doc: &'a Value, value: &'a Value) -> &'a Value {
    match value
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix('#'))
    {
        Some(pointer) => doc.pointer(pointer).unwrap_or(value),
        None => value,
    }
}

/// A schema's shape in one line: `ref(Order)`, `array<ref(Order)>`,
/// `integer/int64`, `string/date-time nullable`.
fn describe(schema: &Value) -> String {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        return format!("ref({})", reference.rsplit('/').next().unwrap_or(reference));
    }
    let ty = text(schema.get("type"));
    let mut out = match ty.as_str() {
        "array" => format!("array<{}>", schema.get("items").map(describe).unwrap_or_default()),
        // typify reads an integer without a format as i64, so both
        // documents are read that way.
        "integer" => format!(
            "integer/{}",
            schema.get("format").and_then(Value::as_str).unwrap_or("int64")
        ),
        _ => match schema.get("format").and_then(Value::as_str) {
            Some(format) => format!("{ty}/{format}"),
            None => ty,
        },
    };
    if schema.get("nullable").and_then(Value::as_bool) == Some(true) {
        out.push_str(" nullable");
    }
    if let Some(values) = schema.get("enum") {
        out.push_str(&format!(" enum={values}"));
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        let inner: Vec<String> = properties
            .iter()
            .map(|(k, v)| format!("{k}: {}", describe(v)))
            .collect();
        out.push_str(&format!("{{{}}}", inner.join(", ")));
    }
    out
}
