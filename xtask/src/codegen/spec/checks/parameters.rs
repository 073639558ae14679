//! Parameters: path, query (form style), header and cookie ones of scalar
//! types, query arrays of scalars and query objects of scalar properties
//! (form or deepObject); what progenitor's client (with cookies and some
//! query objects rewritten) and dropshot's router can carry.

use std::collections::HashMap;

use serde_json::Value;

use crate::codegen::schema;
use crate::codegen::spec::document::{OperationRef, Spec};
use crate::codegen::spec::document::{is_scalar, schema_type};
use crate::codegen::spec::errors::SpecError;
use crate::codegen::spec::forms::{all_scalar_properties, is_free_form_object};
use crate::codegen::spec::router::path_variables;

pub(super) fn check_parameters(spec: &Spec, op: &OperationRef<'_>) -> Result<(), SpecError> {
    let variables = path_variables(op.path);
    let mut declared: Vec<String> = Vec::new();
    let mut names: HashMap<String, String> = HashMap::new();
    for (parameter, location) in spec.parameters(op)? {
        let at = |key: &str| format!("{location}.{key}");
        let name = parameter["name"].as_str().unwrap_or_default();
        let place = parameter["in"].as_str().unwrap_or_default();
        let schema = match (parameter.get("schema"), parameter.get("content")) {
            (Some(schema), _) => schema,
            (None, _) => {
                return Err(SpecError::new(
                    &location,
                    "a parameter needs a `schema` (`content` parameters are not supported)",
                ));
            }
        };
        schema::check(schema, &at("schema"), spec.component_schemas())?;
        let rust_name = heck::ToSnakeCase::to_snake_case(name);
        if let Some(first) = names.insert(rust_name.clone(), location.clone()) {
            return Err(SpecError::new(
                &location,
                format!("`{name}` gives the same Rust name `{rust_name}` as the parameter at {first}"),
            ));
        }
        let ty = schema_type(spec, schema);
        let style = parameter.get("style").and_then(Value::as_str);
        match place {
            "path" => {
                if !variables.contains(&name) {
                    return Err(SpecError::new(
                        &location,
                        format!("path parameter `{name}` does not appear in the path"),
                    ));
                }
                if style.is_some_and(|s| s != "simple") {
                    return Err(SpecError::new(at("style"), "a path parameter's style must be `simple`"));
                }
                if !is_scalar(ty) {
                    return Err(SpecError::new(
                        at("schema"),
                        "a path parameter must be a string, integer, number or boolean (dropshot routes one segment to it)",
                    ));
                }
                declared.push(name.to_string());
            }
            "query" => {
                let object = ty == Some("object");
                match style {
                    None | Some("form") => {}
                    Some("deepObject") if object => {}
                    Some(_) => {
                        return Err(SpecError::new(
                            at("style"),
                            "only the `form` style (and `deepObject` for an object) is supported for query parameters",
                        ));
                    }
                }
                let item = schema.get("items").map(|items| schema_type(spec, items));
                match (ty, item) {
                    (ty, _) if is_scalar(ty) => {}
                    (Some("array"), Some(item)) if is_scalar(item) => {}
                    (Some("object"), _) if all_scalar_properties(spec, schema).is_some() => {}
                    // Degraded: a free-form object's pairs are read as text.
                    (Some("object"), _) if style == Some("deepObject") && is_free_form_object(spec, schema) => {}
                    _ => {
                        return Err(SpecError::new(
                            at("schema"),
                            "a query parameter must be a scalar, an array of scalars, or an object of scalar properties",
                        ));
                    }
                }
            }
            "header" => {
                if !is_scalar(ty) {
                    return Err(SpecError::new(
                        at("schema"),
                        "a header parameter must be a scalar (progenitor's client writes a header's value with `Display`, which a list does not have)",
                    ));
                }
            }
            "cookie" => {
                if style.is_some_and(|s| s != "form") {
                    return Err(SpecError::new(at("style"), "a cookie parameter's style must be `form`"));
                }
                if !is_scalar(ty) {
                    return Err(SpecError::new(
                        at("schema"),
                        "a cookie parameter must be a scalar (a list or an object in a cookie is not mapped yet)",
                    ));
                }
            }
            other => {
                return Err(SpecError::new(
                    at("in"),
                    format!("`{other}` is not a parameter location"),
                ));
            }
        }
    }
    if let Some(missing) = variables.iter().find(|v| !declared.iter().any(|d| d == *v)) {
        return Err(SpecError::new(
            format!("{}.parameters", op.location()),
            format!("path variable `{{{missing}}}` has no declared path parameter"),
        ));
    }
    Ok(())
}
