//! Query objects on the client in the styles progenitor does not write.
//! progenitor writes an object parameter as its properties' own pairs
//! (`form`, `explode: true`), and refuses `deepObject`; it gets such a
//! parameter as a `form` one (`for_progenitor`), and the method it writes
//! is changed here to send it as the spec says:
//! `QueryParam::new("filter", &filter)` becomes
//! `ObjectQuery::new("filter", &filter, true)`, which writes
//! `filter[color]=red` (`deepObject`), or `filter=color,red` (`form`,
//! `explode: false`). The server reads both (`runtime::ValueKind::Object`).

use syn::visit_mut::VisitMut;

use super::methods::rewrite_methods;
use crate::codegen::spec::{Spec, SpecError, schema_type};

/// Rewrites the methods with such parameters, and adds `ObjectQuery` when
/// one has.
pub fn write_query_objects(spec: &Spec, file: &mut syn::File) -> Result<(), SpecError> {
    let rewritten = rewrite_methods(spec, file, |op| {
        let mut objects = Vec::new();
        for (parameter, _) in spec.parameters(op)? {
            let is_object = schema_type(spec, &parameter["schema"]) == Some("object");
            let deep = parameter["style"] == "deepObject";
            let joined = parameter["explode"] == false;
            if parameter["in"] == "query" && is_object && (deep || joined) {
                objects.push((parameter["name"].as_str().unwrap_or_default().to_string(), deep));
            }
        }
        Ok((!objects.is_empty()).then_some(AsObjects { objects }))
    })?;
    if rewritten {
        file.items.extend(object_query());
    }
    Ok(())
}

struct AsObjects {
    /// Each parameter's name, and whether it is a `deepObject`.
    objects: Vec<(String, bool)>,
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
            && let Some((_, deep)) = self.objects.iter().find(|(n, _)| *n == name.value())
        {
            let value = &call.args[1];
            *expr = syn::parse_quote!(ObjectQuery::new(#name, #value, #deep));
            return;
        }
        syn::visit_mut::visit_expr_mut(self, expr);
    }
}

fn object_query() -> Vec<syn::Item> {
    let helper: syn::File = syn::parse_quote! {
        /// An object query parameter in a style progenitor does not write:
        /// `name[property]=value` per property (`deepObject`), or
        /// `name=property,value,...` (`form`, `explode: false`). Absent
        /// (`None`) and null properties are not sent.
        struct ObjectQuery<'a, T> {
            name: &'a str,
            value: &'a T,
            deep: bool,
        }

        impl<'a, T> ObjectQuery<'a, T> {
            fn new(name: &'a str, value: &'a T, deep: bool) -> Self {
                ObjectQuery { name, value, deep }
            }
        }

        impl<T: ::serde::Serialize> ::serde::Serialize for ObjectQuery<'_, T> {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                let value = ::serde_json::to_value(self.value).map_err(::serde::ser::Error::custom)?;
                let properties = match value {
                    ::serde_json::Value::Object(properties) => properties,
                    ::serde_json::Value::Null => ::serde_json::Map::new(),
                    _ => return Err(::serde::ser::Error::custom(format!("`{}` is not an object", self.name))),
                };
                let text = |value: ::serde_json::Value| match value {
                    ::serde_json::Value::String(text) => text,
                    other => other.to_string(),
                };
                let present = properties.into_iter().filter(|(_, value)| !value.is_null());
                let pairs: ::std::vec::Vec<(::std::string::String, ::std::string::String)> = match self.deep {
                    true => present.map(|(property, value)| (format!("{}[{property}]", self.name), text(value))).collect(),
                    false => {
                        let joined: ::std::vec::Vec<::std::string::String> =
                            present.flat_map(|(property, value)| [property, text(value)]).collect();
                        match joined.is_empty() {
                            true => ::std::vec::Vec::new(),
                            false => vec![(self.name.to_string(), joined.join(","))],
                        }
                    }
                };
                pairs.serialize(serializer)
            }
        }
    };
    helper.items
}
