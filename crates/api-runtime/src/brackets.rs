//! Bracket notation: how OpenAPI's `deepObject` style writes a structured
//! value into `name=value` pairs, as Stripe's, Rails' and PHP's forms and
//! queries do: `created[gt]=1` is an object's property, `expand[]=a` a
//! list's item, `items[0][price]=p` an indexed item, nested to any depth;
//! `created=1` is the value itself.
//!
//! The pairs make a tree of texts ([`Tree`]). The schema then says what
//! each text is (an integer where it says `integer`, text where a choice
//! allows text) and whether keys that are indexes make a list, so that
//! the value is validated exactly as the same value sent as JSON would be.
//! A text the schema's one scalar type cannot read is refused, naming
//! where it is.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::contract::Scalar;
use crate::schema_walk::{ANY, Walker};
use crate::values::{quote, read_scalar};

/// Deeper names are refused rather than followed: no schema a designer
/// writes nests this far, and the reading is recursive.
const MAX_DEPTH: usize = 32;

/// A name in bracket notation, split: `items[0][price]` is `items` and
/// `["0", "price"]`; `[]` is an empty key. `None` when the name has no
/// brackets, or brackets that do not close.
pub(crate) fn split(name: &str) -> Option<(&str, Vec<&str>)> {
    let open = name.find('[')?;
    let (base, mut rest) = name.split_at(open);
    let mut keys = Vec::new();
    while let Some(inner) = rest.strip_prefix('[') {
        let close = inner.find(']')?;
        keys.push(&inner[..close]);
        rest = &inner[close + 1..];
    }
    (rest.is_empty() && !base.is_empty()).then_some((base, keys))
}

/// The texts of one value, as its pairs' names arrange them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tree {
    Text(String),
    /// Keyed children (`[key]`), by key: found in logarithmic time, so
    /// that a body of many pairs costs no more than their number says (a
    /// JSON object has no order; indexes are sorted as numbers).
    Keys(BTreeMap<String, Tree>),
    /// Appended children (`[]`), or a name given more than once.
    Items(Vec<Tree>),
}

impl Tree {
    /// Adds the pair whose name's keys (after the value's own name) are
    /// `keys`, into the value in `slot`.
    pub(crate) fn add(slot: &mut Option<Tree>, keys: &[&str], text: &str) -> Result<(), String> {
        if keys.len() > MAX_DEPTH {
            return Err(format!("is nested deeper than {MAX_DEPTH} brackets"));
        }
        let Some((key, rest)) = keys.split_first() else {
            return match slot.take() {
                None => {
                    *slot = Some(Tree::Text(text.to_string()));
                    Ok(())
                }
                // Given again: a list of its texts.
                Some(Tree::Text(first)) => {
                    *slot = Some(Tree::Items(vec![Tree::Text(first), Tree::Text(text.to_string())]));
                    Ok(())
                }
                Some(Tree::Items(mut items)) => {
                    items.push(Tree::Text(text.to_string()));
                    *slot = Some(Tree::Items(items));
                    Ok(())
                }
                Some(keyed @ Tree::Keys(_)) => {
                    *slot = Some(keyed);
                    Err("is given both as a value and as properties".into())
                }
            };
        };
        if key.is_empty() {
            let mut items = match slot.take() {
                None => Vec::new(),
                Some(Tree::Items(items)) => items,
                Some(text @ Tree::Text(_)) => vec![text],
                Some(keyed @ Tree::Keys(_)) => {
                    *slot = Some(keyed);
                    return Err("is given both as properties and as a list's items".into());
                }
            };
            // Each `[]` with keys after it starts an item of its own.
            let mut item = None;
            let added = Tree::add(&mut item, rest, text);
            items.extend(item);
            *slot = Some(Tree::Items(items));
            return added;
        }
        let mut children = match slot.take() {
            None => BTreeMap::new(),
            Some(Tree::Keys(children)) => children,
            Some(other) => {
                *slot = Some(other);
                return Err("is given both as a value and as properties".into());
            }
        };
        let mut child = children.remove(*key);
        let added = Tree::add(&mut child, rest, text);
        if let Some(child) = child {
            children.insert(key.to_string(), child);
        }
        *slot = Some(Tree::Keys(children));
        added
    }
}

/// What a schema's value may be, its choices' (`anyOf`, `oneOf`) and
/// parts' (`allOf`) gathered.
#[derive(Default)]
struct Kinds<'s> {
    /// Object schemas, for their properties.
    objects: Vec<&'s Value>,
    /// List schemas' `items`.
    items: Vec<&'s Value>,
    scalars: Vec<Scalar>,
    /// Whether some choice allows anything.
    any: bool,
}

