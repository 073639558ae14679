//! The server side of the contract (crates/petstore-api): the spec's types
//! with serde and schemars derives, a `#[dropshot::api_description]` trait,
//! and the strict layer between the two.
//!
//! The strict layer follows oapi-codegen's strict server: the hand-written
//! server implements one plain method per operation that returns a response
//! enum with one variant per documented status, so an undocumented status
//! does not compile. Generated code authenticates the caller before that
//! method runs, and turns every error into the spec's Error object.

use heck::{ToPascalCase, ToSnakeCase};
use openapiv3::{OpenAPI, ReferenceOr, StatusCode};
use proc_macro2::TokenStream;
use progenitor_impl::{GenerationSettings, Generator};
use quote::{format_ident, quote};

use crate::spec::{self, OperationRef, SpecError};

mod not_allowed;

/// Where, under the base path, the server serves the spec it was generated
/// from (an unpublished route; spec.rs keeps spec paths off it).
pub const DOCUMENT_PATH: &str = "/openapi.json";

/// Everything the generator needs to know about one operation.
struct Operation {
    id: String,
    fn_name: syn::Ident,
    method: syn::Ident,
    http_path: String,
    tags: Vec<String>,
    doc: String,
    deprecated: bool,
    /// For a deprecated operation: the headers its success responses carry.
    deprecation: Option<DeprecationHeaders>,
    requires_auth: bool,
    path_params: Vec<PathParam>,
    success: Success,
    /// `(status, variant name, description)` for every error status,
    /// with `5XX` expanded to 500 and 503.
    errors: Vec<(u16, syn::Ident, String)>,
}

/// `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) header values.
struct DeprecationHeaders {
    deprecation: String,
    sunset: Option<String>,
}

struct PathParam {
    name: String,
    field: syn::Ident,
    ty: TokenStream,
    doc: String,
}

struct Success {
    status: u16,
    body: Option<TokenStream>,
    description: String,
    /// The response headers the spec documents.
    headers: Vec<String>,
}

