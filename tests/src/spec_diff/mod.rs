//! Does the code agree with the spec? The OpenAPI document dropshot emits
//! from a generated API trait is brought to the source's terms (the facts
//! dropshot's document cannot hold, each in [`normalize`] with its reason,
//! taken from the tables the code runs by), then both documents are
//! reduced to flat facts (`paths./x.get.operationId = listOrders`,
//! `components.schemas.Order.properties.id.format = "int64"`) and
//! compared. What differs is listed.

mod canonical;
mod contract;
mod normalize;

use std::collections::BTreeMap;

use serde_json::{Value, json};

pub use normalize::{normalize_emitted, without_routed_operations};

use canonical::{flatten, text};
pub use contract::Contract;
use contract::METHODS;

/// The service's contract (`petstore-api`).
pub fn petstore() -> Contract {
    Contract {
        spec_path: "openapi/petstore.yaml",
        version: petstore_api::API_VERSION,
        base_path: petstore_api::BASE_PATH,
        operations: petstore_api::OPERATIONS,
        description: petstore_api::stub_api_description,
        left_out: &[],
    }
}

/// Version 2 of the service's contract.
pub fn petstore_v2() -> Contract {
    Contract {
        spec_path: "openapi/v2/petstore.yaml",
        version: petstore_api::v2::API_VERSION,
        base_path: petstore_api::v2::BASE_PATH,
        operations: petstore_api::v2::OPERATIONS,
        description: petstore_api::v2::stub_api_description,
        left_out: &[],
    }
}

/// The kitchen sink's contract.
pub fn kitchen_sink() -> Contract {
    Contract {
        spec_path: "tests/fixtures/kitchen-sink.yaml",
        version: kitchen_sink::api::API_VERSION,
        base_path: kitchen_sink::api::BASE_PATH,
        operations: kitchen_sink::api::OPERATIONS,
        description: kitchen_sink::api::stub_api_description,
        left_out: &[],
    }
}

/// The 3.1 kitchen sink's contract (`crates/kitchen-sink-31`), compared
/// in its 3.0 rendering.
pub fn kitchen_sink_31() -> Contract {
    Contract {
        spec_path: "tests/fixtures/kitchen-sink-31.yaml",
        version: kitchen_sink_31::api::API_VERSION,
        base_path: kitchen_sink_31::api::BASE_PATH,
        operations: kitchen_sink_31::api::OPERATIONS,
        description: kitchen_sink_31::api::stub_api_description,
        left_out: &[],
    }
}

/// The Swagger Petstore v3 as published (`crates/swagger-petstore`).
pub fn swagger_petstore() -> Contract {
    Contract {
        spec_path: "tests/fixtures/corpus/swagger-petstore-v3__openapi.yaml",
        version: swagger_petstore::api::API_VERSION,
        base_path: swagger_petstore::api::BASE_PATH,
        operations: swagger_petstore::api::OPERATIONS,
        description: swagger_petstore::api::stub_api_description,
        left_out: &[],
    }
}

/// Every public document of the corpus that generates (`crates/corpus`).
pub fn corpus() -> Vec<Contract> {
    corpus::specs::DOCUMENTS
        .iter()
        .map(|document| Contract {
            spec_path: document.spec_path,
            version: document.version,
            base_path: document.base_path,
            operations: document.operations,
            description: document.description,
            left_out: document.left_out,
        })
        .collect()
}

impl Contract {
    /// The source spec as JSON, as the generator reads it (a 3.1
    /// document in its 3.0 rendering: dropshot emits 3.0; its tolerated
    /// mistakes read as they mean), without the operations its leave-out
    /// list keeps out of the code.
    pub fn source(&self) -> Value {
        let text = std::fs::read_to_string(crate::workspace_root().join(self.spec_path)).unwrap();
        let text = match xtask::codegen::document::openapi31::render(&text).unwrap() {
            Some(rendered) => rendered.text,
            None => text,
        };
        let (text, _) = xtask::codegen::document::tolerate::tolerate(&text);
        // Operations named as the generator names them (where the
        // document names none usably, or two alike).
        let mut source: Value = xtask::codegen::document::parse(&text)
            .map(|spec| spec.json)
            .unwrap_or_else(|_| serde_norway::from_str(&text).unwrap());
        for (method, path) in self.left_out {
            if let Some(item) = source["paths"].get_mut(*path).and_then(Value::as_object_mut) {
                item.remove(&method.to_ascii_lowercase());
            }
        }
        source
    }

    /// The document dropshot emits for the generated API trait.
    pub fn emitted(&self) -> Value {
        let api = (self.description)().expect("the generated API description is valid");
        // dropshot's `info.version` is a semantic version; a spec's may be
        // any text (`v1`), and `info` is not compared.
        let version: semver::Version = self.version.parse().unwrap_or(semver::Version::new(0, 0, 0));
        api.openapi("emitted", version).json().expect("dropshot emits JSON")
    }

    /// What still differs once dropshot's document is in the source's
    /// terms; empty when they agree.
    pub fn differences_from(&self, source: &Value) -> Vec<String> {
        let source = normalize::without_routed_operations(source, self);
        differences(&source, &normalize_emitted(&self.emitted(), &source, self))
    }
}

/// Every difference between two documents, one line each.
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

