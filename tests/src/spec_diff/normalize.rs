//! dropshot's document brought to the source's terms. Each step stands for
//! a fact that dropshot's document cannot hold, states that limit, and
//! takes the fact from the code that runs: the operation tables the
//! generated layer serves by (`OPERATIONS`), never from the source spec,
//! so a step cannot hide a difference between the spec and the code.

use api_runtime::documentation::{is_documentable, is_documented_as_text};
use api_runtime::{Operation, ValueKind};
use serde_json::{Map, Value, json};

use super::canonical::from_doc_form;
use super::contract::{Contract, METHODS};

pub fn normalize_emitted(emitted: &Value, source: &Value, contract: &Contract) -> Value {
    let mut doc = emitted.clone();
    strip_base_path(&mut doc, contract.base_path);
    trailing_slashes(&mut doc, contract);
    copy_security_schemes(&mut doc, source);
    for operation in contract.operations {
        let path = operation
            .path
            .strip_prefix(contract.base_path)
            .unwrap_or(operation.path);
        let pointer = format!("/paths/{}/{}", escape(path), operation.method.to_ascii_lowercase());
        let Some(op) = doc.pointer_mut(&pointer) else { continue };
        security(op, operation);
        error_statuses(op, operation);
        success_responses(op, operation);
        request_body(op, operation);
        let source_op = source.pointer(&pointer);
        undocumentable_parameters(op, operation, source_op);
    }
    problem_details_alone(&mut doc, source);
    doc
}

/// dropshot declares one error type for every operation. Where a spec has
/// no Error object, that type is the layer's RFC 9457 problem details,
/// sent for the statuses the spec leaves undocumented: once the documented
/// errors are the table's, no response of the spec's carries it.
fn problem_details_alone(doc: &mut Value, source: &Value) {
    const NAME: &str = "ProblemDetails";
    let in_spec = source.pointer(&format!("/components/schemas/{NAME}")).is_some();
    let referenced = doc["paths"].to_string().contains(&format!("/schemas/{NAME}\""));
    if !in_spec
        && !referenced
        && let Some(schemas) = doc.pointer_mut("/components/schemas").and_then(Value::as_object_mut)
    {
        schemas.remove(NAME);
    }
}

/// dropshot's router cannot hold a literal segment beside a variable
/// (`/orders/summary` beside `/orders/{orderId}`), nor two variable names
/// at one position, nor text around a variable (`/orders/{orderId}.json`),
/// and its endpoint macro has no `TRACE`; of one method on `/a` and `/a/`
/// it holds one route: the runtime's
/// dispatch (`api_runtime::routing`) serves those operations, and
/// dropshot's document lists none of them. Which ones those are comes from the
/// tables' paths, through the same routing; they are left out of the
/// comparison, and their behaviour is proven over HTTP instead
/// (`crates/kitchen-sink/tests/integration/round_trips.rs`).
pub fn without_routed_operations(source: &Value, contract: &Contract) -> Value {
    let mut source = source.clone();
    for (operation, routed) in contract.operations.iter().zip(dispatched(contract)) {
        if !routed {
            continue;
        }
        let path = operation
            .path
            .strip_prefix(contract.base_path)
            .unwrap_or(operation.path);
        let Some(item) = source.pointer_mut(&format!("/paths/{}", escape(path))) else {
            continue;
        };
        if let Some(item) = item.as_object_mut() {
            item.remove(&operation.method.to_ascii_lowercase());
            if !item.keys().any(|k| METHODS.contains(&k.as_str())) {
                source["paths"].as_object_mut().map(|paths| paths.remove(path));
            }
        }
    }
    source
}

/// Which of the contract's operations the runtime's dispatch serves, as
/// the generator decided (`api_shared::routes::dispatched`), over the
/// same paths: the operations' and the document's.
fn dispatched(contract: &Contract) -> Vec<bool> {
    let document_path = format!("{}/openapi.json", contract.base_path);
    let paths: Vec<&str> = contract
        .operations
        .iter()
        .map(|op| op.path)
        .chain([document_path.as_str()])
        .collect();
    let written: Vec<(&str, &str)> = contract.operations.iter().map(|op| (op.method, op.path)).collect();
    api_runtime::routing::dispatched(&written, &api_runtime::routing::routes(&paths))
}

fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

