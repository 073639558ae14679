//! Form bodies (`application/x-www-form-urlencoded`) read into the JSON
//! object their schema describes, by the kind of each field the table
//! names (`FormField`): pairs of text become scalars, lists and objects.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::map::Entry;
use serde_json::{Map, Value};

use crate::brackets::{self, Tree};
use crate::contract::{Body, FormField, FormItem, Scalar};
use crate::rejection::Rejection;
use crate::schema_walk::Walker;
use crate::values::{quote, read_scalar};

/// A form body as the JSON object its schema describes: each field read
/// by its kind (a scalar given once, a list as repeated pairs, an object
/// as JSON text or as its properties' own pairs). A field the schema does
/// not name stays text, and a list of texts when it is repeated; the
/// schema says whether it may be there.
pub(crate) fn read_form(spec: &Body, bytes: &[u8]) -> Result<Value, Rejection> {
    read_fields(spec, form_urlencoded::parse(bytes))
}

/// Named texts (a form's pairs, a multipart body's text parts) as the
/// JSON object the body's schema describes, each read by its field's
/// kind as [`read_form`] says.
pub(crate) fn read_fields<'a>(
    spec: &Body,
    pairs: impl IntoIterator<Item = (Cow<'a, str>, Cow<'a, str>)>,
) -> Result<Value, Rejection> {
    let mut object = Map::new();
    let field_of = |name: &str| {
        spec.form_fields
            .iter()
            .find(|(field, _)| *field == name)
            .map(|(_, f)| *f)
    };
    // Fields in bracket notation (`card[number]=4242`, `expand[]=a`), as
    // the `deepObject` encoding writes them: the pairs of each field,
    // read by the field's schema once all of them are in.
    let mut deep: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for (name, text) in pairs {
        if field_of(&name).is_none()
            && let Some((base, _)) = brackets::split(&name)
        {
            let pairs = deep.entry(base.to_string()).or_default();
            pairs.push((name.to_string(), text.into_owned()));
            continue;
        }
        let invalid =
            |reason: String| Rejection::invalid_body(format!("form field `{name}`: {} {reason}", quote(&text)));
        let field = field_of(&name);
        let (value, list) = match field {
            Some(FormField::One(scalar)) => (read_scalar(&text, scalar).map_err(invalid)?, false),
            Some(FormField::List { items, .. }) => (read_item(&text, items).map_err(invalid)?, true),
            Some(FormField::Object(_) | FormField::Any) => (json_or_text(&text), false),
            None => match exploded_property(spec, &name) {
                // An object's property, given as a pair of its own.
                Some((owner, scalar)) => {
                    let value = read_scalar(&text, scalar).map_err(invalid)?;
                    let owner = object.entry(owner).or_insert_with(|| Value::Object(Map::new()));
                    match owner.as_object_mut().map(|o| o.insert(name.to_string(), value)) {
                        Some(None) => continue,
                        _ => {
                            return Err(Rejection::invalid_body(format!(
                                "form field `{name}` is given more than once, or beside its object's JSON"
                            )));
                        }
                    }
                }
                None => (Value::String(text.to_string()), false),
            },
        };
        match object.entry(name.as_ref()) {
            Entry::Vacant(slot) => {
                slot.insert(match list {
                    true => Value::Array(vec![value]),
                    false => value,
                });
            }
            Entry::Occupied(mut slot) => match (slot.get_mut(), field) {
                (Value::Array(items), Some(_)) if list => items.push(value),
                // An unnamed field given again is a list of its texts.
                (Value::Array(items), None) => items.push(value),
                (single, None) => *single = Value::Array(vec![single.take(), value]),
                _ => {
                    return Err(Rejection::invalid_body(format!(
                        "form field `{name}` is given more than once"
                    )));
                }
            },
        }
    }
    let walker = Walker::new(spec.schema.components());
    for (name, pairs) in deep {
        let body = spec.schema.doc_value();
        match brackets::named_property(&walker, body, &name) {
            Some(_) if object.contains_key(&name) => {
                return Err(Rejection::invalid_body(format!(
                    "form field `{name}` is given both as itself and in brackets"
                )));
            }
            Some(schema) => {
                let value = read_bracketed(&walker, &pairs, schema)
                    .map_err(|(pointer, why)| Rejection::invalid_body(format!("form field `{name}{pointer}` {why}")))?;
                object.insert(name, value);
            }
            // A field the schema does not name may itself be called
            // `a[b]`, as an additional property may: its pairs are read
            // in brackets where that is the one reading (the field is not
            // also given as itself, and the brackets make one value),
            // else as the names they are; the schema says whether either
            // may be there.
            None => {
                let schema = brackets::property_schema(&walker, body, &name);
                match read_bracketed(&walker, &pairs, schema) {
                    Ok(value) if !object.contains_key(&name) => {
                        object.insert(name, value);
                    }
                    _ => {
                        for (literal, text) in pairs {
                            add_text(&mut object, literal, text);
                        }
                    }
                }
            }
        }
    }
    for (name, field) in spec.form_fields {
        if let FormField::List { required: true, .. } = field {
            object.entry(*name).or_insert_with(|| Value::Array(Vec::new()));
        }
    }
    Ok(Value::Object(object))
}

