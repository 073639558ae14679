//! The document handed to progenitor: the spec, changed where progenitor
//! would panic or read it otherwise than the server does. Each change
//! says why; none changes what goes over the wire.

mod one_way;
mod operations;
mod parameter_names;
mod parameters;
mod response_types;

use openapiv3::{OpenAPI, ReferenceOr, StatusCode};

use crate::codegen::document::media::{self, MediaKind, Served, served_response};
use crate::codegen::document::{Spec, pointer_of, served_body};

pub(super) use operations::{MultipartBodies, multipart_media, multipart_operations};
use operations::{multipart_operations_for_progenitor, operations_mut};
pub(super) use parameter_names::wire_names;
pub(super) use parameters::Cookies;
use parameters::{is_ignored_header, parameters_progenitor_takes};
pub(super) use response_types::TYPED_BODIES;
use response_types::resolve_response;

/// The document as progenitor can take it. progenitor reads `default` as
/// a possible success too, and asserts when an operation's successes then
/// have two types; beside a 2xx, `default` is what the server sends for
/// an error, so it is handed over as the `4XX` and `5XX` the operation
/// does not list. Header parameters that OpenAPI says to ignore
/// (`Authorization`, `Accept`, `Content-Type`) are left out, as the server
/// leaves them out. A `101` is marked as dropshot marks its WebSocket
/// upgrades, so that the client sends the handshake. A body or response in
/// several media types is handed over in the one the server's handler
/// value is read or written as. progenitor refuses cookie parameters:
/// `cookies` says what it gets instead.
pub(super) fn for_progenitor(spec: &Spec, cookies: Cookies, multipart: MultipartBodies) -> OpenAPI {
    let mut api = schemas_as_typify_reads(spec);
    parameters_progenitor_takes(&mut api, cookies);
    parameter_names::distinct_parameter_names(&mut api);
    multipart_operations_for_progenitor(&mut api, spec, multipart);
    one_way::unrequire_one_way_properties(&mut api);
    // A JSON response without a schema is any JSON value; progenitor
    // wants the schema written (`{}`).
    if let Some(components) = api.components.as_mut() {
        for response in components.responses.values_mut() {
            if let ReferenceOr::Item(response) = response {
                any_json_schema(response);
                one_media_type(&mut response.content, served_response);
            }
        }
        for body in components.request_bodies.values_mut() {
            if let ReferenceOr::Item(body) = body {
                one_media_type(&mut body.content, |c| served_body(spec, c));
                named_as_progenitor_knows(&mut body.content);
            }
        }
    }
    let components = api.components.clone();
    let mut hoisted = response_types::Hoisted::new(components.iter().flat_map(|c| c.schemas.keys()));
    for item in api.paths.paths.values_mut() {
        let ReferenceOr::Item(item) = item else { continue };
        item.parameters.retain(|p| !is_ignored_header(&components, p));
        for operation in operations_mut(item) {
            operation.parameters.retain(|p| !is_ignored_header(&components, p));
            let inline = operation
                .responses
                .responses
                .values_mut()
                .chain(operation.responses.default.as_mut());
            for response in inline {
                if let ReferenceOr::Item(response) = response {
                    any_json_schema(response);
                    one_media_type(&mut response.content, served_response);
                }
            }
            if let Some(ReferenceOr::Item(body)) = operation.request_body.as_mut() {
                one_media_type(&mut body.content, |c| served_body(spec, c));
                named_as_progenitor_knows(&mut body.content);
            }
            // 204 and 205 have no body, whatever the spec gives them (the
            // server sends none; progenitor would try to read one).
            for status in [204, 205] {
                if let Some(response) = operation.responses.responses.get_mut(&StatusCode::Code(status)) {
                    let mut plain = resolve_response(&components, response).cloned().unwrap_or_default();
                    plain.content.clear();
                    *response = ReferenceOr::Item(plain);
                }
            }
            response_types::classes_as_bytes_where_bodies_differ(&components, operation, &mut hoisted);
            // A success range (`2XX`) reads every status of it, as one type
            // (the bytes, where bodies differ): a status it covers would be
            // an arm after the range's, which never matches.
            let success_ranges: Vec<u16> = operation
                .responses
                .responses
                .keys()
                .filter_map(|status| match status {
                    StatusCode::Range(range @ 2..=3) => Some(*range),
                    _ => None,
                })
                .collect();
            operation.responses.responses.retain(|status, _| match status {
                StatusCode::Code(code) => !success_ranges.contains(&(code / 100)),
                StatusCode::Range(_) => true,
            });
            // A 101 is the WebSocket upgrade the server implements;
            // progenitor sends the handshake for dropshot's marker only.
            // Its client method has one success type: beside the upgrade,
            // another success (docker's attach: 200 where no upgrade was
            // asked for) reaches the caller as an unexpected response,
            // with its status and body (the server serves both).
            if operation.responses.responses.contains_key(&StatusCode::Code(101)) {
                operation
                    .extensions
                    .entry("x-dropshot-websocket".to_string())
                    .or_insert_with(|| serde_json::json!({}));
                operation
                    .responses
                    .responses
                    .retain(|status, _| !matches!(status, StatusCode::Code(200..=299) | StatusCode::Range(2)));
            }
            let responses = &mut operation.responses;
            let has_success = responses
                .responses
                .keys()
                .any(|status| matches!(status, StatusCode::Code(200..=299) | StatusCode::Range(2)));
            if !has_success {
                continue;
            }
            if let Some(default) = responses.default.take() {
                for range in [4, 5] {
                    responses
                        .responses
                        .entry(StatusCode::Range(range))
                        .or_insert_with(|| default.clone());
                }
            }
            // progenitor gives an operation one error type: when its error
            // responses have different bodies, the client reads them all
            // as an unexpected response, whose body the caller can read.
            let is_error = |status: &StatusCode| match status {
                StatusCode::Code(code) => *code >= 400,
                StatusCode::Range(range) => *range >= 4,
            };
            let mut bodies = responses
                .responses
                .iter()
                .filter(|(status, _)| is_error(status))
                .map(|(_, response)| resolve_response(&components, response).map(|r| r.content.clone()));
            let first = bodies.next();
            if bodies.any(|body| Some(&body) != first.as_ref()) {
                for (status, response) in responses.responses.iter_mut() {
                    if is_error(status) {
                        let mut plain = resolve_response(&components, response).cloned().unwrap_or_default();
                        plain.content.clear();
                        *response = ReferenceOr::Item(plain);
                    }
                }
            }
            // The error bodies are one now: a status its range covers
            // would be an arm progenitor writes after the range's, which
            // can never match (`unreachable_patterns`).
            let ranges: Vec<u16> = responses
                .responses
                .keys()
                .filter_map(|status| match status {
                    StatusCode::Range(range) if *range >= 4 => Some(*range),
                    _ => None,
                })
                .collect();
            responses.responses.retain(|status, _| match status {
                StatusCode::Code(code) => !ranges.contains(&(code / 100)),
                StatusCode::Range(_) => true,
            });
        }
    }
    if !hoisted.schemas.is_empty() {
        let schemas = &mut api.components.get_or_insert_with(Default::default).schemas;
        schemas.extend(hoisted.schemas);
    }
    api
}

