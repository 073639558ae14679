//! XML bodies (`application/xml`, `text/xml`, `application/*+xml`) read
//! into the JSON value their schema describes, by OpenAPI's `xml` object:
//! a property is a child element of its own name (or `xml.name`), or an
//! attribute (`xml.attribute`); a list is its items' elements, inside a
//! wrapper element when `xml.wrapped`. The value is then validated and
//! typed exactly as a JSON body is, so the handler cannot tell them apart.
//!
//! Reading is lenient about names where OpenAPI leaves room: the root
//! element may have any name, and a property's element may carry the
//! property's name, its own `xml.name`, or that of the schema it refers
//! to. An element no property names is kept under its own name as text
//! (or an object of its children), so the schema decides whether it may
//! be there, as for JSON.

use roxmltree::{Document, Node, ParsingOptions};
use serde_json::{Map, Value};

use crate::contract::Scalar;
use crate::rejection::Rejection;
use crate::schema::Schema;
use crate::schema_walk::{ANY, Walker};
use crate::values::read_scalar;

/// Deeper documents are refused rather than followed: the reading is
/// recursive, and no schema a designer writes nests this far.
const MAX_DEPTH: usize = 64;

/// The body as the JSON value its schema describes, or why it is not
/// well-formed XML of that shape.
pub(crate) fn read_xml(schema: &Schema, bytes: &[u8]) -> Result<Value, Rejection> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| Rejection::invalid_body(format!("the request body is not UTF-8: {e}")))?;
    // No DTD: a body has no business declaring entities (and so none can
    // expand into a bomb).
    let options = ParsingOptions {
        allow_dtd: false,
        ..ParsingOptions::default()
    };
    let document = Document::parse_with_options(text, options)
        .map_err(|e| Rejection::invalid_body(format!("the request body is not well-formed XML: {e}")))?;
    let root = document.root_element();
    let reader = Reader {
        walker: Walker::new(schema.components()),
    };
    reader.value(root, schema.doc_value(), &format!("/{}", root.tag_name().name()), 0)
}

struct Reader {
    walker: Walker,
}

impl Reader {
    fn resolve<'s>(&self, schema: &'s Value) -> &'s Value {
        self.walker.resolve(schema)
    }

    /// The element as a value of `schema`.
    fn value(&self, node: Node<'_, '_>, schema: &Value, path: &str, depth: usize) -> Result<Value, Rejection> {
        if depth > MAX_DEPTH {
            return Err(Rejection::invalid_body(format!(
                "XML element `{path}`: nested deeper than {MAX_DEPTH} elements"
            )));
        }
        let schema = self.resolve(schema);
        match self.shape(schema) {
            Shape::Object => self.object(node, schema, path, depth),
            Shape::Array => {
                loose_text(node, path, "a list's elements")?;
                let items = schema.get("items").unwrap_or(&ANY);
                let values = elements(node)
                    .map(|child| self.value(child, items, &child_path(path, child), depth + 1))
                    .collect::<Result<_, _>>()?;
                Ok(Value::Array(values))
            }
            Shape::Scalar(scalar) => read_text(&text(node), scalar, path),
            Shape::Any => Ok(untyped(node, depth)),
        }
    }

    /// What a schema's value is made of: its `type`, or what its keywords
    /// imply (`properties` or `allOf` an object, `items` an array).
    fn shape(&self, schema: &Value) -> Shape {
        match schema.get("type").and_then(Value::as_str) {
            Some("object") => Shape::Object,
            Some("array") => Shape::Array,
            Some("integer") => Shape::Scalar(Scalar::Integer),
            Some("number") => Shape::Scalar(Scalar::Number),
            Some("boolean") => Shape::Scalar(Scalar::Boolean),
            Some("string") => Shape::Scalar(Scalar::String),
            _ if schema.get("properties").is_some() || schema.get("allOf").is_some() => Shape::Object,
            _ if schema.get("items").is_some() => Shape::Array,
            _ => Shape::Any,
        }
    }

    fn object(&self, node: Node<'_, '_>, schema: &Value, path: &str, depth: usize) -> Result<Value, Rejection> {
        let mut properties = Vec::new();
        self.walker.properties(schema, &mut properties);
        let children: Vec<Node<'_, '_>> = elements(node).collect();
        let mut taken = vec![false; children.len()];
        let mut object = Map::new();
        for (name, property) in properties {
            let resolved = self.resolve(property);
            let xml = |key: &str| {
                let own = property.get("xml").and_then(|xml| xml.get(key));
                own.or_else(|| resolved.get("xml").and_then(|xml| xml.get(key)))
            };
            let own_name = property.pointer("/xml/name").and_then(Value::as_str);
            if xml("attribute").and_then(Value::as_bool) == Some(true) {
                if let Some(text) = node.attribute(own_name.unwrap_or(name)) {
                    let scalar = match self.shape(resolved) {
                        Shape::Scalar(scalar) => scalar,
                        _ => Scalar::String,
                    };
                    let at = format!("{path}/@{}", own_name.unwrap_or(name));
                    object.insert(name.to_string(), read_text(text, scalar, &at)?);
                }
                continue;
            }
            let referred_name = resolved.pointer("/xml/name").and_then(Value::as_str);
            let named = |child: &Node<'_, '_>, names: &[Option<&str>]| {
                let tag = child.tag_name().name();
                names.iter().flatten().any(|n| *n == tag)
            };
            let value = if self.shape(resolved) == Shape::Array && xml("wrapped").and_then(Value::as_bool) == Some(true)
            {
                let names = [own_name, Some(name)];
                match take_one(&children, &mut taken, |c| named(c, &names), path)? {
                    Some(wrapper) => Some(self.value(wrapper, resolved, &child_path(path, wrapper), depth + 1)?),
                    None => None,
                }
            } else if self.shape(resolved) == Shape::Array {
                // Unwrapped: the items' elements are the object's children.
                let items = resolved.get("items").unwrap_or(&ANY);
                let item_name = items.pointer("/xml/name").and_then(Value::as_str);
                let referred_item = self.resolve(items).pointer("/xml/name").and_then(Value::as_str);
                let names = [item_name, own_name, Some(name), referred_item];
                let mut values = Vec::new();
                for (child, taken) in children.iter().zip(taken.iter_mut()) {
                    if !*taken && named(child, &names) {
                        *taken = true;
                        values.push(self.value(*child, items, &child_path(path, *child), depth + 1)?);
                    }
                }
                (!values.is_empty()).then_some(Value::Array(values))
            } else {
                let names = [own_name, Some(name), referred_name];
                match take_one(&children, &mut taken, |c| named(c, &names), path)? {
                    Some(child) => Some(self.value(child, property, &child_path(path, child), depth + 1)?),
                    None => None,
                }
            };
            if let Some(value) = value {
                object.insert(name.to_string(), value);
            }
        }
        loose_text(node, path, "an object's elements")?;
        // Elements no property names: kept, for the schema to judge.
        let unnamed = children.iter().zip(&taken).filter(|(_, taken)| !**taken);
        let mut extra = Map::new();
        for (child, _) in unnamed {
            add(&mut extra, child.tag_name().name(), untyped(*child, depth + 1));
        }
        for (name, value) in extra {
            if object.contains_key(&name) {
                return Err(Rejection::invalid_body(format!(
                    "XML element `{path}/{name}` is given more than once"
                )));
            }
            object.insert(name, value);
        }
        Ok(Value::Object(object))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Object,
    Array,
    Scalar(Scalar),
    Any,
}

