//! The client's credentials, generated from the spec's security schemes:
//! a `Credentials` struct with one field per scheme, and the progenitor
//! hook that sends, for each operation, the first of its security
//! requirements the credentials fill (a bearer or OAuth2 token, HTTP basic,
//! API keys in a header, the query or a cookie; several at once when a
//! requirement combines schemes). progenitor itself sends none of them.

use heck::{ToPascalCase, ToSnakeCase};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::Value;

use crate::codegen::document::{Spec, security_of};

/// A scheme as the client sends it.
enum Sending {
    /// `Authorization: Bearer <token>` (HTTP bearer, OAuth2, OpenID Connect).
    Bearer,
    /// `Authorization: Basic <user:password in base64>`.
    Basic,
    Header(String),
    Query(String),
    Cookie(String),
}

struct Scheme {
    /// The name in `components.securitySchemes`.
    name: String,
    field: syn::Ident,
    variant: syn::Ident,
    sending: Sending,
}

fn schemes(spec: &Spec) -> Vec<Scheme> {
    let declared = spec.json["components"]["securitySchemes"].as_object();
    let mut out: Vec<Scheme> = Vec::new();
    for (name, scheme) in declared.into_iter().flatten() {
        let key = scheme["name"].as_str().unwrap_or_default().to_string();
        let sending = match (scheme["type"].as_str(), scheme["in"].as_str()) {
            (Some("apiKey"), Some("query")) => Sending::Query(key),
            (Some("apiKey"), Some("cookie")) => Sending::Cookie(key),
            (Some("apiKey"), _) => Sending::Header(key),
            (Some("http"), _)
                if scheme["scheme"]
                    .as_str()
                    .is_some_and(|s| s.eq_ignore_ascii_case("basic")) =>
            {
                Sending::Basic
            }
            _ => Sending::Bearer,
        };
        // Scheme names that meet in Rust (`api_key`, `apiKey`) are told
        // apart by their order.
        let mut field = identifier(&name.to_snake_case());
        while out.iter().any(|s| s.field == field) {
            field = format!("{field}_2");
        }
        out.push(Scheme {
            name: name.clone(),
            variant: format_ident!("{}", identifier(&field.to_pascal_case())),
            field: format_ident!("{field}"),
            sending,
        });
    }
    out
}

fn identifier(name: &str) -> String {
    let mut name = name.to_string();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, '_');
    }
    if syn::parse_str::<syn::Ident>(&name).is_err() {
        name.push('_');
    }
    name
}

/// progenitor's name for an operation (`OperationInfo::operation_id`): its
/// `operationId` in snake case, as a Rust identifier.
fn progenitor_name(operation_id: &str) -> String {
    let snake = operation_id.to_snake_case();
    match syn::parse_str::<syn::Ident>(&snake) {
        Ok(_) => snake,
        Err(_) => format!("{snake}_"),
    }
}

