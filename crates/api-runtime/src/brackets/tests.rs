//! Unit tests of bracket notation: names split into keys, pairs into a tree, the tree read by its schema.

use serde_json::{Value, json};

use super::*;
use crate::schema::{ComponentSchema, Components};

static COMPONENTS: Components = Components::new(&[ComponentSchema {
    name: "Range",
    doc: r#"{"type": "object", "properties": {"gt": {"type": "integer"}, "lt": {"type": "integer"}}}"#,
    validation: "{}",
}]);

/// The value the pairs of `query` named `name` make, read by `schema`.
fn read_query(name: &str, query: &str, schema: Value) -> Result<Value, (String, String)> {
    let mut tree = None;
    for (pair, text) in form_urlencoded::parse(query.as_bytes()) {
        let keys = match split(&pair) {
            Some((base, keys)) if base == name => keys,
            None if pair == name => Vec::new(),
            _ => continue,
        };
        Tree::add(&mut tree, &keys, &text).map_err(|why| (String::new(), why))?;
    }
    read(&Walker::new(&COMPONENTS), tree.expect("a pair"), &schema)
}

#[test]
fn names_split_into_their_keys() {
    assert_eq!(split("items[0][price]"), Some(("items", vec!["0", "price"])));
    assert_eq!(split("expand[]"), Some(("expand", vec![""])));
    assert_eq!(split("plain"), None);
    assert_eq!(split("open[a"), None);
    assert_eq!(split("after[a]b"), None);
    assert_eq!(split("[a]"), None);
}

#[test]
fn a_choice_of_an_object_and_a_scalar_reads_either() {
    // Stripe's `created`: a timestamp, or a range of them.
    let created = json!({"anyOf": [{"$ref": "#/components/schemas/Range"}, {"type": "integer"}]});
    assert_eq!(read_query("created", "created=5", created.clone()), Ok(json!(5)));
    assert_eq!(
        read_query("created", "created%5Bgt%5D=1&created[lt]=9", created.clone()),
        Ok(json!({"gt": 1, "lt": 9}))
    );
    let (pointer, why) = read_query("created", "created[gt]=soon", created.clone()).unwrap_err();
    assert_eq!(pointer, "/gt");
    assert!(why.contains("\"soon\" is not an integer"), "{why}");
    let (_, twice) = read_query("created", "created=5&created[gt]=1", created).unwrap_err();
    assert!(twice.contains("both as a value and as properties"), "{twice}");
}

#[test]
fn lists_are_appended_or_indexed() {
    let expand = json!({"type": "array", "items": {"type": "string"}});
    assert_eq!(
        read_query("expand", "expand[]=a&expand[]=b", expand.clone()),
        Ok(json!(["a", "b"]))
    );
    assert_eq!(read_query("expand", "expand=a", expand.clone()), Ok(json!(["a"])));
    assert_eq!(
        read_query("expand", "expand[1]=b&expand[0]=a", expand),
        Ok(json!(["a", "b"]))
    );
    let items = json!({"type": "array", "items": {"type": "object", "properties": {
        "price": {"type": "string"}, "quantity": {"type": "integer"}}}});
    assert_eq!(
        read_query(
            "items",
            "items[0][price]=p1&items[0][quantity]=2&items[1][price]=p2",
            items
        ),
        Ok(json!([{"price": "p1", "quantity": 2}, {"price": "p2"}]))
    );
}

#[test]
fn nested_objects_read_each_property_by_its_schema() {
    let card = json!({"type": "object", "properties": {
        "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
        "address": {"allOf": [{"type": "object", "properties": {"zip": {"type": "string"}}}]},
        "default": {"type": "boolean"}}});
    assert_eq!(
        read_query(
            "card",
            "card[metadata][n]=1&card[address][zip]=02134&card[default]=true&card[other]=7",
            card.clone()
        ),
        Ok(json!({"metadata": {"n": "1"}, "address": {"zip": "02134"}, "default": true, "other": "7"}))
    );
    let (pointer, _) = read_query("card", "card[default]=yes", card).unwrap_err();
    assert_eq!(pointer, "/default");
}

#[test]
fn texts_of_no_one_type_read_as_what_they_look_like() {
    let either = json!({"anyOf": [{"type": "string", "enum": [""]}, {"type": "integer"}]});
    assert_eq!(read_query("n", "n=", either.clone()), Ok(json!("")));
    assert_eq!(read_query("n", "n=4", either), Ok(json!(4)));
    assert_eq!(read_query("free", "free[a]=1", json!({})), Ok(json!({"a": "1"})));
    // A value given twice is a list of its texts, for the schema to judge.
    assert_eq!(read_query("v", "v=a&v=b", json!({})), Ok(json!(["a", "b"])));
}

#[test]
fn depth_is_bounded() {
    let name = format!("deep{}", "[a]".repeat(MAX_DEPTH + 1));
    let (_, why) = read_query("deep", &format!("{name}=1"), json!({})).unwrap_err();
    assert!(why.contains("deeper than"), "{why}");
}
