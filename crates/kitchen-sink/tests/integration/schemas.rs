//! Schemas over HTTP, through the server's and the client's types: a
//! discriminated oneOf whose members overlap (`classifyPet`: a dog is a
//! valid cat by shape, so only `species`, with its mapping, tells them
//! apart; the layer validates the member the discriminator names and the
//! handler gets that member's variant), and a recursive schema whose
//! properties use schemas named as Rust's own types (`getCategoryTree`).

use crate::support::{Sink, send};
use kitchen_sink::client::types;
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn the_discriminator_names_the_member() {
    let sink = Sink::start().await;
    let classify = |body: serde_json::Value| {
        let sink = &sink;
        async move { send(sink.anonymous(Method::POST, "/pets/classify").json(&body)).await }
    };
    // Each value of the mapping, and a member left out of the mapping by
    // its schema's name. A plain oneOf would refuse every one of these
    // (both members match).
    for (species, kind) in [("Cat", "cat"), ("dog", "dog"), ("puppy", "dog")] {
        let answer = classify(json!({"species": species, "name": "Rex"})).await;
        assert_eq!(answer.status, 200, "{species}: {:?}", answer.body);
        assert_eq!(answer.body, json!({"kind": kind, "name": "Rex"}), "{species}");
    }
    // The named member's schema holds: a dog's name is not empty.
    let empty = classify(json!({"species": "dog", "name": ""})).await;
    empty.assert_error(400, "invalid_body", &["minLength"]);
    // A value the discriminator does not know, or none at all.
    let unknown = classify(json!({"species": "bird", "name": "Tweety"})).await;
    unknown.assert_error(400, "invalid_body", &["/species"]);
    let missing = classify(json!({"name": "Tweety"})).await;
    missing.assert_error(400, "invalid_body", &["species"]);

    // The client's types are the server's: the member by the property.
    let dog: types::Pet = serde_json::from_value(json!({"species": "puppy", "name": "Rex", "barks": true})).unwrap();
    assert!(matches!(dog, types::Pet::Dog { .. }), "{dog:?}");
    let answer = sink.client().classify_pet(&dog).await.unwrap().into_inner();
    assert_eq!(
        (answer.kind.to_string(), answer.name.as_str()),
        ("dog".to_string(), "Rex")
    );
    let cat: types::Pet = serde_json::from_value(json!({"species": "Cat", "name": "Tom"})).unwrap();
    assert!(matches!(cat, types::Pet::Cat { .. }), "{cat:?}");
    sink.stop().await;
}

/// A recursive schema (children, and a boxed parent) whose properties use
/// schemas named as Rust's own types (`Option`, `Result`): the server's
/// and the client's types hold it, and it travels whole.
#[tokio::test]
async fn a_recursive_schema_with_rust_names_round_trips() {
    let sink = Sink::start().await;
    let root = sink.client().get_category_tree().await.unwrap().into_inner();
    assert_eq!(root.name, "pets");
    let dogs = &root.children[0];
    assert_eq!(dogs.option.as_ref().and_then(|o| o.label.as_deref()), Some("loyal"));
    let puppies = &dogs.children[0];
    assert_eq!(puppies.parent.as_ref().map(|p| p.name.as_str()), Some("dogs"));
    assert_eq!(puppies.result, Some(types::Result::Kept));
    let raw = send(sink.anonymous(Method::GET, "/categories/tree")).await;
    assert_eq!(raw.body["children"][0]["children"][0]["result"], "kept");
    sink.stop().await;
}
