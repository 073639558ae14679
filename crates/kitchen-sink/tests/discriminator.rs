//! A discriminated oneOf whose members overlap (`classifyPet`): a dog is
//! a valid cat by shape, so only `species` (with its mapping) tells them
//! apart. The layer validates the member the discriminator names, the
//! handler gets that member's variant, and the client sends and reads
//! the same.

mod support;

use kitchen_sink::client::types;
use reqwest::Method;
use serde_json::json;
use support::{Sink, send};

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
