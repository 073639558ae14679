//! One success type and one error type per operation, as progenitor
//! gives them.

use heck::{ToPascalCase, ToUpperCamelCase};
use openapiv3::{ReferenceOr, StatusCode};

use crate::codegen::document::media::{self, MediaKind};

/// The operation's successes, and its errors, each class as bytes where
/// its bodies differ ([`as_bytes_when_their_bodies_differ`]), the names
/// their inline bodies are typed as in its [`TYPED_BODIES`].
pub(super) fn classes_as_bytes_where_bodies_differ(
    components: &Option<openapiv3::Components>,
    operation: &mut openapiv3::Operation,
    hoisted: &mut Hoisted,
) {
    let is_success = |status: &StatusCode| matches!(status, StatusCode::Code(200..=299) | StatusCode::Range(2));
    let is_error = |status: &StatusCode| matches!(status, StatusCode::Code(400..=599) | StatusCode::Range(4 | 5));
    hoisted.operation(operation.operation_id.as_deref().unwrap_or_default());
    let responses = &mut operation.responses;
    as_bytes_when_their_bodies_differ(components, responses, is_success, false, hoisted);
    as_bytes_when_their_bodies_differ(components, responses, is_error, true, hoisted);
    if let Some(named) = hoisted.named() {
        operation.extensions.insert(TYPED_BODIES.to_string(), named);
    }
}

/// progenitor gives an operation one success type, and one error type:
/// when its 2xx statuses have different bodies (a 200 with a body beside
/// a 204, a 200 and a 201 of different schemas), or its 4xx and 5xx do (a
/// 404 with the Error object beside a bodiless 401), the client reads each
/// of them as bytes (`ResponseValue<ByteStream>`, status and headers
/// included), which the caller decodes by the status. The server has a
/// typed variant for each. `with_default`: `default` is of the class
/// (progenitor reads it as an error, and as the success where no 2xx is
/// listed; beside one, `for_progenitor` has made it the 4XX and 5XX).
fn as_bytes_when_their_bodies_differ(
    components: &Option<openapiv3::Components>,
    responses: &mut openapiv3::Responses,
    in_class: impl Fn(&StatusCode) -> bool,
    with_default: bool,
    hoist: &mut Hoisted,
) {
    let shape = |response: &ReferenceOr<openapiv3::Response>| {
        let content = resolve_response(components, response).map(|r| &r.content);
        content
            .into_iter()
            .flatten()
            .map(|(media_type, media)| (media_type.clone(), serde_json::to_value(&media.schema).ok()))
            .collect::<Vec<_>>()
    };
    let default = responses.default.as_ref().filter(|_| with_default);
    let mut shapes = responses
        .responses
        .iter()
        .filter(|(s, _)| in_class(s))
        .map(|(_, r)| r)
        .chain(default)
        .map(shape);
    let first = shapes.next();
    if shapes.all(|other| Some(&other) == first.as_ref()) {
        return;
    }
    let default = responses.default.as_mut().filter(|_| with_default);
    let in_class = responses
        .responses
        .iter_mut()
        .filter(|(status, _)| in_class(status))
        .map(|(status, response)| (status_key(status), response))
        .chain(default.map(|response| ("default".to_string(), response)));
    for (key, response) in in_class {
        {
            let mut raw = resolve_response(components, response).cloned().unwrap_or_default();
            // An inline JSON schema is typed all the same, as a component
            // of the name `typed_responses.rs` looks for.
            let inline = raw.content.iter().find_map(|(media_type, media)| match &media.schema {
                Some(schema @ ReferenceOr::Item(_)) if media::kind(media_type) == MediaKind::Json => Some(schema),
                _ => None,
            });
            if let Some(schema) = inline {
                hoist.body(&key, schema.clone());
            }
            raw.content = [("*/*".to_string(), openapiv3::MediaType::default())]
                .into_iter()
                .collect();
            *response = ReferenceOr::Item(raw);
        }
    }
}

/// A response, or the `components.responses` entry its `$ref` names.
pub(super) fn resolve_response<'a>(
    components: &'a Option<openapiv3::Components>,
    response: &'a ReferenceOr<openapiv3::Response>,
) -> Option<&'a openapiv3::Response> {
    match response {
        ReferenceOr::Item(response) => Some(response),
        ReferenceOr::Reference { reference } => {
            let name = reference.strip_prefix("#/components/responses/")?;
            components.as_ref()?.responses.get(name)?.as_item()
        }
    }
}

/// A status as the document writes it: `404`, `4XX`.
fn status_key(status: &StatusCode) -> String {
    match status {
        StatusCode::Code(code) => code.to_string(),
        StatusCode::Range(range) => format!("{range}XX"),
    }
}

/// The extension that tells `typed_responses.rs` which component each
/// status's inline body was typed as (`{"200": "GetReceipt200Body"}`).
pub(in crate::codegen::client_gen) const TYPED_BODIES: &str = "x-typed-bodies";

/// The inline JSON bodies of responses read as bytes, each typed all the
/// same as a component of a name of its own (`GetReceipt200Body`): the
/// components to add, and each operation's names in its
/// [`TYPED_BODIES`].
pub(super) struct Hoisted {
    /// Taken names, in PascalCase (typify's): the document's components'
    /// and those added.
    taken: std::collections::BTreeSet<String>,
    pub schemas: Vec<(String, ReferenceOr<openapiv3::Schema>)>,
    /// The operation's: its id, and the names by status.
    operation_id: String,
    named: serde_json::Map<String, serde_json::Value>,
}

impl Hoisted {
    pub fn new<'a>(document_components: impl IntoIterator<Item = &'a String>) -> Hoisted {
        Hoisted {
            taken: document_components.into_iter().map(|c| c.to_pascal_case()).collect(),
            schemas: Vec::new(),
            operation_id: String::new(),
            named: serde_json::Map::new(),
        }
    }

    /// Starts an operation's bodies.
    pub fn operation(&mut self, operation_id: &str) {
        self.operation_id = operation_id.to_string();
        self.named.clear();
    }

    /// The operation's names by status, for its [`TYPED_BODIES`].
    pub fn named(&mut self) -> Option<serde_json::Value> {
        (!self.named.is_empty()).then(|| serde_json::Value::Object(std::mem::take(&mut self.named)))
    }

    fn body(&mut self, status_key: &str, schema: ReferenceOr<openapiv3::Schema>) {
        let wanted = format!(
            "{}{}Body",
            self.operation_id.to_upper_camel_case(),
            status_key.to_pascal_case()
        );
        let name = (1..)
            .map(|n| match n {
                1 => wanted.clone(),
                n => format!("{wanted}{n}"),
            })
            .find(|name| !self.taken.contains(&name.to_pascal_case()))
            .expect("some number is free");
        self.taken.insert(name.to_pascal_case());
        self.named
            .insert(status_key.to_string(), serde_json::Value::String(name.clone()));
        self.schemas.push((name, schema));
    }
}
