//! What the generator knows of each operation, as static tables the
//! generated code declares and this crate reads at run time.
//!
//! One table serves three purposes, so that they cannot drift apart: the
//! extractors parse and validate requests by it, replies take their media
//! types and deprecation headers from it, and the documentation dropshot
//! emits is built from it (with the limits of dropshot's document, which
//! the agreement test states one by one).

use crate::schema::Schema;

/// One operation of the contract, as the generated layer serves it.
#[derive(Debug)]
pub struct Operation {
    /// The spec's `operationId`.
    pub id: &'static str,
    /// `GET`, `POST`, ...
    pub method: &'static str,
    /// The route, base path included (`/v1/store/orders/{orderId}`).
    pub path: &'static str,
    /// The schemes that may authenticate a caller, any one of them; empty
    /// for a public operation (`security: []`).
    pub security: &'static [Scheme],
    pub parameters: &'static [Parameter],
    pub body: Option<Body>,
    /// The success responses, in the spec's order; dropshot's document
    /// shows the first one.
    pub responses: &'static [SuccessResponse],
    /// The documented error responses (`400`, `5XX`, `default`) whose
    /// body is the Error object: the ones the layer answers its own errors
    /// with, and the ones dropshot's document shows.
    pub errors: &'static [&'static str],
    /// Headers every response of a deprecated operation carries.
    pub deprecation: Option<Deprecation>,
}

/// A security scheme the generated layer checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// `Authorization: Bearer <key>` (HTTP bearer).
    Bearer { name: &'static str },
    /// The key in a request header of its own (`apiKey`, `in: header`).
    ApiKeyHeader { name: &'static str, header: &'static str },
}

impl Scheme {
    /// The name the spec gives the scheme in `components.securitySchemes`.
    pub fn name(&self) -> &'static str {
        match self {
            Scheme::Bearer { name } | Scheme::ApiKeyHeader { name, .. } => name,
        }
    }
}

/// Where a parameter is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    Path,
    Query,
    Header,
}

impl Location {
    /// As the spec writes it (`in: query`).
    pub fn as_str(&self) -> &'static str {
        match self {
            Location::Path => "path",
            Location::Query => "query",
            Location::Header => "header",
        }
    }
}

/// The JSON type a parameter's text is read as, before its schema is
/// checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    String,
    /// `-?[0-9]+`, as a JSON integer.
    Integer,
    /// A finite decimal number.
    Number,
    /// `true` or `false`.
    Boolean,
}

/// A parameter's shape: one value, or a list of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    Scalar(Scalar),
    Array(Scalar),
}

/// One path, query or header parameter.
#[derive(Debug)]
pub struct Parameter {
    pub name: &'static str,
    pub location: Location,
    pub required: bool,
    pub value: ValueKind,
    /// For an array: `true` when each item is its own `name=value` pair
    /// (form style, `explode: true`), `false` when the items are joined by
    /// commas.
    pub explode: bool,
    /// The schema's `default`, as JSON: what the handler gets when the
    /// parameter is absent.
    pub default: Option<&'static str>,
    pub description: Option<&'static str>,
    pub schema: &'static Schema,
}

/// How a request body is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    /// `application/json` (and `application/*+json`).
    Json,
    /// `application/x-www-form-urlencoded`, read into the schema's object.
    Form,
    /// Raw bytes (`application/octet-stream`).
    Binary,
    /// UTF-8 text (`text/plain`).
    Text,
}

/// An operation's request body.
#[derive(Debug)]
pub struct Body {
    /// As the spec writes it.
    pub media_type: &'static str,
    pub kind: BodyKind,
    pub required: bool,
    pub description: Option<&'static str>,
    pub schema: &'static Schema,
    /// For a form: each property's name and how its text is read.
    pub form_fields: &'static [(&'static str, Scalar)],
    /// The name dropshot gives an inline schema in its document.
    pub doc_name: &'static str,
}

/// One documented success status.
#[derive(Debug)]
pub struct SuccessResponse {
    pub status: u16,
    pub description: &'static str,
    pub content: Option<Content>,
    pub headers: &'static [ResponseHeader],
}

/// A response body: its media type and schema.
#[derive(Debug)]
pub struct Content {
    pub media_type: &'static str,
    pub schema: &'static Schema,
    /// The name dropshot gives an inline schema in its document.
    pub doc_name: &'static str,
}

/// A documented response header.
#[derive(Debug)]
pub struct ResponseHeader {
    pub name: &'static str,
    pub description: Option<&'static str>,
    pub required: bool,
    pub schema: &'static Schema,
}

/// `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) values.
#[derive(Debug, Clone, Copy)]
pub struct Deprecation {
    pub deprecation: &'static str,
    pub sunset: Option<&'static str>,
}

/// A generated marker type per operation, through which the extractors
/// and the reply find the operation's table and the spec's Error object.
pub trait Contract: Send + Sync + 'static {
    /// The spec's Error schema, as a type ([`crate::ProblemDetails`] when
    /// the spec has none the layer can fill).
    type Error: serde::Serialize;

    /// The media type the Error object is sent with.
    const ERROR_MEDIA_TYPE: &'static str = "application/json";

    fn operation() -> &'static Operation;

    /// The Error object for `status`, whose `status` field equals it.
    fn error(status: u16, problem: crate::Problem) -> Self::Error;
}