/// The value one field's pairs in bracket notation make, read by the
/// field's `schema`; where they do not (in brackets, `[0][price]`) and
/// why otherwise.
fn read_bracketed(walker: &Walker, pairs: &[(String, String)], schema: &Value) -> Result<Value, (String, String)> {
    let mut tree = None;
    for (name, text) in pairs {
        let keys = brackets::split(name).map(|(_, keys)| keys).unwrap_or_default();
        Tree::add(&mut tree, &keys, text).map_err(|why| (String::new(), why))?;
    }
    let tree = tree.unwrap_or(Tree::Items(Vec::new()));
    brackets::read(walker, tree, schema).map_err(|(pointer, why)| (bracketed(&pointer), format!(": {why}")))
}

/// A field the schema does not name, given as text: a list of its texts
/// where it is given again.
fn add_text(object: &mut Map<String, Value>, name: String, text: String) {
    match object.entry(name) {
        Entry::Vacant(slot) => {
            slot.insert(Value::String(text));
        }
        Entry::Occupied(mut slot) => match slot.get_mut() {
            Value::Array(items) => items.push(Value::String(text)),
            single => *single = Value::Array(vec![single.take(), Value::String(text)]),
        },
    }
}

/// A JSON pointer into a field's value as the brackets that name it
/// (`/0/price` is `[0][price]`).
fn bracketed(pointer: &str) -> String {
    let keys = pointer.split('/').skip(1);
    keys.map(|key| format!("[{}]", key.replace("~1", "/").replace("~0", "~")))
        .collect()
}

fn read_item(text: &str, items: FormItem) -> Result<Value, String> {
    match items {
        FormItem::Scalar(scalar) => read_scalar(text, scalar),
        FormItem::Any => Ok(json_or_text(text)),
    }
}

/// The object field (and the property's type) that a pair named `name`
/// belongs to when the object is written as its properties' own pairs;
/// never a name the form itself has.
fn exploded_property(spec: &Body, name: &str) -> Option<(&'static str, Scalar)> {
    spec.form_fields.iter().find_map(|(field, kind)| match kind {
        FormField::Object(properties) => properties
            .iter()
            .find(|(property, _)| *property == name)
            .map(|(_, scalar)| (*field, *scalar)),
        _ => None,
    })
}

