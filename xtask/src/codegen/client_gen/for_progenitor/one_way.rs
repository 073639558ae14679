//! readOnly and writeOnly properties in the document progenitor reads.
//! One Rust type serves requests and responses, on the server (typify,
//! through `schema::typify_form`) as in the client: a property required in
//! one direction only is optional in the type, so a caller never has to
//! make up a readOnly value (the server's to give) to build a request.

use openapiv3::{OpenAPI, ReferenceOr, Schema, SchemaKind, Type};

use super::operations::operations_mut;

/// Takes every readOnly or writeOnly property out of its object's
/// `required`, in the components and in every inline schema of the
/// operations.
pub fn unrequire_one_way_properties(api: &mut OpenAPI) {
    if let Some(components) = api.components.as_mut() {
        for schema in components.schemas.values_mut() {
            visit(schema);
        }
        for body in components.request_bodies.values_mut() {
            if let ReferenceOr::Item(body) = body {
                body.content
                    .values_mut()
                    .filter_map(|m| m.schema.as_mut())
                    .for_each(visit);
            }
        }
        for response in components.responses.values_mut() {
            if let ReferenceOr::Item(response) = response {
                response
                    .content
                    .values_mut()
                    .filter_map(|m| m.schema.as_mut())
                    .for_each(visit);
            }
        }
    }
    for item in api.paths.paths.values_mut() {
        let ReferenceOr::Item(item) = item else { continue };
        for operation in operations_mut(item) {
            if let Some(ReferenceOr::Item(body)) = operation.request_body.as_mut() {
                body.content
                    .values_mut()
                    .filter_map(|m| m.schema.as_mut())
                    .for_each(visit);
            }
            let responses = operation
                .responses
                .responses
                .values_mut()
                .chain(operation.responses.default.as_mut());
            for response in responses {
                if let ReferenceOr::Item(response) = response {
                    response
                        .content
                        .values_mut()
                        .filter_map(|m| m.schema.as_mut())
                        .for_each(visit);
                }
            }
        }
    }
}

fn visit(schema: &mut ReferenceOr<Schema>) {
    if let ReferenceOr::Item(schema) = schema {
        visit_schema(schema);
    }
}

fn visit_boxed(schema: &mut ReferenceOr<Box<Schema>>) {
    if let ReferenceOr::Item(schema) = schema {
        visit_schema(schema);
    }
}

fn visit_schema(schema: &mut Schema) {
    match &mut schema.schema_kind {
        SchemaKind::Type(Type::Object(object)) => {
            unrequire(&mut object.required, &object.properties);
            object.properties.values_mut().for_each(visit_boxed);
            if let Some(openapiv3::AdditionalProperties::Schema(extra)) = object.additional_properties.as_mut() {
                visit(extra);
            }
        }
        SchemaKind::Type(Type::Array(array)) => {
            if let Some(items) = array.items.as_mut() {
                visit_boxed(items);
            }
        }
        SchemaKind::AllOf { all_of: parts }
        | SchemaKind::OneOf { one_of: parts }
        | SchemaKind::AnyOf { any_of: parts } => {
            parts.iter_mut().for_each(visit);
        }
        SchemaKind::Not { not } => visit(not),
        SchemaKind::Any(any) => {
            unrequire(&mut any.required, &any.properties);
            any.properties.values_mut().for_each(visit_boxed);
            for parts in [&mut any.all_of, &mut any.one_of, &mut any.any_of] {
                parts.iter_mut().for_each(visit);
            }
        }
        _ => {}
    }
}

/// Takes the readOnly and writeOnly ones of `properties` out of
/// `required`.
fn unrequire<'a>(
    required: &mut Vec<String>,
    properties: impl IntoIterator<Item = (&'a String, &'a ReferenceOr<Box<Schema>>)>,
) {
    let one_way: Vec<&String> = properties
        .into_iter()
        .filter(|(_, p)| matches!(p, ReferenceOr::Item(p) if p.schema_data.read_only || p.schema_data.write_only))
        .map(|(name, _)| name)
        .collect();
    required.retain(|name| !one_way.contains(&name));
}