/// A document as flat facts: what both documents must agree on. Response
/// descriptions are left out (dropshot writes its own for errors).
fn facts(doc: &Value) -> BTreeMap<String, String> {
    let mut facts = BTreeMap::new();
    let global_security = doc.get("security").cloned().unwrap_or(json!([]));
    for (path, item) in doc.get("paths").and_then(Value::as_object).into_iter().flatten() {
        let shared = item
            .get("parameters")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for method in METHODS {
            let Some(op) = item.get(method) else { continue };
            let at = format!("paths.{path}.{method}");
            let mut fact = |key: &str, value: String| {
                facts.insert(format!("{at}.{key}"), value);
            };
            for key in ["operationId", "summary", "description"] {
                fact(key, text(op.get(key)));
            }
            fact("tags", op.get("tags").map(Value::to_string).unwrap_or_default());
            fact(
                "deprecated",
                op.get("deprecated")
                    .and_then(Value::as_bool)
                    .unwrap_or(false)
                    .to_string(),
            );
            fact("security", op.get("security").unwrap_or(&global_security).to_string());
            let own = op
                .get("parameters")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            for param in shared.iter().chain(own.iter()) {
                parameter_facts(doc, &at, param, &mut facts);
            }
            if let Some(body) = op.get("requestBody") {
                body_facts(doc, &format!("{at}.requestBody"), body, &mut facts);
            }
            for (status, response) in op.get("responses").and_then(Value::as_object).into_iter().flatten() {
                response_facts(doc, &format!("{at}.responses.{status}"), response, &mut facts);
            }
        }
    }
    for (name, schema) in doc
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        flatten(
            &format!("components.schemas.{name}"),
            &canonical::schema(schema),
            &mut facts,
        );
    }
    for (name, scheme) in doc
        .pointer("/components/securitySchemes")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let summary = json!([
            scheme.get("type"),
            scheme.get("scheme"),
            scheme.get("in"),
            scheme.get("name")
        ]);
        facts.insert(format!("components.securitySchemes.{name}"), summary.to_string());
    }
    facts
}

fn parameter_facts(doc: &Value, at: &str, param: &Value, facts: &mut BTreeMap<String, String>) {
    let param = resolve(doc, param);
    let at = format!("{at}.parameters.{}.{}", text(param.get("in")), text(param.get("name")));
    let required = param.get("required").and_then(Value::as_bool).unwrap_or(false);
    facts.insert(format!("{at}.required"), required.to_string());
    facts.insert(format!("{at}.description"), text(param.get("description")));
    let schema = param.get("schema").map(canonical::schema).unwrap_or(Value::Null);
    if resolve(doc, &schema).get("type").and_then(Value::as_str) == Some("array") {
        // An array's wire form: `explode` defaults to true for form style
        // (the query's), false for simple (the path's and headers').
        let default = param.get("in").and_then(Value::as_str) == Some("query");
        let explode = param.get("explode").and_then(Value::as_bool).unwrap_or(default);
        facts.insert(format!("{at}.explode"), explode.to_string());
    }
    flatten(&format!("{at}.schema"), &schema, facts);
}

fn body_facts(doc: &Value, at: &str, body: &Value, facts: &mut BTreeMap<String, String>) {
    let body = resolve(doc, body);
    let required = body.get("required").and_then(Value::as_bool).unwrap_or(false);
    facts.insert(format!("{at}.required"), required.to_string());
    facts.insert(format!("{at}.description"), text(body.get("description")));
    content_facts(at, body, facts);
}

fn response_facts(doc: &Value, at: &str, response: &Value, facts: &mut BTreeMap<String, String>) {
    let response = resolve(doc, response);
    if response
        .get("content")
        .and_then(Value::as_object)
        .is_none_or(|c| c.is_empty())
    {
        facts.insert(at.to_string(), "no body".into());
    }
    content_facts(at, response, facts);
    for (name, header) in response.get("headers").and_then(Value::as_object).into_iter().flatten() {
        let header = resolve(doc, header);
        // Header names are case-insensitive.
        let at = format!("{at}.headers.{}", name.to_ascii_lowercase());
        let required = header.get("required").and_then(Value::as_bool).unwrap_or(false);
        facts.insert(format!("{at}.required"), required.to_string());
        facts.insert(format!("{at}.description"), text(header.get("description")));
        let schema = header.get("schema").map(canonical::schema).unwrap_or(Value::Null);
        flatten(&format!("{at}.schema"), &schema, facts);
    }
}

fn content_facts(at: &str, holder: &Value, facts: &mut BTreeMap<String, String>) {
    for (media_type, media) in holder.get("content").and_then(Value::as_object).into_iter().flatten() {
        let schema = media.get("schema").map(canonical::schema).unwrap_or(Value::Null);
        flatten(&format!("{at}.content.{media_type}.schema"), &schema, facts);
    }
}

/// Follows a local `$ref` to `components.responses`, `parameters`,
/// `requestBodies` or `headers`.
fn resolve<'a>(doc: &'a Value, value: &'a Value) -> &'a Value {
    match value
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix('#'))
    {
        Some(pointer) if !pointer.starts_with("/components/schemas/") => doc.pointer(pointer).unwrap_or(value),
        _ => value,
    }
}