/// A form field's text as JSON when it is an object or an array (how a
/// structured value travels in a form), as a string otherwise.
fn json_or_text(text: &str) -> Value {
    match serde_json::from_str::<Value>(text) {
        Ok(value @ (Value::Object(_) | Value::Array(_))) => value,
        _ => Value::String(text.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::BodyKind;

    fn body(kind: BodyKind, media_type: &'static str) -> Body {
        Body {
            form_fields: &[
                ("n", FormField::One(Scalar::Integer)),
                ("tag", FormField::One(Scalar::String)),
                (
                    "ids",
                    FormField::List {
                        items: FormItem::Scalar(Scalar::Integer),
                        required: true,
                    },
                ),
                ("nested", FormField::Object(&[("weekly", Scalar::Boolean)])),
                (
                    "fields",
                    FormField::List {
                        items: FormItem::Any,
                        required: false,
                    },
                ),
            ],
            ..Body::for_tests(kind, media_type)
        }
    }

    #[test]
    fn forms_read_each_field_as_its_type() {
        let form = body(BodyKind::Form, "application/x-www-form-urlencoded");
        assert_eq!(
            read_form(&form, b"n=3&tag=a&note=hi+there").unwrap(),
            serde_json::json!({"n": 3, "tag": "a", "note": "hi there", "ids": []}),
            "a required list that is absent is empty"
        );
        assert!(
            read_form(&form, b"n=x")
                .unwrap_err()
                .problem
                .message
                .contains("form field `n`")
        );
        assert!(read_form(&form, b"n=1&n=2").is_err());
    }

    #[test]
    fn forms_carry_lists_and_objects() {
        let form = body(BodyKind::Form, "application/x-www-form-urlencoded");
        let read = read_form(
            &form,
            b"ids=1&ids=2&nested=%7B%22a%22%3A1%7D&fields=%7B%22l%22%3A%22x%22%7D&fields=plain&extra=a&extra=b",
        )
        .unwrap();
        assert_eq!(
            read,
            serde_json::json!({
                "ids": [1, 2],
                "nested": {"a": 1},
                "fields": [{"l": "x"}, "plain"],
                "extra": ["a", "b"],
            })
        );
        assert_eq!(read_form(&form, b"ids=7").unwrap(), serde_json::json!({"ids": [7]}));
        assert_eq!(
            read_form(&form, b"weekly=true").unwrap(),
            serde_json::json!({"nested": {"weekly": true}, "ids": []}),
            "an object's properties as pairs of their own (style: form, explode: true)"
        );
        assert!(read_form(&form, b"nested=%7B%22weekly%22%3Afalse%7D&weekly=true").is_err());
        assert!(read_form(&form, b"weekly=true&nested=%7B%7D").is_err());
        assert!(
            read_form(&form, b"ids=1&ids=x")
                .unwrap_err()
                .problem
                .message
                .contains("`ids`")
        );
        assert_eq!(
            read_form(&form, b"nested=not+json").unwrap(),
            serde_json::json!({"nested": "not json", "ids": []}),
            "the schema then says it is not an object"
        );
    }

    #[test]
    fn fields_in_bracket_notation_are_read_by_their_schema() {
        static COMPONENTS: crate::schema::Components = crate::schema::Components::new(&[]);
        static CHARGE: crate::schema::Schema = crate::schema::Schema::new(
            &COMPONENTS,
            r#"{"type": "object", "properties": {
                "card": {"type": "object", "properties": {"exp_month": {"type": "integer"}}},
                "expand": {"type": "array", "items": {"type": "string"}},
                "metadata": {"anyOf": [{"type": "object", "additionalProperties": {"type": "string"}},
                                       {"type": "string", "enum": [""]}]}}}"#,
            None,
        );
        let form = Body {
            schema: &CHARGE,
            form_fields: &[(
                "expand",
                FormField::List {
                    items: FormItem::Scalar(Scalar::String),
                    required: false,
                },
            )],
            ..Body::for_tests(BodyKind::Form, "application/x-www-form-urlencoded")
        };
        assert_eq!(
            read_form(
                &form,
                b"card%5Bexp_month%5D=12&card[number]=4242&expand[]=a&expand[]=b&metadata[k]=v"
            )
            .unwrap(),
            serde_json::json!({
                "card": {"exp_month": 12, "number": "4242"},
                "expand": ["a", "b"],
                "metadata": {"k": "v"},
            })
        );
        assert_eq!(
            read_form(&form, b"metadata=").unwrap(),
            serde_json::json!({"metadata": ""}),
            "a field's own pair is read as before"
        );
        let month = read_form(&form, b"card[exp_month]=May").unwrap_err().problem.message;
        assert!(month.contains("form field `card[exp_month]`"), "{month}");
        let both = read_form(&form, b"metadata=&metadata[k]=v")
            .unwrap_err()
            .problem
            .message;
        assert!(both.contains("both as itself and in brackets"), "{both}");
        let empty_key = read_form(&form, b"card[x][]=1&card[x][y]=2")
            .unwrap_err()
            .problem
            .message;
        assert!(empty_key.contains("form field `card` is given both"), "{empty_key}");
    }

    #[test]
    fn fields_the_schema_does_not_name_keep_names_that_brackets_cannot_read() {
        static COMPONENTS: crate::schema::Components = crate::schema::Components::new(&[]);
        static PET: crate::schema::Schema = crate::schema::Schema::new(
            &COMPONENTS,
            r#"{"type": "object", "properties": {"name": {"type": "string"}}}"#,
            None,
        );
        let form = Body {
            schema: &PET,
            ..Body::for_tests(BodyKind::Form, "application/x-www-form-urlencoded")
        };
        assert_eq!(
            read_form(&form, b"name=rex&extra[a]=1&extra[b][]=2").unwrap(),
            serde_json::json!({"name": "rex", "extra": {"a": "1", "b": ["2"]}}),
            "an additional property in brackets is read as one"
        );
        // An empty key beside named ones (`{"": 1, "b": 2}` written in
        // brackets) is no one reading of brackets: the names are kept.
        assert_eq!(
            read_form(&form, b"name=rex&x[o][]=1&x[o][b]=2&x[o][b]=3").unwrap(),
            serde_json::json!({"name": "rex", "x[o][]": "1", "x[o][b]": ["2", "3"]}),
        );
        assert_eq!(
            read_form(&form, b"x=%7B%22a%22%3A1%7D&x[a]=1").unwrap(),
            serde_json::json!({"x": "{\"a\":1}", "x[a]": "1"}),
            "a field given as itself and in brackets"
        );
    }
}
