//! `$defs` inside a component schema (and `definitions`, draft-07's name
//! for them, which documents keep): each definition becomes a component
//! schema of its own (`<Schema>_<Definition>`), and every reference to it
//! (`#/components/schemas/<Schema>/$defs/<Definition>`, or `#/$defs/<Definition>`
//! inside the schema, which its authors evidently mean) leads there. 3.0
//! has no `$defs`, and the generator's references lead into
//! `components.schemas` only.

use serde_norway::{Mapping, Value};

/// The keywords that hold definitions.
const DEFINITIONS: [&str; 2] = ["$defs", "definitions"];

/// Hoists the `$defs` (and `definitions`) of every component schema, at
/// any depth inside it (a property's items may hold them), definitions
/// inside definitions included.
pub fn hoist(top: &mut Mapping) {
    // Each round hoists one level of nesting; real documents nest one.
    for _ in 0..8 {
        let Some(Value::Mapping(schemas)) = top.get_mut("components").and_then(|c| c.get_mut("schemas")) else {
            return;
        };
        let taken: Vec<String> = schemas.keys().filter_map(Value::as_str).map(str::to_string).collect();
        // (the component, the pointer to the definition inside it, the
        // definition's own pointer inside its holder, its new name)
        let mut moved: Vec<Moved> = Vec::new();
        let mut hoisted = Mapping::new();
        for (name, schema) in schemas.iter_mut() {
            let Some(name) = name.as_str() else { continue };
            let mut found = Vec::new();
            take_definitions(schema, String::new(), &mut found, 0);
            for (holder, keyword, definition, body) in found {
                // A component's name is `[A-Za-z0-9._-]+` (OpenAPI): a
                // reference names it without escaping.
                let safe: String = definition
                    .chars()
                    .map(|c| match c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                        true => c,
                        false => '_',
                    })
                    .collect();
                let mut new_name = format!("{name}_{safe}");
                while taken.contains(&new_name) || hoisted.contains_key(new_name.as_str()) {
                    new_name.push('_');
                }
                hoisted.insert(new_name.clone().into(), body);
                moved.push(Moved {
                    component: name.to_string(),
                    holder,
                    keyword,
                    definition,
                    new_name,
                });
            }
        }
        if moved.is_empty() {
            return;
        }
        if let Some(Value::Mapping(schemas)) = top.get_mut("components").and_then(|c| c.get_mut("schemas")) {
            schemas.extend(hoisted);
        }
        for m in &moved {
            let target = format!("#/components/schemas/{}", m.new_name);
            let escaped = m.definition.replace('~', "~0").replace('/', "~1");
            let from_anywhere = format!(
                "#/components/schemas/{}{}/{}/{escaped}",
                m.component, m.holder, m.keyword
            );
            for (_, part) in top.iter_mut() {
                rewrite_references(part, &from_anywhere, &target);
            }
            // `#/$defs/<Definition>` inside the schema that held it (its
            // authors' root), and inside its other definitions.
            let local = format!("#/{}/{escaped}", m.keyword);
            let Some(Value::Mapping(schemas)) = top.get_mut("components").and_then(|c| c.get_mut("schemas")) else {
                continue;
            };
            let owners = std::iter::once(&m.component)
                .chain(moved.iter().filter(|o| o.component == m.component).map(|o| &o.new_name));
            for owner in owners {
                if let Some(schema) = schemas.get_mut(owner.as_str()) {
                    rewrite_references(schema, &local, &target);
                }
            }
        }
    }
}

/// A definition taken out of its component.
struct Moved {
    component: String,
    /// Where its holder is inside the component (a JSON pointer, `""` for
    /// the component itself).
    holder: String,
    keyword: &'static str,
    definition: String,
    new_name: String,
}

/// Takes every definition out of `schema` and the schemas inside it
/// (not out of the definitions taken: the next round does), with where
/// each was.
fn take_definitions(
    schema: &mut Value,
    at: String,
    found: &mut Vec<(String, &'static str, String, Value)>,
    depth: usize,
) {
    if depth > 32 {
        return;
    }
    let Value::Mapping(map) = schema else { return };
    for keyword in DEFINITIONS {
        if let Some(Value::Mapping(defs)) = map.get(keyword).cloned() {
            map.shift_remove(keyword);
            for (definition, body) in defs {
                if let Some(definition) = definition.as_str() {
                    found.push((at.clone(), keyword, definition.to_string(), body));
                }
            }
        }
    }
    for (key, inner) in map.iter_mut() {
        let Some(key) = key.as_str() else { continue };
        // Examples and defaults are data.
        if ["example", "examples", "default", "enum", "const"].contains(&key) {
            continue;
        }
        let escaped = key.replace('~', "~0").replace('/', "~1");
        match inner {
            Value::Mapping(_) => take_definitions(inner, format!("{at}/{escaped}"), found, depth + 1),
            Value::Sequence(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    take_definitions(item, format!("{at}/{escaped}/{i}"), found, depth + 1);
                }
            }
            _ => {}
        }
    }
}

/// Every `$ref: from` under `value` becomes `$ref: to`, and every
/// reference into what `from` names (`from/properties/x`) into `to`'s.
fn rewrite_references(value: &mut Value, from: &str, to: &str) {
    match value {
        Value::Mapping(map) => {
            for (key, inner) in map.iter_mut() {
                // Values are data: a `$ref` in an enum is no reference.
                if ["enum", "const", "default", "example", "examples"].contains(&key.as_str().unwrap_or_default()) {
                    continue;
                }
                // A reference is a URI: `%22` in it is `"`.
                let decoded = inner.as_str().map(percent_decoded);
                let rest = decoded
                    .as_deref()
                    .and_then(|reference| reference.strip_prefix(from))
                    .filter(|rest| rest.is_empty() || rest.starts_with('/'))
                    .map(str::to_string);
                if key.as_str() == Some("$ref")
                    && let Some(rest) = rest
                {
                    *inner = format!("{to}{rest}").into();
                } else {
                    rewrite_references(inner, from, to);
                }
            }
        }
        Value::Sequence(items) => items.iter_mut().for_each(|inner| rewrite_references(inner, from, to)),
        _ => {}
    }
}

/// `reference` with each `%XX` as the byte it encodes (as written where
/// that is not UTF-8).
fn percent_decoded(reference: &str) -> String {
    let bytes = reference.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(high), Some(low)) => {
                out.push((high * 16 + low) as u8);
                i += 3;
            }
            (byte, _, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| reference.to_string())
}