fn parse_doc(json: &str) -> Value {
    from_doc_form(&serde_json::from_str(json).unwrap_or(Value::Null))
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

/// dropshot's document writes a path without its trailing `/` (its
/// router takes `/labels/` and `/labels` as one): an operation is moved to
/// the path its table serves it at.
fn trailing_slashes(doc: &mut Value, contract: &Contract) {
    for (operation, routed) in contract.operations.iter().zip(dispatched(contract)) {
        // One the dispatch serves is not in dropshot's document.
        if routed {
            continue;
        }
        let path = operation
            .path
            .strip_prefix(contract.base_path)
            .unwrap_or(operation.path);
        let Some(written) = path.strip_suffix('/') else {
            continue;
        };
        let method = operation.method.to_ascii_lowercase();
        let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
            return;
        };
        let Some(moved) = paths
            .get_mut(written)
            .and_then(Value::as_object_mut)
            .and_then(|item| item.remove(&method))
        else {
            continue;
        };
        if paths[written].as_object().is_some_and(Map::is_empty) {
            paths.remove(written);
        }
        let item = paths.entry(path.to_string()).or_insert_with(|| json!({}));
        item[method.as_str()] = moved;
    }
}

/// dropshot cannot declare security schemes: the spec's are what the
/// tables name (and the end-to-end tests prove each scheme is checked).
fn copy_security_schemes(doc: &mut Value, source: &Value) {
    if let Some(schemes) = source.pointer("/components/securitySchemes") {
        doc["components"]["securitySchemes"] = schemes.clone();
    }
}

/// dropshot cannot say which scheme an operation takes: the table's
/// requirements are what the generated layer checks before the handler
/// runs (`[]`: public), each with its schemes and their scopes.
fn security(op: &mut Value, operation: &Operation) {
    let requirements: Vec<Value> = operation
        .security
        .iter()
        .map(|requirement| {
            let needs: Map<String, Value> = requirement
                .0
                .iter()
                .map(|need| (need.scheme.name().to_string(), json!(need.scopes)))
                .collect();
            Value::Object(needs)
        })
        .collect();
    op["security"] = Value::Array(requirements);
}

/// dropshot declares every error as one `4XX` and one `5XX` range, with
/// the one error type's body. The statuses the server sends are the
/// table's (the response enum's variants): those of the Error object with
/// that body, and the others with their own body, or none.
fn error_statuses(op: &mut Value, operation: &Operation) {
    let Some(responses) = op.get_mut("responses").and_then(Value::as_object_mut) else {
        return;
    };
    let client = responses.remove("4XX");
    let server = responses.remove("5XX");
    for key in operation.errors {
        let range = if key.starts_with('4') { &client } else { &server };
        if let Some(response) = range {
            responses.insert(key.to_string(), response.clone());
        }
    }
    for error in operation.other_errors {
        let mut response = json!({"description": error.description});
        if let Some(content) = &error.content {
            response["content"] = json!({ content.media_type: {"schema": parse_doc(content.schema.doc_json())} });
        }
        responses.insert(error.key.to_string(), response);
    }
}

/// dropshot documents one success status, and every body as
/// `application/json`. The table lists each success status the response
/// enum can send, with its media type, body and headers (the spec's
/// checks make the bodies one schema); an inline body's schema also loses
/// the `title` dropshot gives it (its Rust type's name).
fn success_responses(op: &mut Value, operation: &Operation) {
    let Some(responses) = op.get_mut("responses").and_then(Value::as_object_mut) else {
        return;
    };
    for (i, success) in operation.responses.iter().enumerate() {
        // A range (`2XX`) is the table's; dropshot documents its first
        // status.
        let key = match success.last == success.status {
            true => success.status.to_string(),
            false => format!("{}XX", success.status / 100),
        };
        if i == 0
            && key.ends_with("XX")
            && let Some(first) = responses.remove(&success.status.to_string())
        {
            responses.insert(key.clone(), first);
        }
        if i > 0 {
            let mut headers = Map::new();
            for header in success.headers {
                let mut entry = json!({"required": header.required, "schema": parse_doc(header.schema.doc_json())});
                if let Some(description) = header.description {
                    entry["description"] = json!(description);
                }
                headers.insert(header.name.to_string(), entry);
            }
            let mut response = json!({"description": success.description, "headers": headers});
            if let Some(content) = &success.content {
                let body = json!({"schema": parse_doc(content.schema.doc_json())});
                let media: Map<String, Value> = std::iter::once(content.media_type)
                    .chain(content.alternatives.iter().copied())
                    .map(|media_type| (media_type.to_string(), body.clone()))
                    .collect();
                response["content"] = Value::Object(media);
            }
            responses.insert(key.clone(), response);
            continue;
        }
        let (Some(content), Some(emitted)) = (&success.content, responses.get_mut(&key)) else {
            continue;
        };
        if let Some(media) = emitted.get_mut("content").and_then(Value::as_object_mut) {
            let mut body = media.remove("application/json").unwrap_or(Value::Null);
            untitle(&mut body["schema"], content.doc_name, content.schema);
            // dropshot writes one media type; the layer writes the same
            // value in each of the table's alternatives too.
            for alternative in content.alternatives {
                media.insert(alternative.to_string(), body.clone());
            }
            media.insert(content.media_type.to_string(), body);
        }
    }
}