/// The one child that `matches`, marked taken; two are an error.
fn take_one<'a, 'i>(
    children: &[Node<'a, 'i>],
    taken: &mut [bool],
    matches: impl Fn(&Node<'a, 'i>) -> bool,
    path: &str,
) -> Result<Option<Node<'a, 'i>>, Rejection> {
    let mut found = None;
    for (child, taken) in children.iter().zip(taken.iter_mut()) {
        if *taken || !matches(child) {
            continue;
        }
        if found.is_some() {
            return Err(Rejection::invalid_body(format!(
                "XML element `{}` is given more than once",
                child_path(path, *child)
            )));
        }
        *taken = true;
        found = Some(*child);
    }
    Ok(found)
}

fn elements<'a, 'i>(node: Node<'a, 'i>) -> impl Iterator<Item = Node<'a, 'i>> {
    node.children().filter(Node::is_element)
}

fn child_path(path: &str, child: Node<'_, '_>) -> String {
    format!("{path}/{}", child.tag_name().name())
}

/// The element's text (CDATA included), its children's aside.
fn text(node: Node<'_, '_>) -> String {
    node.children().filter(Node::is_text).filter_map(|n| n.text()).collect()
}

/// Text beside the elements of an object or a list is no value's: refused,
/// so that `<tags>a</tags>` is not read as an empty list.
fn loose_text(node: Node<'_, '_>, path: &str, wanted: &str) -> Result<(), Rejection> {
    let loose = text(node);
    match loose.trim() {
        "" => Ok(()),
        loose => Err(Rejection::invalid_body(format!(
            "XML element `{path}`: text {} where the schema wants {wanted}",
            crate::values::quote(loose)
        ))),
    }
}

/// Text as a scalar: a string as it is; other types without the
/// whitespace XML documents indent with.
fn read_text(text: &str, scalar: Scalar, path: &str) -> Result<Value, Rejection> {
    let text = match scalar {
        Scalar::String => text,
        _ => text.trim(),
    };
    read_scalar(text, scalar)
        .map_err(|why| Rejection::invalid_body(format!("XML element `{path}`: {} {why}", crate::values::quote(text))))
}

/// An element no schema describes: its text, or an object of its child
/// elements (a name given again is a list).
fn untyped(node: Node<'_, '_>, depth: usize) -> Value {
    if depth > MAX_DEPTH || elements(node).next().is_none() {
        return Value::String(text(node));
    }
    let mut object = Map::new();
    for child in elements(node) {
        add(&mut object, child.tag_name().name(), untyped(child, depth + 1));
    }
    Value::Object(object)
}

/// Adds an element's value under its name: a name given again is a list.
fn add(object: &mut Map<String, Value>, name: &str, value: Value) {
    match object.get_mut(name) {
        None => {
            object.insert(name.to_string(), value);
        }
        Some(Value::Array(items)) => items.push(value),
        Some(single) => *single = Value::Array(vec![single.take(), value]),
    }
}

#[cfg(test)]
mod tests;