impl<'s> Kinds<'s> {
    fn of(walker: &Walker, schema: &'s Value) -> Kinds<'s> {
        let mut kinds = Kinds::default();
        kinds.gather(walker, schema, 0);
        kinds.scalars.sort_by_key(|scalar| *scalar as u8);
        kinds.scalars.dedup();
        if kinds.objects.is_empty() && kinds.items.is_empty() && kinds.scalars.is_empty() {
            kinds.any = true;
        }
        kinds
    }

    fn gather(&mut self, walker: &Walker, schema: &'s Value, depth: usize) {
        let schema = walker.resolve(schema);
        if depth > MAX_DEPTH {
            self.any = true;
            return;
        }
        let types: Vec<&str> = match schema.get("type") {
            Some(Value::String(ty)) => vec![ty.as_str()],
            Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        for ty in &types {
            match *ty {
                "object" => self.objects.push(schema),
                "array" => self.items.push(schema.get("items").unwrap_or(&ANY)),
                "integer" => self.scalars.push(Scalar::Integer),
                "number" => self.scalars.push(Scalar::Number),
                "boolean" => self.scalars.push(Scalar::Boolean),
                "string" => self.scalars.push(Scalar::String),
                _ => {}
            }
        }
        if types.is_empty() {
            let has = |key: &str| schema.get(key).is_some();
            if has("properties") || has("additionalProperties") || has("patternProperties") {
                self.objects.push(schema);
            }
            if let Some(items) = schema.get("items") {
                self.items.push(items);
            }
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            for branch in schema.get(key).and_then(Value::as_array).into_iter().flatten() {
                self.gather(walker, branch, depth + 1);
            }
        }
        if schema.as_object().is_some_and(|map| map.is_empty()) || schema == &Value::Bool(true) {
            self.any = true;
        }
    }

    /// The schema of the property `key` in the first object choice that
    /// names it.
    fn named_property(&self, walker: &Walker, key: &str) -> Option<&'s Value> {
        self.objects.iter().find_map(|object| {
            let mut properties = Vec::new();
            walker.properties(object, &mut properties);
            properties
                .into_iter()
                .find(|(name, _)| *name == key)
                .map(|(_, schema)| schema)
        })
    }

    /// The schema of an object's property `key`: the first object choice
    /// that names it, else one's `additionalProperties`.
    fn property(&self, walker: &Walker, key: &str) -> &'s Value {
        if let Some(schema) = self.named_property(walker, key) {
            return schema;
        }
        let additional = self.objects.iter().find_map(|object| {
            walker
                .resolve(object)
                .get("additionalProperties")
                .filter(|a| a.is_object())
        });
        additional.unwrap_or(&ANY)
    }
}

/// The schema of the property `key` where an object choice of `schema`
/// names it; `None` where only `additionalProperties` (or nothing) would
/// allow it.
pub(crate) fn named_property<'s>(walker: &Walker, schema: &'s Value, key: &str) -> Option<&'s Value> {
    Kinds::of(walker, schema).named_property(walker, key)
}

/// The schema of the property `key` of an object of `schema` (of the
/// first of its choices that names it), or one that allows anything.
pub(crate) fn property_schema<'s>(walker: &Walker, schema: &'s Value, key: &str) -> &'s Value {
    Kinds::of(walker, schema).property(walker, key)
}

/// The value `tree` is, read by `schema`; where it is not (a JSON
/// pointer into the value) and why otherwise. The tree is no deeper than
/// [`MAX_DEPTH`] ([`Tree::add`]), and so is the reading.
pub(crate) fn read(walker: &Walker, tree: Tree, schema: &Value) -> Result<Value, (String, String)> {
    read_at(walker, tree, schema, &mut String::new())
}

fn read_at(walker: &Walker, tree: Tree, schema: &Value, pointer: &mut String) -> Result<Value, (String, String)> {
    let kinds = Kinds::of(walker, schema);
    let child = |tree: Tree, schema: &Value, key: &str, pointer: &mut String| {
        let length = pointer.len();
        pointer.push('/');
        pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
        let value = read_at(walker, tree, schema, pointer);
        pointer.truncate(length);
        value
    };
    match tree {
        Tree::Text(text) => match (kinds.scalars.as_slice(), kinds.items.first()) {
            ([one], _) if !kinds.any => {
                read_scalar(&text, *one).map_err(|why| (pointer.clone(), format!("{} {why}", quote(&text))))
            }
            ([], Some(items)) if !kinds.any => Ok(Value::Array(vec![child(Tree::Text(text), items, "0", pointer)?])),
            ([], _) => Ok(Value::String(text)),
            // A choice of scalar types (or of anything): a number or a
            // boolean where the text is one, text otherwise.
            (_, _) => read_scalar(&text, Scalar::Any).map_err(|why| (pointer.clone(), why)),
        },
        Tree::Items(items) => {
            let schema = kinds.items.first().copied().unwrap_or(&ANY);
            let items = items.into_iter().enumerate();
            let values = items.map(|(index, item)| child(item, schema, &index.to_string(), pointer));
            values.collect::<Result<_, _>>().map(Value::Array)
        }
        Tree::Keys(children) => {
            let indexed = children.iter().all(|(key, _)| key.parse::<usize>().is_ok());
            if indexed && kinds.objects.is_empty() && !kinds.items.is_empty() {
                let schema = kinds.items[0];
                let mut children: Vec<(String, Tree)> = children.into_iter().collect();
                children.sort_by_key(|(key, _)| key.parse::<usize>().unwrap_or(usize::MAX));
                let values = children
                    .into_iter()
                    .map(|(key, item)| child(item, schema, &key, pointer));
                return values.collect::<Result<_, _>>().map(Value::Array);
            }
            let mut object = Map::new();
            for (key, value) in children {
                let schema = kinds.property(walker, &key);
                let value = child(value, schema, &key, pointer)?;
                object.insert(key, value);
            }
            Ok(Value::Object(object))
        }
    }
}

#[cfg(test)]
mod tests;