/// `document` is the spec as JSON, served by the server as it was written.
pub fn generate(spec: &OpenAPI, document: &str) -> Result<syn::File, SpecError> {
    let document_path = format!("{}{DOCUMENT_PATH}", spec::base_path(&spec.servers[0].url));
    let types = generate_types(spec)?;
    let error_type = error_type(spec)?;
    let base_path = spec::base_path(&spec.servers[0].url);
    let operations = spec::operations(spec)
        .iter()
        .map(|op| describe(spec, op, &base_path))
        .collect::<Result<Vec<_>, _>>()?;

    let title = spec.info.title.to_pascal_case();
    let api_trait = format_ident!("{title}Api");
    let handlers_trait = format_ident!("{title}Handlers");
    let api_mod = format_ident!("{}_mod", api_trait.to_string().to_snake_case());

    let path_structs = operations.iter().map(path_struct);
    let headers_structs = operations.iter().map(headers_struct);
    let response_enums = operations.iter().map(|op| response_enum(op, &error_type));
    let endpoints = operations.iter().map(|op| endpoint_decl(op, &error_type));
    let handler_methods = operations.iter().map(handler_method);
    let adapters = operations.iter().map(|op| adapter(op, &error_type, &handlers_trait));
    let not_allowed = not_allowed::registrations(&operations, &document_path, &error_type);

    let api_doc = format!(
        "The `{}` API as dropshot sees it: one endpoint per operation, under `{base_path}`.\n\n\
         Implemented by [`StrictServer`]; a server implements [`{handlers_trait}`] instead.",
        spec.info.title
    );
    let handlers_doc = format!(
        "What a `{}` server implements: one method per operation, with typed inputs and a typed response.\n\n\
         The caller is authenticated (by [`runtime::Authenticator`]) before any method runs.",
        spec.info.title
    );
    let version = &spec.info.version;

    let tokens = quote! {
        use crate::runtime;

        /// Types from the spec's `components.schemas`.
        #[allow(clippy::all)]
        pub mod types {
            #types
        }

        /// The path the spec's `servers` share; every endpoint is served under it.
        pub const BASE_PATH: &str = #base_path;

        /// The spec's `info.version`.
        pub const API_VERSION: &str = #version;

        /// The OpenAPI document this code was generated from, as JSON. The
        /// server serves it (unauthenticated, outside the contract) at
        /// `#document_path`.
        pub const OPENAPI_DOCUMENT: &str = #document;

        impl ::std::fmt::Display for types::#error_type {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, "{} {}: {}", self.status, self.code, self.message)
            }
        }

        impl ::dropshot::HttpResponseError for types::#error_type {
            fn status_code(&self) -> ::dropshot::ErrorStatusCode {
                u16::try_from(self.status)
                    .ok()
                    .and_then(|s| ::dropshot::ErrorStatusCode::from_u16(s).ok())
                    .unwrap_or(::dropshot::ErrorStatusCode::INTERNAL_SERVER_ERROR)
            }
        }

        /// dropshot's own errors (a path parameter it cannot read, a body it
        /// cannot parse) also leave as the spec's error object.
        impl ::std::convert::From<::dropshot::HttpError> for types::#error_type {
            fn from(error: ::dropshot::HttpError) -> Self {
                let status = error.status_code.as_u16();
                Self::from_problem(status, runtime::Problem::from(error))
            }
        }

        impl types::#error_type {
            /// The error object for `status`: `status` in the body always
            /// equals the HTTP status.
            pub fn from_problem(status: u16, problem: runtime::Problem) -> Self {
                Self {
                    code: problem.code,
                    message: problem.message,
                    status: status.into(),
                }
            }
        }

        #(#path_structs)*

        #(#headers_structs)*

        #(#response_enums)*

        #[doc = #api_doc]
        #[::dropshot::api_description]
        pub trait #api_trait {
            type Context: #handlers_trait;

            #(#endpoints)*

            /// The OpenAPI document this API was generated from. Not part of
            /// the contract: unpublished, and open without a key.
            #[endpoint { method = GET, path = #document_path, unpublished = true }]
            async fn openapi_document(
                rqctx: ::dropshot::RequestContext<Self::Context>,
            ) -> ::std::result::Result<::dropshot::HttpResponseOk<::serde_json::Value>, types::#error_type>;
        }

        #[doc = #handlers_doc]
        pub trait #handlers_trait: runtime::Authenticator {
            #(#handler_methods)*
        }

        /// Serves the dropshot API with a [`#handlers_trait`] implementation:
        /// authentication, parameter checks and response mapping live here,
        /// so an implementation cannot skip them.
        pub struct StrictServer<H>(::std::marker::PhantomData<H>);

        impl<H: #handlers_trait> #api_trait for StrictServer<H> {
            type Context = H;

            #(#adapters)*

            async fn openapi_document(
                _rqctx: ::dropshot::RequestContext<Self::Context>,
            ) -> ::std::result::Result<::dropshot::HttpResponseOk<::serde_json::Value>, types::#error_type> {
                static DOCUMENT: ::std::sync::LazyLock<::serde_json::Value> = ::std::sync::LazyLock::new(|| {
                    ::serde_json::from_str(OPENAPI_DOCUMENT).expect("the generator wrote valid JSON")
                });
                ::std::result::Result::Ok(::dropshot::HttpResponseOk(DOCUMENT.clone()))
            }
        }

        /// The dropshot API description of a server built on `H`, with a
        /// hidden endpoint answering 405 (the Error object and `Allow`) for
        /// each method a path does not document.
        pub fn api_description<H: #handlers_trait>(
        ) -> ::std::result::Result<::dropshot::ApiDescription<H>, runtime::ApiDescriptionError> {
            let mut api = #api_mod::api_description::<StrictServer<H>>()?;
            #not_allowed
            ::std::result::Result::Ok(api)
        }

        /// The API description without an implementation, for generating
        /// the OpenAPI document dropshot sees.
        pub fn stub_api_description(
        ) -> ::std::result::Result<::dropshot::ApiDescription<::dropshot::StubContext>, ::dropshot::ApiDescriptionBuildErrors> {
            #api_mod::stub_api_description()
        }
    };
    syn::parse2(tokens).map_err(|e| SpecError {
        location: "document".into(),
        message: format!("the server generator emitted invalid Rust: {e}"),
    })
}

