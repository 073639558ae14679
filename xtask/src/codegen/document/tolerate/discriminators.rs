//! A discriminator over inline members. OpenAPI names a discriminated
//! `oneOf`/`anyOf`'s members by their component schemas, yet documents
//! often write the members inline, each saying its own tag (`type:
//! {const: webset.created}`, or an `enum`):
//!
//! - members that each name their values that way become component
//!   schemas of their own (their `title`, or the schema's name and their
//!   first value; a member the same as the component of that name is a
//!   reference to it), referred to from the mapping by those values,
//!   which is what the designer evidently meant;
//! - otherwise the members cannot be told apart by the property, and the
//!   discriminator goes (degrade): the value is validated against the
//!   `oneOf`/`anyOf` as written.

use heck::ToUpperCamelCase;
use serde_norway::{Mapping, Value};

use super::values::key_text;

/// A step into the document: a mapping's key or a list's index.
#[derive(Clone)]
enum Step {
    Key(Value),
    Index(usize),
}

/// Every discriminator over inline members, read as it means.
pub(super) fn inline_members(doc: &mut Value, note: &mut impl FnMut(String, &str)) {
    let mut found = Vec::new();
    find(doc, &mut Vec::new(), String::new(), &mut found, 0);
    // Deepest first: hoisting a member moves what is inside it.
    found.sort_by_key(|(steps, _)| std::cmp::Reverse(steps.len()));
    let mut known: Vec<(String, Value)> = doc
        .get("components")
        .and_then(|c| c.get("schemas"))
        .and_then(Value::as_mapping)
        .map(|schemas| schemas.iter().map(|(k, v)| (key_text(k), v.clone())).collect())
        .unwrap_or_default();
    let mut taken: Vec<String> = known.iter().map(|(name, _)| name.clone()).collect();
    for (steps, at) in found {
        let Some(Value::Mapping(schema)) = walk_to(doc, &steps) else {
            continue;
        };
        let base = at
            .strip_prefix("components.schemas.")
            .map(|rest| rest.split('.').next().unwrap_or_default().to_string())
            .unwrap_or_else(|| "Inline".to_string());
        match hoisted(schema, &base, &mut taken, &mut known) {
            Some(members) => {
                let Some(schemas) = components_schemas(doc) else {
                    continue;
                };
                for (name, member) in members {
                    schemas.insert(name.into(), member);
                }
                note(
                    format!("{at}.discriminator"),
                    "a discriminator over inline members, each naming its value: the members are read as \
                     component schemas of their own, named in the mapping by their values",
                );
            }
            None => {
                schema.shift_remove("discriminator");
                note(
                    format!("{at}.discriminator"),
                    "(degrade) a discriminator over inline members that do not each name their value: \
                     validated as its oneOf/anyOf, as written",
                );
            }
        }
    }
}

/// Finds each schema with a discriminator and an inline member.
fn find(value: &Value, steps: &mut Vec<Step>, at: String, found: &mut Vec<(Vec<Step>, String)>, depth: usize) {
    if depth > 64 {
        return;
    }
    match value {
        Value::Mapping(map) => {
            if map.contains_key("discriminator")
                && members(map).is_some_and(|members| members.iter().any(|m| m.get("$ref").is_none()))
            {
                found.push((steps.clone(), at.clone()));
            }
            for (key, inner) in map {
                let text = key_text(key);
                if ["example", "examples", "enum", "default", "const"].contains(&text.as_str())
                    || text.starts_with("x-")
                {
                    continue;
                }
                steps.push(Step::Key(key.clone()));
                let next = if at.is_empty() { text } else { format!("{at}.{text}") };
                find(inner, steps, next, found, depth + 1);
                steps.pop();
            }
        }
        Value::Sequence(items) => {
            for (i, inner) in items.iter().enumerate() {
                steps.push(Step::Index(i));
                find(inner, steps, format!("{at}.{i}"), found, depth + 1);
                steps.pop();
            }
        }
        _ => {}
    }
}

fn members(map: &Mapping) -> Option<&Vec<Value>> {
    ["oneOf", "anyOf"]
        .into_iter()
        .find_map(|key| map.get(key).and_then(Value::as_sequence))
}

