//! Parameters as progenitor takes them: cookies as headers (or left out,
//! for the mocks), and the headers the layer handles on its own left out.

use openapiv3::{OpenAPI, Parameter, ReferenceOr};

use super::operations::operations_mut;

use crate::codegen::document::IGNORED_HEADERS;

/// What progenitor gets for a cookie parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::codegen::client_gen) enum Cookies {
    /// A header parameter of the same name, which the client's code then
    /// sends as a cookie (`client_gen/cookies.rs`).
    AsHeaders,
    /// Nothing: the mocks match a request whatever its cookies.
    Left,
}

/// Cookie parameters as `cookies` says; query objects of the
/// `deepObject` style and lists `spaceDelimited` or `pipeDelimited`,
/// which progenitor refuses, as `form` ones (the
/// client's method is rewritten to send them as the spec says,
/// `client_gen/query_objects.rs`); and `content` parameters, which it
/// refuses too, as parameters of their content's schema (the client's
/// method sends them as JSON text, `client_gen/json_parameters.rs`). A
/// path or header parameter's own schema is not nullable: its value is
/// text, never null (the server reads it so), and progenitor would make
/// it an `Option` it cannot write (`Option<&str>` has no `to_string`).
pub(super) fn parameters_progenitor_takes(api: &mut OpenAPI, cookies: Cookies) {
    let as_taken = |parameter: &mut ReferenceOr<Parameter>| {
        if let ReferenceOr::Item(parameter) = parameter {
            let data = parameter_data_mut(parameter);
            if let openapiv3::ParameterSchemaOrContent::Content(content) = &data.format {
                let schema = content.values().next().and_then(|media| media.schema.clone());
                data.format = openapiv3::ParameterSchemaOrContent::Schema(schema.unwrap_or_else(|| {
                    ReferenceOr::Item(openapiv3::Schema {
                        schema_data: Default::default(),
                        schema_kind: openapiv3::SchemaKind::Any(Default::default()),
                    })
                }));
            }
        }
        if let ReferenceOr::Item(Parameter::Path { parameter_data, .. } | Parameter::Header { parameter_data, .. }) =
            parameter
            && let openapiv3::ParameterSchemaOrContent::Schema(ReferenceOr::Item(schema)) = &mut parameter_data.format
        {
            schema.schema_data.nullable = false;
        }
        match parameter {
            ReferenceOr::Item(Parameter::Cookie { parameter_data, .. }) if cookies == Cookies::AsHeaders => {
                *parameter = ReferenceOr::Item(Parameter::Header {
                    parameter_data: parameter_data.clone(),
                    style: openapiv3::HeaderStyle::Simple,
                });
            }
            // progenitor writes `form` only; the method is rewritten to
            // send the others as the spec says (`client_gen/query_objects.rs`).
            ReferenceOr::Item(Parameter::Query { style, .. })
                if matches!(
                    style,
                    openapiv3::QueryStyle::DeepObject
                        | openapiv3::QueryStyle::SpaceDelimited
                        | openapiv3::QueryStyle::PipeDelimited
                ) =>
            {
                *style = openapiv3::QueryStyle::Form;
            }
            _ => {}
        }
    };
    let components = api.components.clone();
    let is_cookie = |parameter: &ReferenceOr<Parameter>| {
        matches!(
            resolve_parameter(&components, parameter),
            Some(Parameter::Cookie { .. })
        )
    };
    if let Some(components) = api.components.as_mut() {
        components.parameters.values_mut().for_each(as_taken);
    }
    for item in api.paths.paths.values_mut() {
        let ReferenceOr::Item(item) = item else { continue };
        let change = |parameters: &mut Vec<ReferenceOr<Parameter>>| {
            if cookies == Cookies::Left {
                parameters.retain(|p| !is_cookie(p));
            }
            parameters.iter_mut().for_each(as_taken);
        };
        change(&mut item.parameters);
        operations_mut(item).for_each(|op| change(&mut op.parameters));
    }
}

pub(super) fn parameter_data_mut(parameter: &mut Parameter) -> &mut openapiv3::ParameterData {
    match parameter {
        Parameter::Query { parameter_data, .. }
        | Parameter::Header { parameter_data, .. }
        | Parameter::Path { parameter_data, .. }
        | Parameter::Cookie { parameter_data, .. } => parameter_data,
    }
}

/// A parameter, or the `components.parameters` entry its `$ref` names.
pub(super) fn resolve_parameter<'a>(
    components: &'a Option<openapiv3::Components>,
    parameter: &'a ReferenceOr<Parameter>,
) -> Option<&'a Parameter> {
    match parameter {
        ReferenceOr::Item(parameter) => Some(parameter),
        ReferenceOr::Reference { reference } => reference
            .strip_prefix("#/components/parameters/")
            .and_then(|name| components.as_ref()?.parameters.get(name)?.as_item()),
    }
}

/// Whether a parameter, or the `components.parameters` entry its `$ref`
/// names, is a header OpenAPI says to ignore.
pub(super) fn is_ignored_header(
    components: &Option<openapiv3::Components>,
    parameter: &ReferenceOr<Parameter>,
) -> bool {
    matches!(resolve_parameter(components, parameter), Some(Parameter::Header { parameter_data, .. })
        if IGNORED_HEADERS.contains(&parameter_data.name.to_ascii_lowercase().as_str()))
}
