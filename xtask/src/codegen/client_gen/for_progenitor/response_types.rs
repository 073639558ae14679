//! One success type and one error type per operation, as progenitor
//! gives them.

use openapiv3::{ReferenceOr, StatusCode};

/// progenitor gives an operation one success type, and one error type:
/// when its 2xx statuses have different bodies (a 200 with a body beside
/// a 204, a 200 and a 201 of different schemas), or its 4xx and 5xx do (a
/// 404 with the Error object beside a bodiless 401), the client reads each
/// of them as bytes (`ResponseValue<ByteStream>`, status and headers
/// included), which the caller decodes by the status. The server has a
/// typed variant for each. `with_default`: `default` is of the class
/// (progenitor reads it as an error, and as the success where no 2xx is
/// listed; beside one, `for_progenitor` has made it the 4XX and 5XX).
pub(super) fn as_bytes_when_their_bodies_differ(
    components: &Option<openapiv3::Components>,
    responses: &mut openapiv3::Responses,
    in_class: impl Fn(&StatusCode) -> bool,
    with_default: bool,
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
        .map(|(_, response)| response)
        .chain(default);
    for response in in_class {
        {
            let mut raw = resolve_response(components, response).cloned().unwrap_or_default();
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