/// dropshot titles an inline body schema with its Rust type's name,
/// over the schema's own title: the table's schema has the title, if any.
fn untitle(schema: &mut Value, name: &str, documented: &api_runtime::Schema) {
    let Some(map) = schema.as_object_mut() else { return };
    if map.get("title").and_then(Value::as_str) != Some(name) {
        return;
    }
    match parse_doc(documented.doc_json()).get("title") {
        Some(title) => map.insert("title".into(), title.clone()),
        None => map.remove("title"),
    };
}

/// dropshot documents a request body as required, with no description,
/// and knows three media types (text is written as bytes), one per body.
/// The table has the body's media types (the one the handler's type is
/// read from, and the alternatives read into the same value), whether it
/// is required and its description, as the generated layer reads it.
fn request_body(op: &mut Value, operation: &Operation) {
    let Some(body) = &operation.body else { return };
    let Some(emitted) = op.get_mut("requestBody") else {
        return;
    };
    if let Some(content) = emitted.get_mut("content").and_then(Value::as_object_mut) {
        let mut media: Vec<Value> = std::mem::take(content).into_values().collect();
        let mut media = media.pop().unwrap_or(Value::Null);
        untitle(&mut media["schema"], body.doc_name, body.schema);
        for (alternative, _) in body.alternatives {
            content.insert(alternative.to_string(), media.clone());
        }
        content.insert(body.media_type.to_string(), media);
    }
    emitted["required"] = json!(body.required);
    match body.description {
        Some(description) => emitted["description"] = json!(description),
        None => {
            if let Some(map) = emitted.as_object_mut() {
                map.remove("description");
            }
        }
    }
}

/// The media type of the source's `content` parameter `name` in `place`
/// (the operation's, or its path item's).
fn content_media_type(source_op: Option<&Value>, name: &str, place: &str) -> Option<String> {
    let parameters = source_op?.get("parameters")?.as_array()?;
    let parameter = parameters.iter().find(|p| p["name"] == name && p["in"] == place)?;
    parameter.get("content")?.as_object()?.keys().next().cloned()
}

/// dropshot's `ApiDescription::register` refuses a query parameter whose
/// schema is not a scalar, so array and object query parameters are not
/// in its document, and it writes no `explode` or `style`; its parameter
/// locations are path, query and header, so cookie parameters are not in
/// it either. The table has them all, as the generated extractor reads
/// them. A path parameter that is a list or an object, and a header that
/// is an object, are strings to dropshot ([`is_documented_as_text`]); the
/// table has their schemas too.
fn undocumentable_parameters(op: &mut Value, operation: &Operation, source_op: Option<&Value>) {
    let parameters = op
        .as_object_mut()
        .map(|op| op.entry("parameters").or_insert_with(|| json!([])));
    let Some(Value::Array(parameters)) = parameters else {
        return;
    };
    for parameter in operation.parameters {
        // Shown as a string to dropshot: the table has its schema.
        if is_documented_as_text(parameter)
            && let Some(emitted) = parameters
                .iter_mut()
                .find(|p| p["name"] == parameter.name && p["in"] == parameter.location.as_str())
        {
            emitted["schema"] = parse_doc(parameter.schema.doc_json());
        }
        if is_documentable(operation, parameter) {
            continue;
        }
        let structured = !matches!(parameter.value, ValueKind::Scalar(_));
        let place = parameter.location.as_str();
        let present = parameters
            .iter_mut()
            .find(|p| p["name"] == parameter.name && p["in"] == place);
        match present {
            Some(emitted) => emitted["explode"] = json!(parameter.explode),
            None => {
                let mut added = json!({
                    "name": parameter.name,
                    "in": place,
                    "required": parameter.required,
                });
                // A `content` parameter (dropshot has none): its schema
                // under the media type the spec gives it.
                let media_type = match parameter.value {
                    ValueKind::Json => content_media_type(source_op, parameter.name, place),
                    _ => None,
                };
                let schema = parse_doc(parameter.schema.doc_json());
                match media_type {
                    Some(media_type) => added["content"] = json!({ media_type: { "schema": schema } }),
                    None => added["schema"] = schema,
                }
                if structured && added.get("content").is_none() {
                    added["explode"] = json!(parameter.explode);
                }
                if let ValueKind::Object { deep: true, .. } = parameter.value {
                    added["style"] = json!("deepObject");
                }
                if let Some(description) = parameter.description {
                    added["description"] = json!(description);
                }
                parameters.push(added);
            }
        }
    }
}
