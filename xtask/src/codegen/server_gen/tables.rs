//! Each operation's table (`runtime::Operation`), which the generated
//! layer serves by, and the marker type through which the runtime's
//! extractors and replies find it.

use proc_macro2::TokenStream;
use quote::quote;

use super::errors::other_error_rows;
use super::model::{Operation, SchemeRef};
use super::parameter_code::parameter_rows;
use super::response_code::response_rows;
use super::types::ErrorObject;

fn scheme_row(scheme: &SchemeRef) -> TokenStream {
    match scheme {
        SchemeRef::Bearer { name } => quote!(runtime::Scheme::Bearer { name: #name }),
        SchemeRef::Basic { name } => quote!(runtime::Scheme::Basic { name: #name }),
        SchemeRef::ApiKeyHeader { name, header } => {
            quote!(runtime::Scheme::ApiKeyHeader { name: #name, header: #header })
        }
        SchemeRef::ApiKeyQuery { name, parameter } => {
            quote!(runtime::Scheme::ApiKeyQuery { name: #name, parameter: #parameter })
        }
        SchemeRef::ApiKeyCookie { name, cookie } => {
            quote!(runtime::Scheme::ApiKeyCookie { name: #name, cookie: #cookie })
        }
    }
}

pub(super) fn operation_table(op: &Operation, error: &ErrorObject) -> TokenStream {
    let error_type = &error.path;
    // Problem details go out as what they are.
    let media_type = error.component.is_none().then(|| {
        quote!(
            const ERROR_MEDIA_TYPE: &'static str = runtime::PROBLEM_JSON;
        )
    });
    let (marker, table, id, path) = (&op.marker, &op.table, &op.id, &op.http_path);
    let method = op.method.to_string();
    let security = op.security.iter().map(|requirement| {
        let needs = requirement.0.iter().map(|(scheme, scopes)| {
            let scheme = scheme_row(scheme);
            quote!(runtime::Need { scheme: #scheme, scopes: &[#(#scopes),*] },)
        });
        quote!(runtime::Requirement(&[#(#needs)*]),)
    });
    let parameters = parameter_rows(op);
    let body = match &op.body {
        Some(body) => body.row(),
        None => quote!(::std::option::Option::None),
    };
    let responses = response_rows(op);
    let errors = &op.error_keys;
    let other_errors = other_error_rows(&op.errors);
    let deprecation = match &op.deprecation {
        Some(d) => {
            let value = &d.deprecation;
            let sunset = super::parameters::option_str(d.sunset.as_deref());
            quote!(::std::option::Option::Some(runtime::Deprecation { deprecation: #value, sunset: #sunset }))
        }
        None => quote!(::std::option::Option::None),
    };
    let doc = format!("`{id}`: the operation's table, through which the generated layer serves it.");
    quote! {
        #[doc = #doc]
        pub struct #marker;

        impl runtime::Contract for #marker {
            type Error = #error_type;
            #media_type

            fn operation() -> &'static runtime::Operation {
                &#table
            }

            fn error(status: u16, problem: runtime::Problem) -> #error_type {
                #error_type::from_problem(status, problem)
            }
        }

        static #table: runtime::Operation = runtime::Operation {
            id: #id,
            method: #method,
            path: #path,
            security: &[#(#security)*],
            parameters: #parameters,
            body: #body,
            responses: #responses,
            errors: &[#(#errors),*],
            other_errors: #other_errors,
            deprecation: #deprecation,
            metrics: runtime::metrics::OperationSeries::new(),
        };
    }
}