/// The same typify types the client gets, plus `schemars::JsonSchema`, which
/// dropshot needs to describe them.
fn generate_types(spec: &OpenAPI) -> Result<TokenStream, SpecError> {
    let mut settings = GenerationSettings::new();
    settings.with_derive("::schemars::JsonSchema");
    let mut generator = Generator::new(&settings);
    generator.generate_tokens(spec).map_err(|e| SpecError {
        location: "components.schemas".into(),
        message: format!("typify: {e}"),
    })?;
    Ok(generator.get_type_space().to_stream())
}

/// The one schema every error response shares (checked by spec.rs); the
/// generated layer fills its `code`, `message` and `status`.
fn error_type(spec: &OpenAPI) -> Result<syn::Ident, SpecError> {
    let first_error = spec::operations(spec).into_iter().find_map(|op| {
        op.operation
            .responses
            .responses
            .iter()
            .find(|(status, _)| spec::is_error_status(status))
            .and_then(|(_, r)| spec::resolve_response(spec, r))
            .and_then(spec::json_schema)
            .cloned()
    });
    let Some(schema) = first_error else {
        return Err(SpecError {
            location: "paths".into(),
            message: "no operation documents an error response: the server needs the Error schema".into(),
        });
    };
    let ReferenceOr::Reference { reference } = schema else {
        return Err(SpecError {
            location: "paths".into(),
            message: "the error responses' schema must be a $ref to components.schemas".into(),
        });
    };
    let name = reference.trim_start_matches("#/components/schemas/");
    let location = format!("components.schemas.{name}");
    let object = spec
        .components
        .as_ref()
        .and_then(|c| c.schemas.get(name))
        .and_then(|s| s.as_item())
        .ok_or_else(|| SpecError {
            location: location.clone(),
            message: "not found".into(),
        })?;
    let openapiv3::SchemaKind::Type(openapiv3::Type::Object(object)) = &object.schema_kind else {
        return Err(SpecError {
            location,
            message: "the error schema must be an object".into(),
        });
    };
    for (field, want) in [("code", "string"), ("message", "string"), ("status", "integer")] {
        let ty = object
            .properties
            .get(field)
            .and_then(|p| p.as_item())
            .map(|p| serde_json::to_value(p).ok().and_then(|v| v.get("type").cloned()));
        if ty != Some(Some(serde_json::Value::from(want))) || !object.required.iter().any(|r| r == field) {
            return Err(SpecError {
                location: format!("{location}.properties.{field}"),
                message: format!("the error schema needs a required `{field}` of type {want}"),
            });
        }
    }
    Ok(format_ident!("{}", name.to_pascal_case()))
}

