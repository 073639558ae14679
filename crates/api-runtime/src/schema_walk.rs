//! A schema's documentation form walked at run time: `$ref`s followed to
//! the contract's components, an object's properties gathered from its
//! `allOf` parts. What values that travel as text of another shape than
//! JSON (XML elements, bracket-notation pairs) are read by, so that each
//! text becomes the JSON value the schema says it is.

use serde_json::Value;

use crate::schema::Components;

/// `$ref` chains longer than this are a broken contract, not a request's
/// fault; they read as a schema that allows anything.
const MAX_REFERENCES: usize = 16;

const COMPONENTS_PREFIX: &str = "#/components/schemas/";

/// The schema that allows anything, for what cannot be resolved.
pub(crate) static ANY: Value = Value::Bool(true);

/// Follows references to one contract's components.
#[derive(Clone, Copy)]
pub(crate) struct Walker {
    components: &'static Components,
}

impl Walker {
    pub(crate) fn new(components: &'static Components) -> Self {
        Walker { components }
    }

    /// `schema` with its `$ref`s followed.
    pub(crate) fn resolve<'s>(&self, mut schema: &'s Value) -> &'s Value {
        for _ in 0..MAX_REFERENCES {
            let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
                return schema;
            };
            match reference
                .strip_prefix(COMPONENTS_PREFIX)
                .and_then(|name| self.components.doc_value(name))
            {
                Some(target) => schema = target,
                None => return &ANY,
            }
        }
        &ANY
    }

    /// An object's properties, its `allOf` parts' included.
    pub(crate) fn properties<'s>(&self, schema: &'s Value, into: &mut Vec<(&'s str, &'s Value)>) {
        self.properties_within(schema, into, 0);
    }

    fn properties_within<'s>(&self, schema: &'s Value, into: &mut Vec<(&'s str, &'s Value)>, depth: usize) {
        if depth > MAX_REFERENCES {
            return;
        }
        let own = schema
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten();
        into.extend(own.map(|(name, property)| (name.as_str(), property)));
        for part in schema.get("allOf").and_then(Value::as_array).into_iter().flatten() {
            self.properties_within(self.resolve(part), into, depth + 1);
        }
    }
}
