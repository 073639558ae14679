//! The spec's Error object as dropshot's error type: how it prints, its
//! status, dropshot's own errors (a request it cannot route or read) in
//! its shape, and its schema in dropshot's description (the spec's).
//! Problem details (no Error object) bring their own impls from the
//! runtime.

use proc_macro2::TokenStream;
use quote::quote;

use super::types::ErrorObject;

/// The impls of the spec's Error object, when the spec names one.
pub(super) fn error_impls(error: &ErrorObject) -> Option<TokenStream> {
    let error_type = &error.path;
    error.component.as_ref().map(|error_name| {
        quote! {
        impl ::std::fmt::Display for #error_type {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, "{} {}: {}", self.status, self.code, self.message)
            }
        }

        impl ::dropshot::HttpResponseError for #error_type {
            fn status_code(&self) -> ::dropshot::ErrorStatusCode {
                u16::try_from(self.status)
                    .ok()
                    .and_then(|s| ::dropshot::ErrorStatusCode::from_u16(s).ok())
                    .unwrap_or(::dropshot::ErrorStatusCode::INTERNAL_SERVER_ERROR)
            }
        }

        /// dropshot's own errors (a request it cannot route or read) also
        /// leave as the spec's error object.
        impl ::std::convert::From<::dropshot::HttpError> for #error_type {
            fn from(error: ::dropshot::HttpError) -> Self {
                let status = error.status_code.as_u16();
                Self::from_problem(status, runtime::Problem::from(error))
            }
        }

        impl #error_type {
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

        /// dropshot documents error responses by this type's schema: the
        /// spec's.
        impl ::schemars::JsonSchema for #error_type {
            fn schema_name() -> ::std::string::String {
                #error_name.to_string()
            }

            fn json_schema(generator: &mut ::schemars::r#gen::SchemaGenerator) -> ::schemars::schema::Schema {
                COMPONENTS.register(generator);
                COMPONENTS.doc_schema(#error_name)
            }
        }
        }
    })
}
