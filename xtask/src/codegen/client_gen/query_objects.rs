//! Query objects on the client in the styles progenitor does not write.
//! progenitor writes an object parameter as its properties' own pairs
//! (`form`, `explode: true`), and refuses `deepObject`; it gets such a
//! parameter as a `form` one (`for_progenitor`), and the method it writes
//! is changed here to send it as the spec says:
//! `QueryParam::new("filter", &filter)` becomes
//! `api-client-runtime`'s `ObjectQuery::new("filter", &filter, true)`,
//! which writes
//! `filter[color]=red` (`deepObject`, nested to any depth:
//! `created[gt]=1`, `expand[]=a`), or `filter=color,red` (`form`,
//! `explode: false`). The server reads both (`runtime::ValueKind::Object`
//! and `runtime::ValueKind::Deep`). A list `spaceDelimited` or
//! `pipeDelimited` is sent as one pair of its items so joined
//! (`runtime::ValueKind::Delimited`).

use syn::visit_mut::VisitMut;

use super::methods::rewrite_methods;
use crate::codegen::document::parameter_shapes::{ParameterShape, list_delimiter, parameter_shape};
use crate::codegen::document::{Spec, SpecError, schema_type};

/// Rewrites the methods with such parameters.
pub fn write_query_objects(spec: &Spec, file: &mut syn::File) -> Result<(), SpecError> {
    rewrite_methods(spec, file, |op| {
        let mut objects = Vec::new();
        for (parameter, _) in spec.parameters(op)? {
            if parameter["in"] != "query" {
                continue;
            }
            let is_object = schema_type(spec, &parameter["schema"]) == Some("object");
            let deep = parameter["style"] == "deepObject"
                && matches!(
                    parameter_shape(spec, &parameter),
                    Ok(ParameterShape::Object(_) | ParameterShape::FreeObject | ParameterShape::Deep)
                );
            let joined = is_object && parameter["explode"] == false;
            let name = parameter["name"].as_str().unwrap_or_default().to_string();
            if let Some(delimiter) = list_delimiter(&parameter).filter(|_| parameter["explode"] != true) {
                objects.push((name, Written::Delimited(delimiter)));
            } else if deep || joined {
                objects.push((name, Written::Object { deep }));
            }
        }
        Ok((!objects.is_empty()).then_some(AsObjects { objects }))
    })?;
    Ok(())
}

struct AsObjects {
    /// Each parameter's name, and how it is written.
    objects: Vec<(String, Written)>,
}

#[derive(Clone, Copy)]
enum Written {
    /// An object: a `deepObject` in bracket notation, or unexploded.
    Object { deep: bool },
    /// A list's items joined by `' '` or `'|'` in one pair.
    Delimited(char),
}

impl VisitMut for AsObjects {
    fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
        // progenitor_client::QueryParam::new("filter", &filter)
        if let syn::Expr::Call(call) = expr
            && let syn::Expr::Path(function) = &*call.func
            && function.path.segments.len() >= 2
            && function
                .path
                .segments
                .iter()
                .rev()
                .nth(1)
                .is_some_and(|s| s.ident == "QueryParam")
            && call.args.len() == 2
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(name),
                ..
            }) = &call.args[0]
            && let Some((_, written)) = self.objects.iter().find(|(n, _)| *n == name.value())
        {
            let value = &call.args[1];
            *expr = match *written {
                Written::Object { deep } => {
                    syn::parse_quote!(::api_client_runtime::query::ObjectQuery::new(#name, #value, #deep))
                }
                Written::Delimited(delimiter) => {
                    syn::parse_quote!(::api_client_runtime::query::DelimitedQuery::new(#name, #value, #delimiter))
                }
            };
            return;
        }
        syn::visit_mut::visit_expr_mut(self, expr);
    }
}
