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
    /// The ways a caller may be authenticated, any one of them; empty for
    /// a public operation (`security: []`).
    pub security: &'static [Requirement],
    pub parameters: &'static [Parameter],
    pub body: Option<Body>,
    /// The success responses, in the spec's order; dropshot's document
    /// shows the first one.
    pub responses: &'static [SuccessResponse],
    /// The documented error responses (`400`, `5XX`, `default`) whose
    /// body is the Error object: the ones the layer answers its own errors
    /// with, and the ones dropshot's document shows.
    pub errors: &'static [&'static str],
    /// The other documented error responses (another schema, another
    /// media type, or no body), each once: what the handler's error
    /// variants send.
    pub other_errors: &'static [ErrorResponse],
    /// Headers every response of a deprecated operation carries.
    pub deprecation: Option<Deprecation>,
    /// Where the operation's request metrics are kept once resolved, so
    /// that recording a request looks nothing up (`crate::metrics`).
    pub metrics: crate::metrics::series::OperationSeries,
}

/// One way a caller may be authenticated for an operation (one entry of
/// its `security`): every scheme listed, each with the scopes it must
/// grant. An empty one (`{}`) makes authentication optional.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Requirement(pub &'static [Need]);

/// A scheme a [`Requirement`] needs, with the OAuth2 or OpenID Connect
/// scopes it names (none for other schemes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Need {
    pub scheme: Scheme,
    pub scopes: &'static [&'static str],
}

/// A security scheme the generated layer reads a credential by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// `Authorization: Bearer <token>`: HTTP bearer, and the access token
    /// of OAuth2 and OpenID Connect.
    Bearer { name: &'static str },
    /// `Authorization: Basic <user:password in base64>` (HTTP basic).
    Basic { name: &'static str },
    /// The key in a request header of its own (`apiKey`, `in: header`).
    ApiKeyHeader { name: &'static str, header: &'static str },
    /// The key in a query parameter (`apiKey`, `in: query`).
    ApiKeyQuery {
        name: &'static str,
        parameter: &'static str,
    },
    /// The key in a cookie (`apiKey`, `in: cookie`).
    ApiKeyCookie { name: &'static str, cookie: &'static str },
}

impl Scheme {
    /// The name the spec gives the scheme in `components.securitySchemes`.
    pub fn name(&self) -> &'static str {
        match self {
            Scheme::Bearer { name }
            | Scheme::Basic { name }
            | Scheme::ApiKeyHeader { name, .. }
            | Scheme::ApiKeyQuery { name, .. }
            | Scheme::ApiKeyCookie { name, .. } => name,
        }
    }
}

/// Where a parameter is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    Path,
    Query,
    Header,
    /// A cookie of the `Cookie` header (RFC 6265 `name=value` pairs).
    Cookie,
}

impl Location {
    /// As the spec writes it (`in: query`).
    pub fn as_str(&self) -> &'static str {
        match self {
            Location::Path => "path",
            Location::Query => "query",
            Location::Header => "header",
            Location::Cookie => "cookie",
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
    /// A scalar of no one type (a schema without `type`, or a choice of
    /// scalar types): a number or a boolean where the text is one, text
    /// otherwise, and text again where the schema accepts that reading only.
    Any,
}

/// A parameter's shape: one value, a list of them, or an object of
/// scalar properties (a query parameter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    Scalar(Scalar),
    Array(Scalar),
    /// A query list whose items are joined by another delimiter than a
    /// comma: `spaceDelimited` (`' '`) or `pipeDelimited` (`'|'`); with
    /// `explode`, each item its own pair, as a form's.
    Delimited(Scalar, char),
    /// An object in the query: with `deep`, OpenAPI's `deepObject`
    /// (`filter[color]=red`); otherwise `form`, each property its own pair
    /// (`color=red`, `explode: true`) or all in one (`filter=color,red`).
    Object {
        properties: &'static [(&'static str, Scalar)],
        deep: bool,
    },
    /// JSON text (a `content: application/json` parameter, or a value
    /// no style of OpenAPI's writes, such as a list of objects), read as
    /// the value it is.
    Json,
    /// A query value of any structure in the `deepObject` style's bracket
    /// notation (`created[gt]=1`, `expand[]=a`, `created=1`), each text
    /// read by its schema (`crate::brackets`).
    Deep,
}

/// One path, query, header or cookie parameter.
#[derive(Debug)]
pub struct Parameter {
    pub name: &'static str,
    /// The key its value is handed to the handler's struct under: its
    /// name, unless another parameter of the operation has that name in
    /// another place (`nextToken` in the query and in a header).
    pub key: &'static str,
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
    /// `application/xml`, `text/xml` or `application/*+xml`, read into the
    /// schema's value by its `xml` objects (`crate::xml`).
    Xml,
    /// `multipart/form-data`: text parts read as a form's fields, file
    /// parts kept as bytes (`crate::multipart`).
    Multipart,
    /// Raw bytes (`application/octet-stream`).
    Binary,
    /// UTF-8 text (`text/plain`).
    Text,
}

