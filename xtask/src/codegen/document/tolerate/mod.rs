//! Mistakes that common tools accept, read as what they evidently mean.
//! Real documents carry them (many were converted from Swagger 2.0 by a
//! tool), and refusing an operation for one would serve nobody. Each rule
//! rewrites the document before anything else reads it, so the checks,
//! both generators and the served document agree on one reading, and
//! each rewrite is named, with its location, as a warning that
//! `cargo xtask lint` and `cargo xtask try` print:
//!
//! - a protocol-relative server URL (`//api.example.com/v1`) is HTTPS;
//!   one without a host (`//api/v1`) is the path it spells; a first
//!   server that gives no path to mount at (`/Your API URL`) is the root;
//! - a `Content-Type` response header is the response's media type,
//!   which OpenAPI says to ignore;
//! - a `content` key that is not a media type (a property name, where a
//!   converter put an example) is not content;
//! - a status written as a number (`200:` in YAML) is that status;
//! - Swagger 2.0's `in: formData` parameters are a form body's fields (a
//!   multipart one where one is a file);
//! - an informational status other than 101 (`100`, `102`, `103`) is not
//!   a response a handler can give: the HTTP machinery sends those;
//! - an HTTP authentication scheme other than bearer and basic
//!   (`scheme: OAuth`) is its `Authorization` header, read whole as an
//!   API key is;
//! - a query string written into a path (`/x?a={a}`) is the path, and
//!   its variables are query parameters; a fragment (`/x#Action=Y`),
//!   which no client sends, is not part of the path;
//! - two variables with nothing between them (`{page}{extension}`)
//!   where one allows a single value (`.json`) are that text
//!   (`{page}.json`);
//! - a path parameter whose name is not in its path is not a path
//!   parameter; a path variable an operation does not declare is a
//!   string;
//! - a `type`'s `enum` written in another type's values (`type: string,
//!   enum: [1, 2]`) means those values in the schema's type; an array's
//!   `enum` of single values is its items';
//! - `null` among an enum's values of a type that is not nullable means
//!   a nullable enum;
//! - a `default` of another type than the schema's is read in its type;
//! - a parameter's list items without a type are strings;
//! - OpenAPI 3.1's numeric `exclusiveMinimum`/`exclusiveMaximum` in a
//!   3.0 document is that bound;
//! - an array without `items` holds anything; object keywords beside a
//!   scalar `type` (which JSON Schema applies to objects only) go;
//! - a request body without content (`content: {}`) is any body (`*/*`);
//! - (degrade) a request body of bytes or text whose schema is not a
//!   plain string (`application/jwt` with the claims' object,
//!   `image/jpeg` as `format: base64`) is read as bytes or text, since
//!   the schema describes what they encode, which the layer cannot check;
//! - a discriminator over inline members that each name their value
//!   (`type: {const: created}`) is read as over component schemas of
//!   their own; (degrade) one over members that do not, as its
//!   `oneOf`/`anyOf` alone ([`discriminators`]);
//! - a schema's `$ref` into another part of the document than a
//!   component schema (`#/components/responses/X/content/…/schema`, a
//!   component's property) is the schema it points at; a parameter's,
//!   response's or body's into another operation's, the object there;
//!   `definitions` (`$defs`) inside a component schema are components of
//!   their own ([`references`]);
//! - a count written as a float (`maxLength: 2.0`) is the integer it is;
//!   a pattern in another dialect than ECMA-262's (`\A`, `(?i)`,
//!   `\p{Punct}`) is its translation, and one no engine reads is not
//!   checked.
//!
//! A document none of these rules touches is returned as written, byte
//! for byte.

mod body_ranges;
mod discriminators;
mod document;
mod foreign_schemas;
mod keywords;
mod operations;
mod paths;
mod references;
mod schema_roles;
mod schemas;
mod values;

use serde_norway::Value;

use document::{security_schemes, servers, unmountable_server};
use operations::{
    body_schemas, content_keys, form_data, informational_statuses, integer_statuses, response_parts,
    untyped_parameter_items,
};
use paths::{one_valued_variables, path_item_references, path_parameters, query_strings_in_paths};
use schemas::schemas_everywhere;
use values::{key_text, mapping};

use super::model::METHODS;

/// A mistake read as what it means: where, and how it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tolerated {
    pub location: String,
    pub message: String,
}

