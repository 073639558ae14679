//! Parameters that would take one Rust name in progenitor's method. A
//! parameter is its name and its place: `nextToken` in the query and in a
//! header are two, and `MaxResults` and `maxResults` are two, yet
//! progenitor keys an operation's parameters by name (one of the first
//! pair is lost) and names its arguments in snake case (the second pair is
//! one argument twice). progenitor gets each later one under a name of its
//! own (`nextToken (header)`), marked with the name it is sent as, which
//! the client's code is given back ([`wire_names`]).

use std::collections::{BTreeMap, BTreeSet};

use heck::ToSnakeCase;
use openapiv3::{OpenAPI, Parameter, ReferenceOr};

use super::operations::operations_mut;
use super::parameters::{parameter_data_mut, resolve_parameter};

/// The extension that marks a renamed parameter with its own name.
const WIRE_NAME: &str = "x-wire-name";

/// Renames the parameters whose Rust names would meet. A path item
/// whose operations rename one has its own parameters copied into each
/// operation first (as OpenAPI reads them: an operation's parameter of the
/// same name and place replaces the path's), so that a rename stays
/// within one operation. A path parameter is renamed in the path's
/// template too (its name is not sent).
pub(super) fn distinct_parameter_names(api: &mut OpenAPI) {
    let components = api.components.clone();
    let mut templates: Vec<(String, String)> = Vec::new();
    for (path, item) in api.paths.paths.iter_mut() {
        let ReferenceOr::Item(item) = item else { continue };
        let shared: Vec<Parameter> = item
            .parameters
            .iter()
            .filter_map(|p| resolve_parameter(&components, p).cloned())
            .collect();
        let effective = |operation: &openapiv3::Operation| -> Vec<Parameter> {
            let own: Vec<Parameter> = operation
                .parameters
                .iter()
                .filter_map(|p| resolve_parameter(&components, p).cloned())
                .collect();
            let inherited = shared.iter().filter(|s| {
                !own.iter()
                    .any(|o| o.parameter_data_ref().name == s.parameter_data_ref().name && place(o) == place(s))
            });
            inherited.cloned().chain(own.iter().cloned()).collect()
        };
        let meets = operations_mut(item).any(|operation| renamed(&effective(operation)).is_some());
        if !meets {
            continue;
        }
        let ops: Vec<Vec<Parameter>> = operations_mut(item).map(|op| effective(op)).collect();
        let mut template = path.clone();
        for (operation, parameters) in operations_mut(item).zip(ops) {
            let parameters = renamed(&parameters).unwrap_or(parameters);
            for parameter in &parameters {
                let data = parameter.parameter_data_ref();
                if let (Parameter::Path { .. }, Some(wire)) = (parameter, data.extensions.get(WIRE_NAME)) {
                    let wire = wire.as_str().unwrap_or_default();
                    template = template.replace(&format!("{{{wire}}}"), &format!("{{{}}}", data.name));
                }
            }
            operation.parameters = parameters.into_iter().map(ReferenceOr::Item).collect();
        }
        item.parameters.clear();
        if template != *path {
            templates.push((path.clone(), template));
        }
    }
    if !templates.is_empty() {
        let paths = std::mem::take(&mut api.paths.paths);
        api.paths.paths = paths
            .into_iter()
            .map(|(path, item)| match templates.iter().find(|(old, _)| *old == path) {
                Some((_, new)) => (new.clone(), item),
                None => (path, item),
            })
            .collect();
    }
}

/// The parameters with the later of each meeting pair renamed, or `None`
/// when no two meet.
fn renamed(parameters: &[Parameter]) -> Option<Vec<Parameter>> {
    let mut taken: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::new();
    let mut changed = false;
    for parameter in parameters {
        let name = parameter.parameter_data_ref().name.clone();
        let key = rust_name(&name);
        // The same name in another place has the same Rust name too.
        if taken.insert(key) {
            out.push(parameter.clone());
            continue;
        }
        // A path parameter's new name is its template's variable: a word.
        let given = (1..)
            .map(|n| match (parameter, n) {
                (Parameter::Path { .. }, 1) => format!("{name}_path"),
                (Parameter::Path { .. }, n) => format!("{name}_path{n}"),
                (_, 1) => format!("{name} ({})", place(parameter)),
                (_, n) => format!("{name} ({} {n})", place(parameter)),
            })
            .find(|given| !taken.contains(&rust_name(given)))
            .expect("some number is free");
        taken.insert(rust_name(&given));
        let mut parameter = parameter.clone();
        let data = parameter_data_mut(&mut parameter);
        data.extensions
            .insert(WIRE_NAME.into(), serde_json::Value::String(name));
        data.name = given;
        out.push(parameter);
        changed = true;
    }
    changed.then_some(out)
}

/// The Rust name progenitor gives a parameter (its `sanitize`, close
/// enough to tell names apart).
fn rust_name(name: &str) -> String {
    name.replace('\'', "")
        .replace(|c: char| !c.is_alphanumeric() && c != '_', "-")
        .to_snake_case()
}

fn place(parameter: &Parameter) -> &'static str {
    match parameter {
        Parameter::Query { .. } => "query",
        Parameter::Header { .. } => "header",
        Parameter::Path { .. } => "path",
        Parameter::Cookie { .. } => "cookie",
    }
}

/// The renamed parameters of the document progenitor got: the name it
/// was given, and the name the request carries.
pub(in crate::codegen::client_gen) fn wire_names(api: &OpenAPI) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for item in api.paths.paths.values() {
        let ReferenceOr::Item(item) = item else { continue };
        for operation in item.iter().map(|(_, op)| op) {
            // A path parameter's name is not sent.
            let sent = operation
                .parameters
                .iter()
                .filter_map(ReferenceOr::as_item)
                .filter(|p| !matches!(p, Parameter::Path { .. }));
            for parameter in sent {
                let data = parameter.parameter_data_ref();
                if let Some(wire) = data.extensions.get(WIRE_NAME).and_then(|v| v.as_str()) {
                    out.insert(data.name.clone(), wire.to_string());
                }
            }
        }
    }
    out
}
