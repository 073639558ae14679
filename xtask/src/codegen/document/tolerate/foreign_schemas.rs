//! `$ref`s to schemas elsewhere than `components.schemas` (a property of
//! a component, a definition inside one, a parameter's schema): each
//! schema so pointed at becomes a component of its own, once, and the
//! references point at it. Inlining each would copy the schema at every
//! reference, and again inside each copy: a document whose pointed-at
//! schemas refer to each other (Azure's) grows without bound.

use std::collections::{BTreeMap, BTreeSet};

use serde_norway::{Mapping, Value};

use super::values::pointed;

/// The document as written, and the schemas hoisted from it.
pub(super) struct ForeignSchemas<'a> {
    pub(super) doc: &'a Value,
    /// Each pointer hoisted, by the component name it was given.
    names: BTreeMap<String, String>,
    taken: BTreeSet<String>,
    /// Hoisted, not yet written into the document.
    pending: Vec<(String, String)>,
}

impl<'a> ForeignSchemas<'a> {
    pub(super) fn new(doc: &'a Value) -> Self {
        let taken = doc
            .get("components")
            .and_then(|c| c.get("schemas"))
            .and_then(Value::as_mapping)
            .map(|schemas| schemas.keys().filter_map(Value::as_str).map(str::to_string).collect())
            .unwrap_or_default();
        ForeignSchemas {
            doc,
            names: BTreeMap::new(),
            taken,
            pending: Vec::new(),
        }
    }

    /// The next hoisted schema to write: its name and the schema.
    pub(super) fn next_pending(&mut self) -> Option<(String, Value)> {
        let (name, pointer) = self.pending.pop()?;
        let schema = pointed(self.doc, &pointer)
            .cloned()
            .unwrap_or(Value::Mapping(Mapping::new()));
        Some((name, schema))
    }

    /// The component name of the schema at `pointer`, hoisted once.
    fn hoisted(&mut self, pointer: &str) -> String {
        if let Some(name) = self.names.get(pointer) {
            return name.clone();
        }
        let base: String = pointer
            .trim_start_matches("/components/schemas/")
            .split('/')
            .filter(|part| !part.is_empty())
            .map(|part| {
                part.chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("_");
        let base = if base.is_empty() { "Pointed".to_string() } else { base };
        let mut name = base.clone();
        let mut n = 2;
        while self.taken.contains(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        self.taken.insert(name.clone());
        self.names.insert(pointer.to_string(), name.clone());
        self.pending.push((name.clone(), pointer.to_string()));
        name
    }
}

/// References to references followed before one is given up on (a cycle
/// of them leads nowhere).
const MAX_HOPS: usize = 16;

/// A reference into another part of the document than a component
/// schema: to the component the schema there becomes, when it is a
/// schema (a mapping that is not itself such a reference).
pub(super) fn foreign_reference(
    map: &mut Mapping,
    at: &str,
    foreign: &mut ForeignSchemas<'_>,
    note: &mut impl FnMut(String, &str),
) {
    let is_component = |target: &str| {
        target
            .strip_prefix("#/components/schemas/")
            .is_some_and(|name| !name.contains('/'))
    };
    let Some(target) = map.get("$ref").and_then(Value::as_str).map(str::to_string) else {
        return;
    };
    if is_component(&target) {
        return;
    }
    let Some(mut pointer) = target.strip_prefix('#').map(str::to_string) else {
        return;
    };
    // A reference to a reference (Linode's `DatabaseMySQL/properties/x`
    // is `Database/properties/x`): followed to the schema at the end of
    // the chain, or to the component it reaches.
    let mut hops = 0;
    let to = loop {
        let Some(found) = pointed(foreign.doc, &pointer) else {
            return;
        };
        match found.get("$ref").and_then(Value::as_str) {
            Some(inner) if is_component(inner) => break inner.to_string(),
            Some(inner) if hops < MAX_HOPS && inner.starts_with('#') => {
                pointer = inner[1..].to_string();
                hops += 1;
            }
            Some(_) => return,
            None if found.is_mapping() => break format!("#/components/schemas/{}", foreign.hoisted(&pointer)),
            None => return,
        }
    };
    map.insert("$ref".into(), Value::String(to.clone()));
    note(
        format!("{at}.$ref"),
        &format!("a reference to `{target}`, not to a component schema: read as the schema there, `{to}`"),
    );
}
