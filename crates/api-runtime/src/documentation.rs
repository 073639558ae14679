//! The operation tables described in dropshot's own terms, so that the
//! document dropshot emits from the generated API shows each operation's
//! parameters, request body and success response as the spec has them.
//!
//! dropshot builds that description from `JsonSchema` types (its schema
//! generator type is not public), so each part is a marker type over the
//! operation whose `JsonSchema` is the spec's schema, handed to dropshot's
//! own extractors and responses to describe. What dropshot's document
//! cannot say (array query parameters, media types other than JSON, a
//! second success status, an optional body) is read from the same tables
//! by the agreement test, which lists each such limit.

use std::marker::PhantomData;

use dropshot::{
    ApiEndpointBodyContentType, ApiEndpointResponse, ExclusiveExtractor, ExtensionMode, ExtractorMetadata,
    HttpResponse, HttpResponseDeleted, HttpResponseHeaders, HttpResponseOk, SharedExtractor, TypedBody,
};
use schemars::JsonSchema;
use schemars::r#gen::SchemaGenerator;
use schemars::schema::{InstanceType, Metadata, ObjectValidation, Schema, SchemaObject, SubschemaValidation};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::contract::{BodyKind, Contract, Location, Operation, Parameter, ValueKind};

/// Whether dropshot can register a parameter of `operation`:
/// `ApiDescription::register` refuses a query parameter whose schema is
/// not a scalar of one type, or that has a path parameter's name (OpenAPI
/// allows it: a parameter is its name and its place), its parameter
/// locations are path, query and header only, and it knows no `content`
/// parameter, so array, object, untyped and JSON query parameters, one
/// named as a path parameter, cookies and JSON parameters are read by the
/// table but left out of dropshot's document.
pub fn is_documentable(operation: &Operation, parameter: &Parameter) -> bool {
    let named_in_path = || {
        operation
            .parameters
            .iter()
            .any(|other| other.location == Location::Path && other.name == parameter.name)
    };
    match (parameter.location, parameter.value) {
        (Location::Cookie, _) | (_, ValueKind::Json) => false,
        // A scalar of no one type: dropshot's document would lose its
        // schema (a path's it must hold).
        (Location::Query | Location::Header, ValueKind::Scalar(crate::contract::Scalar::Any)) => false,
        (Location::Query, ValueKind::Scalar(_)) => !named_in_path(),
        (Location::Query, _) => false,
        (Location::Path | Location::Header, _) => true,
    }
}

/// Whether dropshot's document shows a parameter as a string rather than
/// its schema: a path parameter that is a list or an object (its items,
/// or its properties' names and values, joined by commas) is one
/// segment's text to dropshot's router, whose description takes a path
/// parameter of one scalar type only; so is a header that is an object.
/// The table reads each as the value it is.
pub fn is_documented_as_text(parameter: &Parameter) -> bool {
    matches!(
        (parameter.location, parameter.value),
        (Location::Path, ValueKind::Array(_) | ValueKind::Object { .. }) | (Location::Header, ValueKind::Object { .. })
    )
}

/// The operation's parameters as dropshot's `Path`, `Query` and `Header`
/// extractors describe them.
pub(crate) fn parameters<C: Contract>() -> ExtractorMetadata {
    let mut parameters = Vec::new();
    parameters.extend(
        <dropshot::Path<ParametersDoc<C, PATH>> as SharedExtractor>::metadata(ApiEndpointBodyContentType::Json)
            .parameters,
    );
    parameters.extend(
        <dropshot::Query<ParametersDoc<C, QUERY>> as SharedExtractor>::metadata(ApiEndpointBodyContentType::Json)
            .parameters,
    );
    parameters.extend(
        <dropshot::Header<ParametersDoc<C, HEADER>> as SharedExtractor>::metadata(ApiEndpointBodyContentType::Json)
            .parameters,
    );
    ExtractorMetadata {
        extension_mode: ExtensionMode::None,
        parameters,
    }
}

/// The operation's request body as dropshot's `TypedBody` describes one.
pub(crate) fn body<C: Contract>() -> ExtractorMetadata {
    let Some(body) = &C::operation().body else {
        return ExtractorMetadata {
            extension_mode: ExtensionMode::None,
            parameters: Vec::new(),
        };
    };
    // dropshot's document knows these three; text is written as bytes.
    // (XML is only ever an alternative, which dropshot cannot show.)
    let content_type = match body.kind {
        BodyKind::Json => ApiEndpointBodyContentType::Json,
        BodyKind::Form => ApiEndpointBodyContentType::UrlEncoded,
        BodyKind::Binary | BodyKind::Text | BodyKind::Xml => ApiEndpointBodyContentType::Bytes,
        BodyKind::Multipart => ApiEndpointBodyContentType::MultipartFormData,
    };
    <TypedBody<BodyDoc<C>> as ExclusiveExtractor>::metadata(content_type)
}

/// The operation's first success response, as dropshot's typed responses
/// describe one: status, description, body schema and headers.
pub(crate) fn response<C: Contract>() -> ApiEndpointResponse {
    let Some(first) = C::operation().responses.first() else {
        return ApiEndpointResponse::default();
    };
    let mut metadata = match first.content {
        Some(_) => <HttpResponseHeaders<HttpResponseOk<ResponseBodyDoc<C>>, ResponseHeadersDoc<C>> as HttpResponse>::response_metadata(),
        None => <HttpResponseHeaders<HttpResponseDeleted, ResponseHeadersDoc<C>> as HttpResponse>::response_metadata(),
    };
    metadata.success = http::StatusCode::from_u16(first.status).ok();
    metadata.description = Some(first.description.to_string());
    metadata
}