fn describe(spec: &OpenAPI, op: &OperationRef<'_>, base_path: &str) -> Result<Operation, SpecError> {
    let operation = op.operation;
    let id = op.operation_id().to_string();
    let location = op.location();
    let requires_auth = spec::requires_auth(spec, operation);

    let mut path_params = Vec::new();
    for (i, param) in operation.parameters.iter().enumerate() {
        let Some(openapiv3::Parameter::Path { parameter_data, .. }) = spec::resolve_parameter(spec, param) else {
            continue;
        };
        let location = format!("{location}.parameters.{i}");
        let openapiv3::ParameterSchemaOrContent::Schema(schema) = &parameter_data.format else {
            return Err(SpecError {
                location,
                message: "a path parameter needs a schema".into(),
            });
        };
        let ty = scalar_type(schema.as_item()).ok_or_else(|| SpecError {
            location: format!("{location}.schema"),
            message: "a path parameter must be an inline integer or string schema".into(),
        })?;
        path_params.push(PathParam {
            name: parameter_data.name.clone(),
            field: format_ident!("{}", parameter_data.name.to_snake_case()),
            ty,
            doc: parameter_data.description.clone().unwrap_or_default(),
        });
    }

    let mut success = None;
    let mut errors = Vec::new();
    for (status, response) in &operation.responses.responses {
        let key = spec::status_key(status);
        let response = spec::resolve_response(spec, response).expect("checked by spec::parse");
        let description = response.description.trim().to_string();
        match status {
            StatusCode::Code(code) if *code < 400 => {
                let body = spec::json_schema(response)
                    .map(|schema| {
                        body_type(schema).ok_or_else(|| SpecError {
                            location: format!("{location}.responses.{key}"),
                            message: "a success body must be a $ref to components.schemas, or an array of one".into(),
                        })
                    })
                    .transpose()?;
                let headers = response.headers.keys().cloned().collect();
                success = Some(Success {
                    status: *code,
                    body,
                    description,
                    headers,
                });
            }
            StatusCode::Code(code) => errors.push((*code, status_variant(*code), description)),
            StatusCode::Range(_) => {
                for code in [500, 503] {
                    errors.push((code, status_variant(code), description.clone()));
                }
            }
        }
    }
    let success = success.expect("checked by spec::parse");
    match (success.status, &success.body) {
        (204, Some(_)) => {
            return Err(SpecError {
                location: format!("{location}.responses.204"),
                message: "a 204 response has no body".into(),
            });
        }
        (200..=202, None) => {
            return Err(SpecError {
                location: format!("{location}.responses.{}", success.status),
                message: "this success status needs an application/json body".into(),
            });
        }
        _ => {}
    }

    // What the generated layer itself sends must be documented too.
    let documents = |code: u16| errors.iter().any(|(c, _, _)| *c == code);
    if requires_auth && !documents(401) {
        return Err(SpecError {
            location: format!("{location}.responses"),
            message: "a secured operation must document 401 (sent for a missing or invalid key)".into(),
        });
    }
    if requires_auth && !documents(500) {
        return Err(SpecError {
            location: format!("{location}.responses"),
            message: "a secured operation must document 5XX (sent when keys cannot be checked)".into(),
        });
    }
    if !path_params.is_empty() && !documents(400) {
        return Err(SpecError {
            location: format!("{location}.responses"),
            message: "an operation with path parameters must document 400 (sent for a malformed parameter)".into(),
        });
    }

    let deprecation = if operation.deprecated {
        Some(deprecation_headers(op, &success)?)
    } else {
        None
    };

    let doc = match (&operation.summary, &operation.description) {
        (Some(s), Some(d)) => format!("{}\n\n{}", s.trim(), d.trim()),
        (Some(s), None) => s.trim().to_string(),
        (None, Some(d)) => d.trim().to_string(),
        (None, None) => id.clone(),
    };
    Ok(Operation {
        fn_name: format_ident!("{}", id.to_snake_case()),
        method: format_ident!("{}", op.method.to_uppercase()),
        http_path: format!("{base_path}{}", op.path),
        tags: operation.tags.clone(),
        doc,
        deprecated: operation.deprecated,
        deprecation,
        requires_auth,
        path_params,
        success,
        errors,
        id,
    })
}

/// A deprecated operation's success responses carry `Deprecation: @<unix
/// time>` of its `x-deprecation-date` and, when `x-sunset` is set, `Sunset:
/// <HTTP-date>`; the spec must document both on the success response.
fn deprecation_headers(op: &OperationRef<'_>, success: &Success) -> Result<DeprecationHeaders, SpecError> {
    let location = op.location();
    let date = |key: &str| -> Result<Option<chrono::NaiveDate>, SpecError> {
        let Some(value) = op.operation.extensions.get(key) else {
            return Ok(None);
        };
        let text = value.as_str().unwrap_or_default();
        chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d")
            .map(Some)
            .map_err(|_| SpecError {
                location: format!("{location}.{key}"),
                message: format!("`{value}` is not a date (YYYY-MM-DD)"),
            })
    };
    let deprecated_on = date("x-deprecation-date")?.ok_or_else(|| SpecError {
        location: location.clone(),
        message: "a deprecated operation needs `x-deprecation-date` (YYYY-MM-DD): the Deprecation header carries it"
            .into(),
    })?;
    let sunset = date("x-sunset")?;
    if sunset.is_some_and(|s| s < deprecated_on) {
        return Err(SpecError {
            location: format!("{location}.x-sunset"),
            message: "comes before x-deprecation-date".into(),
        });
    }
    let midnight = |d: chrono::NaiveDate| d.and_hms_opt(0, 0, 0).expect("midnight exists").and_utc();
    for (header, needed) in [("Deprecation", true), ("Sunset", sunset.is_some())] {
        if needed && !success.headers.iter().any(|h| h.eq_ignore_ascii_case(header)) {
            return Err(SpecError {
                location: format!("{location}.responses.{}.headers", success.status),
                message: format!("the server sends a `{header}` header on this deprecated operation: document it"),
            });
        }
    }
    Ok(DeprecationHeaders {
        deprecation: format!("@{}", midnight(deprecated_on).timestamp()),
        sunset: sunset.map(|d| midnight(d).format("%a, %d %b %Y %H:%M:%S GMT").to_string()),
    })
}