/// How a form field's text is read (`name=value` pairs carry text only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormField {
    /// One value of a scalar type.
    One(Scalar),
    /// A list: each item its own pair (`tag=a&tag=b`). A form cannot
    /// carry an empty list, so a required one that is absent is empty.
    List { items: FormItem, required: bool },
    /// An object: its JSON text under its own name, or its scalar
    /// properties (these) as pairs of their own, as OpenAPI's default for
    /// forms (`style: form, explode: true`) writes it.
    Object(&'static [(&'static str, Scalar)]),
    /// A value of any type: JSON text when it is an object or an array, a
    /// string otherwise.
    Any,
}

/// Which parts of a multipart body are files, kept as bytes rather than
/// read as fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileParts {
    /// The schema's properties of `format: binary` (or lists of them).
    Named(&'static [(&'static str, FileField)]),
    /// Every part: the schema is the whole body as bytes (`type: string,
    /// format: binary`, as dropshot writes its multipart bodies).
    All,
}

/// A file property of a multipart body's schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileField {
    /// A list of files (`type: array, items: {format: binary}`): any
    /// number of parts; otherwise one at most.
    pub list: bool,
    pub required: bool,
}

/// How each item of a form's list is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormItem {
    Scalar(Scalar),
    /// An object or anything else, as [`FormField::Any`].
    Any,
}

/// An operation's request body.
#[derive(Debug)]
pub struct Body {
    /// As the spec writes it: the one the handler's type is read from (a
    /// JSON one when the spec offers several), and the one dropshot's
    /// document shows.
    pub media_type: &'static str,
    pub kind: BodyKind,
    /// The other media types of the body that the layer reads into the
    /// same value (the same schema, as JSON, a form or XML); any other
    /// media type the spec lists is answered 415.
    pub alternatives: &'static [(&'static str, BodyKind)],
    /// The media types that carry values of their own (another schema):
    /// the handler then gets the body as bytes and its media type
    /// (`RequestBody::payload`), checked against the schema of the media
    /// type it is.
    pub others: &'static [(&'static str, BodyKind, &'static Schema)],
    pub required: bool,
    pub description: Option<&'static str>,
    pub schema: &'static Schema,
    /// For a form: each property's name and how its text is read (and for
    /// a multipart body, its text parts').
    pub form_fields: &'static [(&'static str, FormField)],
    /// For a multipart body: which parts are files.
    pub file_parts: FileParts,
    /// The name dropshot gives an inline schema in its document.
    pub doc_name: &'static str,
}

/// One documented success status.
#[derive(Debug)]
pub struct SuccessResponse {
    /// The status, or the first of a range (`2XX`: 200).
    pub status: u16,
    /// The last status of a range (`2XX`: 299), whose status the handler
    /// chooses; `status` itself for one status.
    pub last: u16,
    pub description: &'static str,
    pub content: Option<Content>,
    pub headers: &'static [ResponseHeader],
}

/// A documented error response whose body is not the Error object.
#[derive(Debug)]
pub struct ErrorResponse {
    /// `404`, `4XX` or `default`.
    pub key: &'static str,
    pub description: &'static str,
    /// `None`: no body.
    pub content: Option<Content>,
}

/// A response body: its media type and schema.
#[derive(Debug)]
pub struct Content {
    /// The one the handler's value is sent as when the request's `Accept`
    /// allows it (a JSON one when the spec offers several).
    pub media_type: &'static str,
    /// The other media types of the response that the layer writes from
    /// the same value (JSON ones of the same schema), chosen by the
    /// request's `Accept` (`crate::negotiation`). Any other media type the
    /// spec lists is never sent: a request that accepts only those is
    /// answered 406.
    pub alternatives: &'static [&'static str],
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

/// A body for unit tests to vary (with `..`): required, of `kind` and
/// `media_type`, any value, no alternatives, fields or parts.
#[cfg(test)]
impl Body {
    pub(crate) fn for_tests(kind: BodyKind, media_type: &'static str) -> Body {
        static COMPONENTS: crate::schema::Components = crate::schema::Components::new(&[]);
        static ANY: Schema = Schema::new(&COMPONENTS, "{}", None);
        Body {
            media_type,
            kind,
            alternatives: &[],
            others: &[],
            required: true,
            description: None,
            schema: &ANY,
            form_fields: &[],
            file_parts: FileParts::Named(&[]),
            doc_name: "Body",
        }
    }
}
