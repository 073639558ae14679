//! Unit tests of XML bodies: lists wrapped or not, attributes, names from `xml` objects.

use super::*;
use crate::schema::ComponentSchema;
use crate::schema::Components;

static COMPONENTS: Components = Components::new(&[
    ComponentSchema {
        name: "Pet",
        doc: r##"{"type":"object","required":["name","photoUrls"],"xml":{"name":"pet"},"properties":{
            "id":{"type":"integer","xml":{"attribute":true}},
            "name":{"type":"string"},
            "category":{"$ref":"#/components/schemas/Category"},
            "photoUrls":{"type":"array","xml":{"wrapped":true},"items":{"type":"string","xml":{"name":"photoUrl"}}},
            "tags":{"type":"array","items":{"$ref":"#/components/schemas/Tag"}},
            "vaccinated":{"type":"boolean"}}}"##,
        validation: "{}",
    },
    ComponentSchema {
        name: "Category",
        doc: r#"{"type":"object","xml":{"name":"category"},"properties":{"id":{"type":"integer"},"name":{"type":"string"}}}"#,
        validation: "{}",
    },
    ComponentSchema {
        name: "Tag",
        doc: r#"{"type":"object","xml":{"name":"tag"},"properties":{"name":{"type":"string"}}}"#,
        validation: "{}",
    },
]);
static PET: Schema = Schema::new(&COMPONENTS, r##"{"$ref":"#/components/schemas/Pet"}"##, None);

fn read(xml: &str) -> Result<Value, String> {
    read_xml(&PET, xml.as_bytes()).map_err(|rejection| rejection.problem.message)
}

#[test]
fn elements_attributes_and_lists_are_read_by_the_schema() {
    let pet = read(
        r#"<?xml version="1.0" encoding="UTF-8"?>
        <pet id="10">
          <name>doggie &amp; co</name>
          <category><id> 1 </id><name>Dogs</name></category>
          <photoUrls><photoUrl>a.png</photoUrl><photoUrl><![CDATA[b<1>.png]]></photoUrl></photoUrls>
          <tag><name>good</name></tag><tag><name>boy</name></tag>
          <vaccinated>true</vaccinated>
        </pet>"#,
    )
    .unwrap();
    assert_eq!(
        pet,
        serde_json::json!({
            "id": 10,
            "name": "doggie & co",
            "category": {"id": 1, "name": "Dogs"},
            "photoUrls": ["a.png", "b<1>.png"],
            "tags": [{"name": "good"}, {"name": "boy"}],
            "vaccinated": true,
        })
    );
    // An empty wrapper is an empty list; absent elements are absent.
    assert_eq!(
        read("<pet><name>x</name><photoUrls/></pet>").unwrap(),
        serde_json::json!({"name": "x", "photoUrls": []})
    );
}

#[test]
fn unknown_elements_are_kept_for_the_schema_to_judge() {
    assert_eq!(
        read("<pet><name>x</name><owner><name>Ann</name></owner><nick>a</nick><nick>b</nick></pet>").unwrap(),
        serde_json::json!({"name": "x", "owner": {"name": "Ann"}, "nick": ["a", "b"]})
    );
}

#[test]
fn what_does_not_fit_is_refused_with_its_place() {
    let refused = |xml: &str| read(xml).unwrap_err();
    assert!(refused("<pet><name>x</name>").contains("not well-formed XML"));
    assert!(
        refused("<pet id=\"ten\"/>").contains("`/pet/@id`"),
        "{}",
        refused("<pet id=\"ten\"/>")
    );
    let twice = refused("<pet><name>x</name><name>y</name></pet>");
    assert!(twice.contains("`/pet/name` is given more than once"), "{twice}");
    let in_list = refused("<pet><name>x</name><photoUrls>a</photoUrls></pet>");
    assert!(
        in_list.contains("`/pet/photoUrls`: text \"a\" where the schema wants a list"),
        "{in_list}"
    );
    let text = refused("<pet>true</pet>");
    assert!(
        text.contains("`/pet`: text \"true\" where the schema wants an object"),
        "{text}"
    );
    let not_integer = refused("<pet><category><id>one</id></category></pet>");
    assert!(not_integer.contains("`/pet/category/id`"), "{not_integer}");
    let dtd = refused(r#"<!DOCTYPE pet [<!ENTITY a "aaaa">]><pet><name>&a;</name></pet>"#);
    assert!(dtd.contains("not well-formed XML"), "{dtd}");
    let deep = format!("<pet>{}{}</pet>", "<a>".repeat(200), "</a>".repeat(200));
    assert!(
        read(&deep).is_ok_and(|v| v.is_object()),
        "deep untyped elements are cut, not followed"
    );
}