fn scalar_type(schema: Option<&openapiv3::Schema>) -> Option<TokenStream> {
    use openapiv3::{IntegerFormat, SchemaKind, Type, VariantOrUnknownOrEmpty};
    match &schema?.schema_kind {
        SchemaKind::Type(Type::Integer(i)) => Some(match i.format {
            VariantOrUnknownOrEmpty::Item(IntegerFormat::Int32) => quote!(i32),
            _ => quote!(i64),
        }),
        SchemaKind::Type(Type::String(_)) => Some(quote!(::std::string::String)),
        _ => None,
    }
}

fn body_type(schema: &ReferenceOr<openapiv3::Schema>) -> Option<TokenStream> {
    let named = |reference: &str| {
        let name = format_ident!("{}", reference.strip_prefix("#/components/schemas/")?.to_pascal_case());
        Some(quote!(types::#name))
    };
    match schema {
        ReferenceOr::Reference { reference } => named(reference),
        ReferenceOr::Item(item) => match &item.schema_kind {
            openapiv3::SchemaKind::Type(openapiv3::Type::Array(array)) => match array.items.as_ref()? {
                ReferenceOr::Reference { reference } => {
                    let inner = named(reference)?;
                    Some(quote!(::std::vec::Vec<#inner>))
                }
                ReferenceOr::Item(_) => None,
            },
            _ => None,
        },
    }
}

/// The variant name of a status: its reason phrase in PascalCase.
fn status_variant(code: u16) -> syn::Ident {
    let name = match code {
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

fn path_struct_name(op: &Operation) -> syn::Ident {
    format_ident!("{}Path", op.id.to_pascal_case())
}

fn response_enum_name(op: &Operation) -> syn::Ident {
    format_ident!("{}Response", op.id.to_pascal_case())
}

fn path_struct(op: &Operation) -> TokenStream {
    if op.path_params.is_empty() {
        return quote!();
    }
    let name = path_struct_name(op);
    let doc = format!("The path parameters of `{}`.", op.id);
    let fields = op.path_params.iter().map(|p| {
        let (field, rename, ty, doc) = (&p.field, &p.name, &p.ty, &p.doc);
        // `PathParam` defers parsing, so that a malformed value is reported
        // after authentication (401 before 400) and as the Error object.
        quote! {
            #[doc = #doc]
            #[serde(rename = #rename)]
            pub #field: runtime::PathParam<#ty>,
        }
    });
    quote! {
        #[doc = #doc]
        #[derive(Debug, ::serde::Deserialize, ::schemars::JsonSchema)]
        pub struct #name {
            #(#fields)*
        }
    }
}

fn success_variant(op: &Operation) -> (syn::Ident, TokenStream) {
    let name = match op.success.status {
        200 => format_ident!("Ok"),
        201 => format_ident!("Created"),
        202 => format_ident!("Accepted"),
        _ => format_ident!("NoContent"),
    };
    let ty = match &op.success.body {
        // A body the handler may hand over serialized already (a cached
        // list, say); `From<T>` makes a plain value one too.
        Some(body) => quote!((runtime::Json<#body>)),
        None => quote!(),
    };
    (name, ty)
}

fn response_enum(op: &Operation, error_type: &syn::Ident) -> TokenStream {
    let name = response_enum_name(op);
    let doc = format!("The responses `{}` documents: one variant per status.", op.id);
    let (success, success_ty) = success_variant(op);
    let success_doc = format!("{}: {}", op.success.status, op.success.description);
    let errors = op.errors.iter().map(|(code, variant, description)| {
        let doc = format!("{code}: {description}");
        quote! {
            #[doc = #doc]
            #variant(runtime::Problem),
        }
    });
    let error_arms = op.errors.iter().map(|(code, variant, _)| {
        quote!(#name::#variant(problem) => runtime::Reply::error(#code, &types::#error_type::from_problem(#code, problem)),)
    });
    let (dropshot_ty, success_arm) = success_mapping(op, &name, &success);
    quote! {
        #[doc = #doc]
        #[derive(Debug)]
        pub enum #name {
            #[doc = #success_doc]
            #success #success_ty,
            #(#errors)*
        }

        impl #name {
            /// The HTTP response this value stands for: the success response,
            /// or the Error object with this variant's status.
            pub fn into_http(self) -> runtime::Reply<#dropshot_ty> {
                match self {
                    #success_arm
                    #(#error_arms)*
                }
            }
        }
    }
}

/// The dropshot response type of the success status, and the match arm
/// that builds its reply.
fn success_mapping(op: &Operation, enum_name: &syn::Ident, variant: &syn::Ident) -> (TokenStream, TokenStream) {
    let (ty, pattern, value) = plain_success_mapping(op, enum_name, variant);
    if op.deprecation.is_none() {
        return (ty, quote!(#pattern => runtime::Reply::success(#value),));
    }
    // The generated layer adds the deprecation headers, so no handler can
    // forget them; documented on the success response, sent on every one.
    let headers = headers_struct_name(op);
    if op.success.body.is_some() {
        let typed = typed_success(op);
        return (
            quote!(runtime::JsonResponse<#typed, #headers>),
            quote!(#enum_name::#variant(body) => runtime::Reply::success(runtime::JsonResponse::with_headers(body, #headers::new())),),
        );
    }
    (
        quote!(::dropshot::HttpResponseHeaders<#ty, #headers>),
        quote!(#pattern => runtime::Reply::success(::dropshot::HttpResponseHeaders::new(#value, #headers::new())),),
    )
}

fn headers_struct_name(op: &Operation) -> syn::Ident {
    format_ident!("{}Headers", op.id.to_pascal_case())
}

/// The deprecation headers of a deprecated operation, as dropshot sends
/// and documents them.
fn headers_struct(op: &Operation) -> TokenStream {
    let Some(deprecation) = &op.deprecation else {
        return quote!();
    };
    let name = headers_struct_name(op);
    let doc = format!(
        "The headers every success response of the deprecated `{}` carries.",
        op.id
    );
    let value = &deprecation.deprecation;
    let (sunset_field, sunset_value) = match &deprecation.sunset {
        Some(sunset) => (
            quote! {
                /// When the operation goes away (RFC 8594).
                #[serde(rename = "Sunset")]
                pub sunset: ::std::string::String,
            },
            quote!(sunset: #sunset.to_string(),),
        ),
        None => (quote!(), quote!()),
    };
    quote! {
        #[doc = #doc]
        #[derive(Debug, ::serde::Serialize, ::schemars::JsonSchema)]
        pub struct #name {
            /// Since when the operation is deprecated (RFC 9745).
            #[serde(rename = "Deprecation")]
            pub deprecation: ::std::string::String,
            #sunset_field
        }

        impl #name {
            /// The values the spec gives.
            pub fn new() -> Self {
                Self { deprecation: #value.to_string(), #sunset_value }
            }
        }

        impl ::std::default::Default for #name {
            fn default() -> Self {
                Self::new()
            }
        }
    }
}

/// dropshot's typed response for a success status with a body: what
/// [`runtime::JsonResponse`] takes its status and description from.
fn typed_success(op: &Operation) -> TokenStream {
    let body = op.success.body.as_ref();
    match op.success.status {
        201 => quote!(::dropshot::HttpResponseCreated<#body>),
        202 => quote!(::dropshot::HttpResponseAccepted<#body>),
        _ => quote!(::dropshot::HttpResponseOk<#body>),
    }
}

/// The dropshot response type of the success status, the pattern of its
/// variant, and the expression of its response.
fn plain_success_mapping(
    op: &Operation,
    enum_name: &syn::Ident,
    variant: &syn::Ident,
) -> (TokenStream, TokenStream, TokenStream) {
    match op.success.status {
        200..=202 => {
            let typed = typed_success(op);
            (
                quote!(runtime::JsonResponse<#typed>),
                quote!(#enum_name::#variant(body)),
                quote!(runtime::JsonResponse::new(body)),
            )
        }
        _ if op.method == "DELETE" => (
            quote!(::dropshot::HttpResponseDeleted),
            quote!(#enum_name::#variant),
            quote!(::dropshot::HttpResponseDeleted()),
        ),
        _ => (
            quote!(::dropshot::HttpResponseUpdatedNoContent),
            quote!(#enum_name::#variant),
            quote!(::dropshot::HttpResponseUpdatedNoContent()),
        ),
    }
}

fn dropshot_return(op: &Operation, error_type: &syn::Ident) -> TokenStream {
    let (success, _) = success_variant(op);
    let (ty, _) = success_mapping(op, &response_enum_name(op), &success);
    quote!(::std::result::Result<runtime::Reply<#ty>, types::#error_type>)
}

fn dropshot_params(op: &Operation) -> TokenStream {
    if op.path_params.is_empty() {
        return quote!();
    }
    let name = path_struct_name(op);
    quote!(, path: ::dropshot::Path<#name>)
}

fn endpoint_decl(op: &Operation, error_type: &syn::Ident) -> TokenStream {
    let (method, path, id, fn_name, doc) = (&op.method, &op.http_path, &op.id, &op.fn_name, &op.doc);
    let tags = &op.tags;
    let deprecated = op.deprecated.then(|| quote!(deprecated = true,));
    let params = dropshot_params(op);
    let ret = dropshot_return(op, error_type);
    quote! {
        #[doc = #doc]
        #[endpoint {
            method = #method,
            path = #path,
            operation_id = #id,
            tags = [#(#tags),*],
            #deprecated
        }]
        async fn #fn_name(
            rqctx: ::dropshot::RequestContext<Self::Context>
            #params
        ) -> #ret;
    }
}

fn handler_method(op: &Operation) -> TokenStream {
    let (fn_name, doc) = (&op.fn_name, &op.doc);
    let response = response_enum_name(op);
    let caller = op.requires_auth.then(|| quote!(caller: &Self::Principal,));
    let params = op.path_params.iter().map(|p| {
        let (field, ty) = (&p.field, &p.ty);
        quote!(#field: #ty,)
    });
    let deprecated_note = op
        .deprecated
        .then(|| quote!(#[doc = ""] #[doc = "Deprecated in the spec."]));
    quote! {
        #[doc = #doc]
        #deprecated_note
        fn #fn_name(
            &self,
            #caller
            #(#params)*
        ) -> impl ::std::future::Future<Output = #response> + Send;
    }
}

fn adapter(op: &Operation, error_type: &syn::Ident, handlers_trait: &syn::Ident) -> TokenStream {
    let fn_name = &op.fn_name;
    let params = dropshot_params(op);
    let ret = dropshot_return(op, error_type);
    let authenticate = op.requires_auth.then(|| {
        quote! {
            let caller = match runtime::authenticate(handlers, rqctx.request.headers()).await {
                ::std::result::Result::Ok(caller) => caller,
                ::std::result::Result::Err(rejection) => {
                    return rejection.into_reply(types::#error_type::from_problem);
                }
            };
        }
    });
    let caller = op.requires_auth.then(|| quote!(&caller,));
    let parse = (!op.path_params.is_empty()).then(|| {
        let fields = op.path_params.iter().map(|p| {
            let (field, name) = (&p.field, &p.name);
            quote! {
                let #field = match path.#field.into_value(#name) {
                    ::std::result::Result::Ok(value) => value,
                    ::std::result::Result::Err(problem) => {
                        return runtime::Reply::error(400, &types::#error_type::from_problem(400, problem));
                    }
                };
            }
        });
        quote! {
            let path = path.into_inner();
            #(#fields)*
        }
    });
    let args = op.path_params.iter().map(|p| &p.field);
    // Every response of a deprecated operation carries its deprecation
    // headers, errors included.
    let headers = op.deprecation.as_ref().map(|_| {
        let headers = headers_struct_name(op);
        quote!(.with_headers(&#headers::new()))
    });
    quote! {
        async fn #fn_name(
            rqctx: ::dropshot::RequestContext<Self::Context>
            #params
        ) -> #ret {
            let handlers = rqctx.context();
            let reply = async {
                #authenticate
                #parse
                #[allow(deprecated)]
                let response = <H as #handlers_trait>::#fn_name(handlers, #caller #(#args),*).await;
                response.into_http()
            }
            .await;
            ::std::result::Result::Ok(reply #headers)
        }
    }
}
