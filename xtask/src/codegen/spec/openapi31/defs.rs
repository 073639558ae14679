//! `$defs` inside a component schema: each definition becomes a component
//! schema of its own (`<Schema>_<Definition>`), and every reference to it
//! (`#/components/schemas/<Schema>/$defs/<Definition>`, or `#/$defs/<Definition>`
//! inside the schema, which its authors evidently mean) leads there. 3.0
//! has no `$defs`, and the generator's references lead into
//! `components.schemas` only.

use serde_norway::{Mapping, Value};

/// Hoists the `$defs` of every component schema, definitions inside
/// definitions included.
pub(super) fn hoist(top: &mut Mapping) {
    // Each round hoists one level of nesting; real documents nest one.
    for _ in 0..8 {
        let Some(Value::Mapping(schemas)) = top.get_mut("components").and_then(|c| c.get_mut("schemas")) else {
            return;
        };
        let mut moved: Vec<(String, String, String)> = Vec::new();
        let mut hoisted = Mapping::new();
        let taken: Vec<String> = schemas.keys().filter_map(Value::as_str).map(str::to_string).collect();
        for (name, schema) in schemas.iter_mut() {
            let Some(name) = name.as_str() else { continue };
            let Some(Value::Mapping(defs)) = schema.as_mapping_mut().and_then(|s| s.shift_remove("$defs")) else {
                continue;
            };
            for (definition, body) in defs {
                let Some(definition) = definition.as_str() else {
                    continue;
                };
                let mut new_name = format!("{name}_{definition}");
                while taken.contains(&new_name) || hoisted.contains_key(new_name.as_str()) {
                    new_name.push('_');
                }
                hoisted.insert(new_name.clone().into(), body);
                moved.push((name.to_string(), definition.to_string(), new_name));
            }
        }
        if moved.is_empty() {
            return;
        }
        if let Some(Value::Mapping(schemas)) = top.get_mut("components").and_then(|c| c.get_mut("schemas")) {
            schemas.extend(hoisted);
        }
        for (name, definition, new_name) in &moved {
            let target = format!("#/components/schemas/{new_name}");
            let from_anywhere = format!("#/components/schemas/{name}/$defs/{definition}");
            for (_, part) in top.iter_mut() {
                rewrite_references(part, &from_anywhere, &target);
            }
            // `#/$defs/<Definition>` inside the schema that held it, and
            // inside its other definitions.
            let local = format!("#/$defs/{definition}");
            let Some(Value::Mapping(schemas)) = top.get_mut("components").and_then(|c| c.get_mut("schemas")) else {
                continue;
            };
            let owners = std::iter::once(name).chain(moved.iter().filter(|m| &m.0 == name).map(|m| &m.2));
            for owner in owners {
                if let Some(schema) = schemas.get_mut(owner.as_str()) {
                    rewrite_references(schema, &local, &target);
                }
            }
        }
    }
}

/// Every `$ref: from` under `value` becomes `$ref: to`.
fn rewrite_references(value: &mut Value, from: &str, to: &str) {
    match value {
        Value::Mapping(map) => {
            for (key, inner) in map.iter_mut() {
                if key.as_str() == Some("$ref") && inner.as_str() == Some(from) {
                    *inner = to.into();
                } else {
                    rewrite_references(inner, from, to);
                }
            }
        }
        Value::Sequence(items) => items.iter_mut().for_each(|inner| rewrite_references(inner, from, to)),
        _ => {}
    }
}
