//! OpenAPI's `discriminator`: the property whose value names the member
//! of a `oneOf` or `anyOf` a value is (with `mapping`, or by each
//! member's component name). JSON Schema and typify know nothing of it,
//! so each form says it in their terms:
//!
//! - **validation**: the members are tried by the property's value, not
//!   all at once (`if` the property is `cat`, `then` the `Cat` schema).
//!   Members that overlap (a dog that would also be a valid cat) are
//!   common, and a plain `oneOf` would refuse such a value as matching
//!   two;
//! - **typify**: each member is its schema with the property narrowed to
//!   its value(s), which typify reads as an internally tagged enum, so
//!   serde picks the member by the property too.
//!
//! A `discriminator` beside no `oneOf` or `anyOf` (a base schema that
//! subtypes extend with `allOf`) only documents: the value is read as
//! the base.

use serde_json::{Map, Value, json};

use super::references::COMPONENTS_PREFIX;
use crate::codegen::document::errors::SpecError;

/// A discriminated `oneOf`/`anyOf`: the property, and each member's
/// component name with the values that name it.
struct Tagged {
    property: String,
    combinator: &'static str,
    members: Vec<(String, Vec<String>)>,
}

/// Checks a schema's `discriminator` (when it has one): the property is
/// named, and each member of its `oneOf`/`anyOf` is a reference, which is
/// how OpenAPI names the members.
pub fn check(map: &Map<String, Value>, location: &str) -> Result<(), SpecError> {
    let Some(discriminator) = map.get("discriminator") else {
        return Ok(());
    };
    let at = format!("{location}.discriminator");
    if discriminator.get("propertyName").and_then(Value::as_str).is_none() {
        return Err(SpecError::new(&at, "a discriminator needs a `propertyName`"));
    }
    if let Some(mapping) = discriminator.get("mapping")
        && !mapping.as_object().is_some_and(|m| m.values().all(Value::is_string))
    {
        return Err(SpecError::new(
            format!("{at}.mapping"),
            "a discriminator's `mapping` maps values to schema names or references",
        ));
    }
    let Some((combinator, members)) = combinator(map) else {
        return Ok(());
    };
    for (i, member) in members.iter().enumerate() {
        if component(member).is_none() {
            return Err(SpecError::new(
                format!("{location}.{combinator}.{i}"),
                "a member of a discriminated oneOf or anyOf must be a reference to components.schemas \
                 (the discriminator names members by their schema's name)",
            ));
        }
    }
    Ok(())
}

/// The validation form's keywords for a discriminated `oneOf`/`anyOf`
/// (already in validation form, references into `$defs`), in place.
pub fn for_validation(map: &mut Map<String, Value>) {
    let Some(Tagged {
        property,
        combinator,
        members,
    }) = take(map)
    else {
        return;
    };
    map.remove(combinator);
    let values: Vec<&String> = members.iter().flat_map(|(_, values)| values).collect();
    let mut parts = vec![json!({"required": [property], "properties": {&property: {"enum": values}}})];
    parts.extend(members.iter().map(|(name, values)| {
        json!({
            "if": {"required": [property], "properties": {&property: {"enum": values}}},
            "then": {"$ref": format!("#/$defs/{name}")},
        })
    }));
    match map.get_mut("allOf") {
        Some(Value::Array(all_of)) => all_of.extend(parts),
        _ => {
            map.insert("allOf".into(), Value::Array(parts));
        }
    }
}

/// The typify form's members for a discriminated `oneOf`/`anyOf`, in
/// place: each member's reference with the property narrowed to the
/// values that name it.
pub fn for_typify(map: &mut Map<String, Value>) {
    let Some(Tagged {
        property,
        combinator,
        members,
    }) = take(map)
    else {
        return;
    };
    let narrowed = members
        .into_iter()
        .map(|(name, values)| {
            // The title names typify's variant (`Pet::Cat`, not `Variant0`).
            json!({"title": name, "allOf": [
                {"$ref": format!("{COMPONENTS_PREFIX}{name}")},
                {"type": "object", "required": [property], "properties": {&property: {"type": "string", "enum": values}}},
            ]})
        })
        .collect();
    map.insert(combinator.into(), Value::Array(narrowed));
}

/// The discriminated members, the `discriminator` keyword taken out
/// (neither JSON Schema nor typify reads it).
fn take(map: &mut Map<String, Value>) -> Option<Tagged> {
    let tagged = tagged(map);
    map.remove("discriminator");
    tagged
}

fn combinator(map: &Map<String, Value>) -> Option<(&'static str, &Vec<Value>)> {
    ["oneOf", "anyOf"]
        .into_iter()
        .find_map(|key| Some((key, map.get(key)?.as_array()?)))
}

/// The component a `$ref` (in any form's prefix) names.
fn component(member: &Value) -> Option<&str> {
    let reference = member.get("$ref")?.as_str()?;
    reference.rsplit_once('/').map(|(_, name)| name)
}

fn tagged(map: &Map<String, Value>) -> Option<Tagged> {
    let discriminator = map.get("discriminator")?;
    let property = discriminator.get("propertyName")?.as_str()?.to_string();
    let (combinator, members) = combinator(map)?;
    let mapping: Vec<(&str, &str)> = discriminator
        .get("mapping")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(value, target)| {
            let target = target.as_str()?;
            Some((value.as_str(), target.rsplit_once('/').map_or(target, |(_, name)| name)))
        })
        .collect();
    let members = members
        .iter()
        .filter_map(component)
        .map(|name| {
            let mapped: Vec<String> = mapping
                .iter()
                .filter(|(_, target)| *target == name)
                .map(|(value, _)| value.to_string())
                .collect();
            // A member the mapping leaves out is named by its schema name.
            let values = match mapped.is_empty() {
                true => vec![name.to_string()],
                false => mapped,
            };
            (name.to_string(), values)
        })
        .collect();
    Some(Tagged {
        property,
        combinator,
        members,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn animal() -> Map<String, Value> {
        let schema = json!({
            "oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
            "discriminator": {"propertyName": "species", "mapping": {"dog": "#/components/schemas/Dog", "hound": "Dog"}},
        });
        schema.as_object().unwrap().clone()
    }

    #[test]
    fn validation_tries_the_member_the_property_names() {
        let mut map = animal();
        for_validation(&mut map);
        assert_eq!(
            Value::Object(map),
            json!({"allOf": [
                {"required": ["species"], "properties": {"species": {"enum": ["Cat", "dog", "hound"]}}},
                {"if": {"required": ["species"], "properties": {"species": {"enum": ["Cat"]}}}, "then": {"$ref": "#/$defs/Cat"}},
                {"if": {"required": ["species"], "properties": {"species": {"enum": ["dog", "hound"]}}}, "then": {"$ref": "#/$defs/Dog"}},
            ]})
        );
    }

    #[test]
    fn typify_sees_each_member_narrowed_to_its_values() {
        let mut map = animal();
        for_typify(&mut map);
        assert_eq!(
            map["oneOf"][1]["allOf"][1]["properties"]["species"],
            json!({"type": "string", "enum": ["dog", "hound"]})
        );
        assert!(!map.contains_key("discriminator"));
    }

    #[test]
    fn inline_members_are_refused_with_their_place() {
        let schema = json!({"oneOf": [{"type": "object"}], "discriminator": {"propertyName": "k"}});
        let error = check(schema.as_object().unwrap(), "s").unwrap_err();
        assert_eq!(error.location, "s.oneOf.0");
        let base = json!({"type": "object", "discriminator": {"propertyName": "k"}});
        assert!(check(base.as_object().unwrap(), "s").is_ok(), "documentation only");
    }
}
