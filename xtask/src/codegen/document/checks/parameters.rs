//! Parameters: each has a shape its place can carry
//! ([`parameter_shape`]: a scalar, a list of scalars, an object of scalar
//! properties, or JSON text), a style the generated layer reads, and a
//! schema the generator can map; the path's variables are each declared.

use serde_json::Value;

use crate::codegen::document::errors::SpecError;
use crate::codegen::document::model::{OperationRef, Spec};
use crate::codegen::document::parameter_shapes::{
    ParameterShape, parameter_schema, parameter_schema_location, parameter_shape,
};
use crate::codegen::document::router::path_variables;
use crate::codegen::schema;

pub(super) fn check_parameters(spec: &Spec, op: &OperationRef<'_>) -> Result<(), SpecError> {
    let variables = path_variables(op.path);
    let mut declared: Vec<String> = Vec::new();
    for (parameter, location) in spec.parameters(op)? {
        let at = |key: &str| format!("{location}.{key}");
        let name = parameter["name"].as_str().unwrap_or_default();
        let place = parameter["in"].as_str().unwrap_or_default();
        if !["path", "query", "header", "cookie"].contains(&place) {
            return Err(SpecError::new(
                at("in"),
                format!("`{place}` is not a parameter location"),
            ));
        }
        let schema = parameter_schema(&parameter)
            .ok_or_else(|| SpecError::new(&location, "a parameter needs a `schema` or a `content`"))?;
        let schema_at = parameter_schema_location(&parameter, &location);
        schema::check(schema, &schema_at, spec.component_schemas())?;
        let shape = parameter_shape(spec, &parameter).map_err(|why| SpecError::new(&schema_at, why))?;
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
                declared.push(name.to_string());
            }
            "query" => match (style, &shape) {
                (None | Some("form"), _)
                | (Some("deepObject"), ParameterShape::Object(_) | ParameterShape::FreeObject | ParameterShape::Deep) =>
                    {}
                // A list's items joined by a space or a pipe.
                (Some("spaceDelimited" | "pipeDelimited"), ParameterShape::List(_)) => {}
                // No style writes JSON text: a `content` parameter has none.
                (_, ParameterShape::Json { .. }) => {}
                (Some(_), _) => {
                    return Err(SpecError::new(
                        at("style"),
                        "only the `form` and `deepObject` styles (and `spaceDelimited` or `pipeDelimited` for a list of scalars) are supported for query parameters",
                    ));
                }
            },
            "cookie" if style.is_some_and(|s| s != "form") => {
                return Err(SpecError::new(at("style"), "a cookie parameter's style must be `form`"));
            }
            _ => {}
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