fn walk_to<'v>(doc: &'v mut Value, steps: &[Step]) -> Option<&'v mut Value> {
    let mut value = doc;
    for step in steps {
        value = match (step, value) {
            (Step::Key(key), Value::Mapping(map)) => map.get_mut(key)?,
            (Step::Index(i), Value::Sequence(items)) => items.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(value)
}

/// The inline members as named components, each replaced by its
/// reference and mapped by its values; `None` (nothing changed) when a
/// member does not name its values. `known` holds the component schemas
/// (and those hoisted so far): a member the same as one of them, under
/// its name, is a reference to it rather than a second copy.
fn hoisted(
    schema: &mut Mapping,
    base: &str,
    taken: &mut Vec<String>,
    known: &mut Vec<(String, Value)>,
) -> Option<Vec<(String, Value)>> {
    let property = schema.get("discriminator")?.get("propertyName")?.as_str()?.to_string();
    let combinator = ["oneOf", "anyOf"].into_iter().find(|key| schema.contains_key(*key))?;
    let members = schema.get(combinator)?.as_sequence()?.clone();
    // Each inline member's values first: one that names none changes nothing.
    let mut values_of = Vec::new();
    for member in members.iter().filter(|m| m.get("$ref").is_none()) {
        let values: Vec<String> = member
            .get("properties")
            .and_then(|p| p.get(property.as_str()))
            .and_then(|p| p.get("enum"))
            .and_then(Value::as_sequence)?
            .iter()
            .map(|v| v.as_str().map(str::to_string))
            .collect::<Option<_>>()?;
        if values.is_empty() {
            return None;
        }
        values_of.push(values);
    }
    let mut values_of = values_of.into_iter();
    let mut hoisted = Vec::new();
    let mut named = Vec::new();
    let mut replaced = Vec::new();
    for member in members {
        if member.get("$ref").is_some() {
            replaced.push(member);
            continue;
        }
        let values = values_of.next()?;
        let title = member
            .get("title")
            .and_then(Value::as_str)
            .map(str::to_upper_camel_case);
        let wanted = title
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| format!("{base}{}", values[0].to_upper_camel_case()));
        let same = known
            .iter()
            .find(|(name, schema)| name.to_upper_camel_case() == wanted && *schema == member);
        let name = match same {
            Some((name, _)) => name.clone(),
            None => {
                // A number, not `_`: the Rust type is the name in Pascal
                // case, which would take an underscore out again.
                let mut name = wanted.clone();
                let mut n = 2;
                while taken
                    .iter()
                    .any(|t| t.to_upper_camel_case() == name.to_upper_camel_case())
                {
                    name = format!("{wanted}{n}");
                    n += 1;
                }
                taken.push(name.clone());
                known.push((name.clone(), member.clone()));
                hoisted.push((name.clone(), member));
                name
            }
        };
        let mut reference = Mapping::new();
        reference.insert("$ref".into(), format!("#/components/schemas/{name}").into());
        replaced.push(Value::Mapping(reference));
        named.push((name, values));
    }
    schema.insert(combinator.into(), Value::Sequence(replaced));
    let Some(Value::Mapping(discriminator)) = schema.get_mut("discriminator") else {
        return None;
    };
    let mapping = discriminator
        .entry("mapping".into())
        .or_insert_with(|| Value::Mapping(Mapping::new()));
    if let Value::Mapping(mapping) = mapping {
        for (name, values) in &named {
            for value in values {
                mapping.insert(value.as_str().into(), format!("#/components/schemas/{name}").into());
            }
        }
    }
    Some(hoisted)
}

/// `components.schemas`, made if missing; `None` when the document is
/// not a mapping.
fn components_schemas(doc: &mut Value) -> Option<&mut Mapping> {
    let Value::Mapping(top) = doc else {
        return None;
    };
    let components = top
        .entry("components".into())
        .or_insert_with(|| Value::Mapping(Mapping::new()));
    if !components.is_mapping() {
        *components = Value::Mapping(Mapping::new());
    }
    let schemas = components
        .as_mapping_mut()?
        .entry("schemas".into())
        .or_insert_with(|| Value::Mapping(Mapping::new()));
    if !schemas.is_mapping() {
        *schemas = Value::Mapping(Mapping::new());
    }
    schemas.as_mapping_mut()
}