/// Schemas as typify (progenitor's) should read them, as the server's
/// types are read (`schema::typify_form`):
///
/// - a `format` means something for strings and numbers only; typify
///   stops at one on an object or an array (Twilio's `type: object,
///   format: uri-map`), which JSON Schema would ignore;
/// - a discriminated `oneOf`/`anyOf` has each member narrowed to the
///   discriminator's values (`discriminator::for_typify`), so that the
///   client reads a response's member by the property too;
/// - an inline schema typify would name as a component has a title of
///   its own (`type_names`).
///
/// Only a document that has one of these (found in the spec's JSON,
/// already at hand) goes through JSON (whose maps are sorted), so that
/// every other document reaches progenitor in its own order, and without
/// the round trip.
fn schemas_as_typify_reads(spec: &Spec) -> OpenAPI {
    fn misplaced(map: &serde_json::Map<String, serde_json::Value>) -> bool {
        let ty = map.get("type").and_then(serde_json::Value::as_str);
        matches!(ty, Some("object" | "array" | "boolean")) && map.contains_key("format")
    }
    // An enum of values beyond ASCII: its variants would be named in
    // another script (the server's type does the same, `schema::typify_form`).
    fn beyond_ascii(map: &serde_json::Map<String, serde_json::Value>) -> bool {
        map.get("enum")
            .and_then(serde_json::Value::as_array)
            .is_some_and(|values| values.iter().any(|v| v.as_str().is_some_and(|s| !s.is_ascii())))
    }
    fn discriminated(map: &serde_json::Map<String, serde_json::Value>) -> bool {
        map.get("discriminator")
            .and_then(|d| d.get("propertyName"))
            .is_some_and(serde_json::Value::is_string)
    }
    fn found(value: &serde_json::Value) -> bool {
        match value {
            serde_json::Value::Object(map) => {
                misplaced(map) || discriminated(map) || beyond_ascii(map) || map.values().any(found)
            }
            serde_json::Value::Array(items) => items.iter().any(found),
            _ => false,
        }
    }
    fn rewrite(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Object(map) => {
                if misplaced(map) {
                    map.remove("format");
                }
                if beyond_ascii(map) {
                    map.remove("enum");
                }
                map.values_mut().for_each(rewrite);
                if discriminated(map) {
                    crate::codegen::discriminator::for_typify(map);
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(rewrite),
            _ => {}
        }
    }
    let collide = crate::codegen::type_names::any_collide(spec.component_schemas())
        || crate::codegen::type_names::fields_apart_everywhere(&mut spec.json.clone());
    let renamed = !crate::codegen::type_names::component_renames(spec.component_schemas()).is_empty();
    if !found(&spec.json) && spec.degraded.is_empty() && spec.degraded_inline.is_empty() && !collide && !renamed {
        return spec.api.clone();
    }
    let Ok(mut json) = serde_json::to_value(&spec.api) else {
        return spec.api.clone();
    };
    // What typify cannot map is any JSON value, inline as in components.
    for location in spec.degraded_inline.keys() {
        if let Some(schema) = pointer_of(&spec.json, location).and_then(|p| json.pointer_mut(&p)) {
            *schema = serde_json::json!({});
        }
    }
    rewrite(&mut json);
    crate::codegen::type_names::fields_apart_everywhere(&mut json);
    // What typify cannot map is any JSON value, on the client as on the
    // server.
    if let Some(serde_json::Value::Object(schemas)) = json.pointer_mut("/components/schemas") {
        crate::codegen::type_names::distinct(schemas);
        for name in spec.degraded.keys() {
            if let Some(schema) = schemas.get_mut(name) {
                *schema = serde_json::json!({});
            }
        }
    }
    // Components typify would name alike, under names of their own.
    let renames = json
        .pointer("/components/schemas")
        .and_then(serde_json::Value::as_object)
        .map(crate::codegen::type_names::component_renames)
        .unwrap_or_default();
    if !renames.is_empty() {
        crate::codegen::type_names::rename_references(&mut json, &renames);
        if let Some(serde_json::Value::Object(schemas)) = json.pointer_mut("/components/schemas") {
            *schemas = std::mem::take(schemas)
                .into_iter()
                .map(|(name, schema)| (renames.get(&name).cloned().unwrap_or(name), schema))
                .collect();
        }
    }
    serde_json::from_value(json).unwrap_or_else(|_| spec.api.clone())
}

/// progenitor reads and sends one media type per response and body (a
/// second is its `todo!`): it gets the one the server writes or reads the
/// handler's value as; the server negotiates the others.
fn one_media_type(
    content: &mut openapiv3::Content,
    served: impl for<'a> Fn(&'a serde_json::Map<String, serde_json::Value>) -> Option<Served<'a>>,
) {
    if content.len() < 2 {
        return;
    }
    let Ok(serde_json::Value::Object(listed)) = serde_json::to_value(&*content) else {
        return;
    };
    if let Some(served) = served(&listed) {
        let primary = served.primary.0;
        content.retain(|media_type, _| media_type == primary);
    }
}