const PATH: u8 = 0;
const QUERY: u8 = 1;
const HEADER: u8 = 2;

/// An object schema with one property per item, each wrapped as
/// `{description, allOf: [schema]}`: dropshot takes a member's
/// description from there and keeps the schema itself as it is.
fn members<'a>(generator: &mut SchemaGenerator, items: impl Iterator<Item = Member<'a>>) -> Schema {
    let mut object = ObjectValidation::default();
    for member in items {
        let wrapper = SchemaObject {
            metadata: member.description.map(|d| {
                Box::new(Metadata {
                    description: Some(d.to_string()),
                    ..Default::default()
                })
            }),
            subschemas: Some(Box::new(SubschemaValidation {
                all_of: Some(vec![match member.as_text {
                    true => SchemaObject {
                        instance_type: Some(InstanceType::String.into()),
                        ..Default::default()
                    }
                    .into(),
                    false => member.schema.document(generator),
                }]),
                ..Default::default()
            })),
            ..Default::default()
        };
        object.properties.insert(member.name.to_string(), wrapper.into());
        if member.required {
            object.required.insert(member.name.to_string());
        }
    }
    SchemaObject {
        instance_type: Some(InstanceType::Object.into()),
        object: Some(Box::new(object)),
        ..Default::default()
    }
    .into()
}

struct Member<'a> {
    name: &'a str,
    description: Option<&'a str>,
    required: bool,
    schema: &'a crate::schema::Schema,
    /// Shown as a string ([`is_documented_as_text`]).
    as_text: bool,
}

/// The parameters of `C` in one location, as dropshot's extractors expect
/// a parameter struct to describe itself.
struct ParametersDoc<C, const LOCATION: u8>(PhantomData<fn() -> C>);

impl<C: Contract, const LOCATION: u8> JsonSchema for ParametersDoc<C, LOCATION> {
    fn schema_name() -> String {
        format!("{}Parameters", C::operation().id)
    }

    fn is_referenceable() -> bool {
        false
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let location = match LOCATION {
            PATH => Location::Path,
            QUERY => Location::Query,
            _ => Location::Header,
        };
        let parameters = C::operation()
            .parameters
            .iter()
            .filter(|p| p.location == location && is_documentable(C::operation(), p))
            .map(|p| Member {
                name: p.name,
                description: p.description,
                required: p.required,
                schema: p.schema,
                as_text: is_documented_as_text(p),
            });
        members(generator, parameters)
    }
}

/// The request body's schema.
struct BodyDoc<C>(PhantomData<fn() -> C>);

impl<C: Contract> JsonSchema for BodyDoc<C> {
    fn schema_name() -> String {
        C::operation()
            .body
            .as_ref()
            .map(|b| b.doc_name)
            .unwrap_or("Body")
            .to_string()
    }

    fn is_referenceable() -> bool {
        false
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        match &C::operation().body {
            Some(body) => body.schema.document(generator),
            None => Schema::Bool(false),
        }
    }
}

/// The first success response's body schema.
struct ResponseBodyDoc<C>(PhantomData<fn() -> C>);

impl<C: Contract> JsonSchema for ResponseBodyDoc<C> {
    fn schema_name() -> String {
        first_content::<C>()
            .map(|c| c.doc_name)
            .unwrap_or("Response")
            .to_string()
    }

    fn is_referenceable() -> bool {
        false
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        match first_content::<C>() {
            Some(content) => content.schema.document(generator),
            None => Schema::Bool(false),
        }
    }
}

fn first_content<C: Contract>() -> Option<&'static crate::contract::Content> {
    C::operation().responses.first()?.content.as_ref()
}

/// The first success response's documented headers.
struct ResponseHeadersDoc<C>(PhantomData<fn() -> C>);

impl<C: Contract> JsonSchema for ResponseHeadersDoc<C> {
    fn schema_name() -> String {
        format!("{}Headers", C::operation().id)
    }

    fn is_referenceable() -> bool {
        false
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let headers = C::operation()
            .responses
            .first()
            .map(|r| r.headers)
            .unwrap_or_default()
            .iter()
            .map(|h| Member {
                name: h.name,
                description: h.description,
                required: h.required,
                schema: h.schema,
                as_text: false,
            });
        members(generator, headers)
    }
}

/// The marker types exist to be described, never to carry data; dropshot's
/// bounds ask for serde all the same.
macro_rules! documentation_only {
    ($($name:ident $(<const $c:ident: u8>)?),*) => {$(
        impl<'de, C $(, const $c: u8)?> Deserialize<'de> for $name<C $(, $c)?> {
            fn deserialize<D: Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
                Err(serde::de::Error::custom("a documentation type holds no value"))
            }
        }

        impl<C $(, const $c: u8)?> Serialize for $name<C $(, $c)?> {
            fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
                Err(serde::ser::Error::custom("a documentation type holds no value"))
            }
        }
    )*};
}

documentation_only!(ParametersDoc<const L: u8>, BodyDoc, ResponseBodyDoc, ResponseHeadersDoc);