/// The `Credentials` type and the client's hook. `Client` must be the
/// progenitor client of the same file, built with `Credentials` as its
/// inner type.
pub fn credentials(spec: &Spec) -> TokenStream {
    let schemes = schemes(spec);
    let fields = schemes.iter().map(field);
    let debug_fields = schemes.iter().map(|s| {
        let (field, name) = (&s.field, s.field.to_string());
        quote!(.field(#name, &self.#field.as_ref().map(|_| "<redacted>")))
    });
    let variants = schemes.iter().map(|s| &s.variant);
    let holds = schemes.iter().map(|s| {
        let (variant, field) = (&s.variant, &s.field);
        quote!(SecurityScheme::#variant => self.#field.is_some(),)
    });
    let applies = schemes.iter().map(apply);
    let arms = requirements(spec, &schemes);
    let basic = schemes
        .iter()
        .any(|s| matches!(s.sending, Sending::Basic))
        .then(basic_credentials);
    let schemes_doc = match schemes.is_empty() {
        true => "The spec declares no security scheme: there is nothing to send.".to_string(),
        false => "One field per security scheme the spec declares; `None` is not sent.".to_string(),
    };
    let enum_doc = "A security scheme of the spec.";
    // Without a scheme, nothing is ever added to a request.
    let request = match schemes.is_empty() {
        true => format_ident!("_request"),
        false => format_ident!("request"),
    };
    quote! {
        /// What this client authenticates with.
        #[doc = ""]
        #[doc = #schemes_doc]
        /// Each request carries the credentials of the first of its
        /// operation's security requirements that these fill (nothing for a
        /// public operation, or when none is filled: the server's 401 says
        /// what is missing). Its `Debug` hides every secret.
        #[derive(Clone, Default)]
        pub struct Credentials {
            #(#fields)*
        }

        #basic

        impl ::std::fmt::Debug for Credentials {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.debug_struct("Credentials") #(#debug_fields)* .finish()
            }
        }

        #[doc = #enum_doc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[allow(clippy::enum_variant_names)]
        enum SecurityScheme {
            #(#variants,)*
        }

        impl Credentials {
            /// The security requirements of an operation (progenitor's
            /// name for it), as the spec lists them: any one of them, each
            /// with all its schemes.
            fn requirements(operation: &str) -> &'static [&'static [SecurityScheme]] {
                match operation {
                    #(#arms)*
                    _ => &[],
                }
            }

            fn holds(&self, scheme: SecurityScheme) -> bool {
                match scheme {
                    #(#holds)*
                }
            }

            fn apply(&self, scheme: SecurityScheme, #request: &mut reqwest::Request) -> ::std::result::Result<(), ::std::string::String> {
                match scheme {
                    #(#applies)*
                }
            }

            /// Adds to `request` the credentials of the first requirement
            /// of `operation` (progenitor's name for it) that these fill.
            pub fn authorize(&self, operation: &str, request: &mut reqwest::Request) -> ::std::result::Result<(), ::std::string::String> {
                let filled = Self::requirements(operation)
                    .iter()
                    .find(|requirement| !requirement.is_empty() && requirement.iter().all(|s| self.holds(*s)));
                for scheme in filled.copied().unwrap_or_default() {
                    self.apply(*scheme, request)?;
                }
                Ok(())
            }
        }

        /// Sends each request's credentials (progenitor's
        /// `HooksMode::Expected` asks for this impl), and retries.
        impl progenitor_client::ClientHooks<Credentials> for Client {
            async fn pre<E>(
                &self,
                request: &mut reqwest::Request,
                info: &progenitor_client::OperationInfo,
            ) -> ::std::result::Result<(), progenitor_client::Error<E>> {
                progenitor_client::ClientInfo::inner(self)
                    .authorize(&info.operation_id, request)
                    .map_err(progenitor_client::Error::InvalidRequest)
            }

            /// Sends the request, again after a transient failure as the
            /// client's [`Client::retries`] say, in a tracing span named by
            /// its operation.
            async fn exec(
                &self,
                request: reqwest::Request,
                info: &progenitor_client::OperationInfo,
            ) -> reqwest::Result<reqwest::Response> {
                ::api_client_runtime::retries::execute(
                    progenitor_client::ClientInfo::client(self),
                    &self.retries,
                    request,
                    info.operation_id,
                    operation_route(info.operation_id),
                )
                .await
            }
        }
    }
}

/// A scheme's field of `Credentials`.
fn field(s: &Scheme) -> TokenStream {
    let field = &s.field;
    let (doc, ty) = match &s.sending {
        Sending::Bearer => (
            format!("`{}`: the bearer (access) token.", s.name),
            quote!(::std::string::String),
        ),
        Sending::Basic => (
            format!("`{}`: the user and password (HTTP basic).", s.name),
            quote!(BasicCredentials),
        ),
        Sending::Header(h) => (
            format!("`{}`: the API key, sent in the `{h}` header.", s.name),
            quote!(::std::string::String),
        ),
        Sending::Query(q) => (
            format!("`{}`: the API key, sent as the query parameter `{q}`.", s.name),
            quote!(::std::string::String),
        ),
        Sending::Cookie(c) => (
            format!("`{}`: the API key, sent as the cookie `{c}`.", s.name),
            quote!(::std::string::String),
        ),
    };
    quote!(#[doc = #doc] pub #field: ::std::option::Option<#ty>,)
}

/// A scheme's arm of `Credentials::apply`: its credential put on the
/// request, by `api-client-runtime`.
fn apply(s: &Scheme) -> TokenStream {
    let (variant, field) = (&s.variant, &s.field);
    let send = match &s.sending {
        Sending::Bearer => quote!(::api_client_runtime::credentials::set_header(
            request,
            "authorization",
            &format!("Bearer {value}")
        )),
        Sending::Basic => quote! {{
            use ::base64::Engine;
            let pair = format!("{}:{}", value.user, value.password);
            let encoded = ::base64::engine::general_purpose::STANDARD.encode(pair);
            ::api_client_runtime::credentials::set_header(request, "authorization", &format!("Basic {encoded}"))
        }},
        Sending::Header(header) => quote!(::api_client_runtime::credentials::set_header(request, #header, value)),
        Sending::Query(parameter) => quote! {{
            request.url_mut().query_pairs_mut().append_pair(#parameter, value);
            Ok(())
        }},
        Sending::Cookie(cookie) => quote!(::api_client_runtime::credentials::add_cookie(request, #cookie, value)),
    };
    quote! {
        SecurityScheme::#variant => match &self.#field {
            ::std::option::Option::Some(value) => #send,
            ::std::option::Option::None => Ok(()),
        },
    }
}

/// Each operation's arm of `Credentials::requirements`: its security
/// requirements, each as the schemes it needs.
fn requirements(spec: &Spec, schemes: &[Scheme]) -> Vec<TokenStream> {
    let by_name = |name: &str| schemes.iter().find(|s| s.name == name).map(|s| &s.variant);
    spec.operations()
        .iter()
        .map(|op| {
            let (requirements, _) = security_of(spec, op);
            let requirements = requirements.and_then(Value::as_array).into_iter().flatten().map(|r| {
                let needs = r
                    .as_object()
                    .into_iter()
                    .flat_map(|r| r.keys())
                    .filter_map(|n| by_name(n));
                quote!(&[#(SecurityScheme::#needs),*])
            });
            let name = progenitor_name(op.operation_id());
            quote!(#name => &[#(#requirements),*],)
        })
        .collect()
}

/// `BasicCredentials`, for a document with an HTTP basic scheme.
fn basic_credentials() -> TokenStream {
    quote! {
        /// A user and password for HTTP basic. Its `Debug` hides the password.
        #[derive(Clone)]
        pub struct BasicCredentials {
            pub user: ::std::string::String,
            pub password: ::std::string::String,
        }

        impl ::std::fmt::Debug for BasicCredentials {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.debug_struct("BasicCredentials").field("user", &self.user).field("password", &"<redacted>").finish()
            }
        }
    }
}
