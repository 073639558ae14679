//! What reading an operation needs (the spec, and the schemas and types
//! gathered so far), and the names every part gives its Rust: fields,
//! type prefixes and status variants. A leaf of `server_gen/`: each part
//! reads and names through it, and it knows no part.

use heck::{ToPascalCase, ToSnakeCase};
use quote::format_ident;

use super::schemas::Schemas;
use super::types::Types;
use crate::codegen::document::Spec;
use crate::codegen::namespace::Namespace;

/// What building the model of an operation needs.
pub(super) struct Context<'a> {
    pub(super) spec: &'a Spec,
    pub(super) types: &'a mut Types,
    pub(super) schemas: &'a mut Schemas,
    /// The `$ref` of the spec's Error object, when it has one the layer
    /// can fill.
    pub(super) error_ref: Option<String>,
    /// The module's item names taken so far.
    pub(super) names: Namespace,
    /// The traits' method names taken so far.
    pub(super) methods: Namespace,
}

/// A Rust identifier for a name from the spec: snake case, never a
/// keyword, never starting with a digit.
pub(super) fn rust_field(name: &str) -> syn::Ident {
    let mut snake = name.to_snake_case();
    if snake.is_empty() || snake.starts_with(|c: char| c.is_ascii_digit()) {
        snake.insert(0, '_');
    }
    // Keywords, and the names the handler's own arguments take.
    if syn::parse_str::<syn::Ident>(&snake).is_err() || ["caller", "params", "body"].contains(&snake.as_str()) {
        snake.push('_');
    }
    format_ident!("{}", snake)
}

/// The prefix of the API's trait names (`{prefix}Api`, `{prefix}Handlers`)
/// from the document's title, which may be any text: PascalCase, ASCII
/// letters and digits only, and never a leading digit (`1Forge Finance
/// APIs` → `Api1forgeFinanceApIs`, as heck splits words).
pub(super) fn type_prefix(title: &str) -> String {
    // Words split where ASCII punctuation or space is; other letters
    // (`ü`) are dropped from their word rather than splitting it.
    let words: Vec<String> = title
        .split(|c: char| c.is_ascii() && !c.is_ascii_alphanumeric())
        .map(|w| w.chars().filter(char::is_ascii_alphanumeric).collect::<String>())
        .filter(|w| !w.is_empty())
        .collect();
    let mut prefix = words.join(" ").to_pascal_case();
    if prefix.starts_with(|c: char| c.is_ascii_digit()) {
        prefix.insert_str(0, "Api");
    }
    prefix
}

/// The variant name of a success range (`2XX`): its class's name (RFC
/// 9110 §15).
pub(super) fn range_variant(first: u16) -> syn::Ident {
    match first {
        100 => format_ident!("Informational"),
        300 => format_ident!("Redirection"),
        _ => format_ident!("Success"),
    }
}

/// The variant name of a status: its reason phrase in PascalCase.
pub(super) fn status_variant(code: u16) -> syn::Ident {
    let name = match code {
        101 => "SwitchingProtocols",
        200 => "Ok",
        201 => "Created",
        202 => "Accepted",
        203 => "NonAuthoritativeInformation",
        204 => "NoContent",
        205 => "ResetContent",
        206 => "PartialContent",
        300 => "MultipleChoices",
        301 => "MovedPermanently",
        302 => "Found",
        303 => "SeeOther",
        304 => "NotModified",
        307 => "TemporaryRedirect",
        308 => "PermanentRedirect",
        400 => "BadRequest",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "NotFound",
        405 => "MethodNotAllowed",
        406 => "NotAcceptable",
        409 => "Conflict",
        410 => "Gone",
        412 => "PreconditionFailed",
        413 => "PayloadTooLarge",
        415 => "UnsupportedMediaType",
        422 => "UnprocessableEntity",
        428 => "PreconditionRequired",
        429 => "TooManyRequests",
        500 => "InternalServerError",
        501 => "NotImplemented",
        502 => "BadGateway",
        503 => "ServiceUnavailable",
        504 => "GatewayTimeout",
        _ => return format_ident!("Status{code}"),
    };
    format_ident!("{name}")
}