impl std::fmt::Display for Tolerated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

/// The document with every tolerated mistake rewritten, and what was; the
/// text as it is when nothing was (or when it is not YAML, which the
/// parser then reports).
pub fn tolerate(text: &str) -> (String, Vec<Tolerated>) {
    let Ok(mut doc) = serde_norway::from_str::<Value>(text) else {
        return (text.to_string(), Vec::new());
    };
    let mut found = Vec::new();
    rewrite(&mut doc, &mut found);
    if found.is_empty() {
        return (text.to_string(), found);
    }
    match serde_norway::to_string(&doc) {
        Ok(rewritten) => (rewritten, found),
        Err(_) => (text.to_string(), Vec::new()),
    }
}

fn rewrite(doc: &mut Value, found: &mut Vec<Tolerated>) {
    let mut note = |location: String, message: &str| {
        found.push(Tolerated {
            location,
            message: message.to_string(),
        })
    };
    servers(doc, &mut note);
    unmountable_server(doc, &mut note);
    security_schemes(doc, &mut note);
    references::nested_definitions(doc, &mut note);
    references::foreign_references(doc, &mut note);
    references::foreign_header_references(doc, &mut note);
    path_item_references(doc, &mut note);
    query_strings_in_paths(doc, &mut note);
    one_valued_variables(doc, &mut note);
    // Read beside the paths, which are rewritten in place.
    let component_schemas = doc
        .get("components")
        .and_then(|c| c.get("schemas"))
        .and_then(Value::as_mapping)
        .cloned()
        .unwrap_or_default();
    let paths: Vec<Value> = mapping(doc, "paths")
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    for path_key in paths {
        let Some(path) = path_key.as_str().map(str::to_string) else {
            continue;
        };
        let Some(Value::Mapping(item)) = doc.get_mut("paths").and_then(|p| p.get_mut(&path_key)) else {
            continue;
        };
        path_parameters(&path, item, &mut note);
        untyped_parameter_items(item, &format!("paths.{path}"), &mut note);
        for method in METHODS {
            let Some(Value::Mapping(op)) = item.get_mut(method) else {
                continue;
            };
            let at = format!("paths.{path}.{method}");
            form_data(op, &at, &mut note);
            if !op.contains_key("responses") {
                note(
                    format!("{at}.responses"),
                    "missing (OpenAPI 3.0 requires them, 3.1 does not): read as none documented, so any answer is the contract's",
                );
                op.insert("responses".into(), Value::Mapping(serde_norway::Mapping::new()));
            }
            if let Some(Value::Mapping(responses)) = op.get_mut("responses") {
                integer_statuses(responses, &format!("{at}.responses"), &mut note);
                informational_statuses(responses, &format!("{at}.responses"), &mut note);
                for (status, response) in responses.iter_mut() {
                    let status = key_text(status);
                    response_parts(response, &format!("{at}.responses.{status}"), &mut note);
                }
            }
            if let Some(body) = op.get_mut("requestBody") {
                content_keys(body, &format!("{at}.requestBody"), &mut note);
                body_ranges::any_body_without_content(body, &format!("{at}.requestBody"), &mut note);
                body_ranges::json_under_a_range(body, &component_schemas, &format!("{at}.requestBody"), &mut note);
                body_schemas(body, &format!("{at}.requestBody"), &mut note);
            }
        }
    }
    if let Some(Value::Mapping(responses)) = doc.get_mut("components").and_then(|c| c.get_mut("responses")) {
        for (name, response) in responses.iter_mut() {
            let name = key_text(name);
            response_parts(response, &format!("components.responses.{name}"), &mut note);
        }
    }
    if let Some(Value::Mapping(bodies)) = doc.get_mut("components").and_then(|c| c.get_mut("requestBodies")) {
        for (name, body) in bodies.iter_mut() {
            let name = key_text(name);
            content_keys(body, &format!("components.requestBodies.{name}"), &mut note);
            let at = format!("components.requestBodies.{name}");
            body_ranges::any_body_without_content(body, &at, &mut note);
            body_ranges::json_under_a_range(body, &component_schemas, &at, &mut note);
            body_schemas(body, &format!("components.requestBodies.{name}"), &mut note);
        }
    }
    discriminators::inline_members(doc, &mut note);
    schemas_everywhere(doc, &mut note);
}