/// A body's one media type under the name progenitor knows its kind by
/// (`application/merge-patch+json` as `application/json`); the client's
/// method sends the spec's (`client_gen/media_types.rs`).
fn named_as_progenitor_knows(content: &mut openapiv3::Content) {
    if content.len() != 1 {
        return;
    }
    let renamed = content
        .iter()
        .next()
        .and_then(|(media_type, _)| super::media_types::progenitor_name(media_type));
    if let Some(known) = renamed
        && let Some((_, media)) = content.pop()
    {
        content.insert(known.to_string(), media);
    }
    // Text (XML too) and bytes are sent as given: progenitor types them as
    // a string or bytes only when the schema says no more (the server
    // checks what it says).
    if let Some((media_type, media)) = content.iter_mut().next() {
        let essence = media::essence(media_type);
        // A form's `encoding` passed the checks as the reading the layer
        // does anyway, and another type's means nothing; progenitor has
        // none.
        if essence != "multipart/form-data" {
            media.encoding.clear();
        }
        if ["application/x-www-form-urlencoded", "multipart/form-data"].contains(&essence.as_str()) {
            return;
        }
        let format = match media::kind(media_type) {
            MediaKind::Text => openapiv3::VariantOrUnknownOrEmpty::Empty,
            MediaKind::Binary => openapiv3::VariantOrUnknownOrEmpty::Item(openapiv3::StringFormat::Binary),
            _ => return,
        };
        media.schema = Some(ReferenceOr::Item(openapiv3::Schema {
            schema_data: Default::default(),
            schema_kind: openapiv3::SchemaKind::Type(openapiv3::Type::String(openapiv3::StringType {
                format,
                ..Default::default()
            })),
        }));
    }
}

/// Gives each JSON media type of `response` without a schema the schema
/// of any value.
fn any_json_schema(response: &mut openapiv3::Response) {
    for (media_type, media) in response.content.iter_mut() {
        if media.schema.is_none() && media::kind(media_type) == MediaKind::Json {
            media.schema = Some(ReferenceOr::Item(openapiv3::Schema {
                schema_data: Default::default(),
                schema_kind: openapiv3::SchemaKind::Any(Default::default()),
            }));
        }
    }
}
