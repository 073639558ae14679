//! v2 beside v1 and under change: a cancel through either version seen at
//! once through the other, a walk and the client's stream during cancels
//! and imports, each version's own document, and the Problem body of a 401.

use petstore_server::storage::{ImportData, Storage};
use petstore_tests::harness::{TestServer, assert_error_body, send};
use petstore_tests::on_both_backends;
use std::collections::BTreeSet;

use super::e2e_v2::{Filters, filtered, problem, walk};

async fn a_cancel_through_either_version_is_seen_at_once_through_the_other(server: &TestServer) {
    let (v1, v2) = (server.client(), server.v2_client());
    let v1_ids = |orders: Vec<petstore_client::types::Order>| orders.iter().map(|o| o.id.unwrap()).collect::<Vec<_>>();
    // Both versions keep what they served (v1 its list, v2 its pages):
    // read them first, so that a stale one would show.
    assert!(v1_ids(v1.list_orders().await.unwrap().into_inner()).contains(&5));
    assert!(walk(&v2, &Filters::default(), 100).await.contains(&6));
    assert!(walk(&v2, &Filters::default(), 100).await.contains(&5));
    assert_eq!(
        v2.cancel_order().order_id(5).send().await.unwrap().status().as_u16(),
        204
    );
    assert!(!v1_ids(v1.list_orders().await.unwrap().into_inner()).contains(&5));
    assert!(!walk(&v2, &Filters::default(), 100).await.contains(&5));

    assert_eq!(v1.cancel_order(6).await.unwrap().status().as_u16(), 204);
    assert!(!walk(&v2, &Filters::default(), 100).await.contains(&6));
    // Cancelled through one version, it is gone for the other too.
    let (status, body) = problem(v2.cancel_order().order_id(6).send().await);
    assert_eq!((status, body.code.as_str()), (404, "order_not_found"));
    let (status, body) = problem(v2.cancel_order().order_id(3).send().await);
    assert_eq!((status, body.code.as_str()), (409, "order_already_shipped"));
    assert!(body.message.contains("shipped"));
}

async fn a_walk_during_cancels_and_imports_returns_each_survivor_once(server: &TestServer) {
    // 400 more orders: 1000..1400, all pending.
    let more: ImportData = serde_json::from_value(serde_json::json!({
        "orders": (1000..1400).map(|id| serde_json::json!({"id": id, "petId": 1, "status": "pending"})).collect::<Vec<_>>(),
    }))
    .unwrap();
    server.storage.import(&more).await.unwrap();
    let (v1, v2) = (server.client(), server.v2_client());
    // Cancelled before the walk: never listed.
    for id in [7, 1001] {
        v1.cancel_order(id).await.unwrap();
    }
    let walker = tokio::spawn({
        let v2 = server.v2_client();
        async move { walk(&v2, &Filters::default(), 9).await }
    });
    // Meanwhile: every third order of the new ones cancelled, through both
    // versions, and new orders imported ahead of the walk.
    let mut cancelled = BTreeSet::new();
    for (n, id) in (1000..1400).step_by(3).enumerate() {
        if id == 1001 {
            continue;
        }
        let status = match n % 2 {
            0 => v1.cancel_order(id).await.ok().map(|r| r.status()),
            _ => v2.cancel_order().order_id(id).send().await.ok().map(|r| r.status()),
        };
        assert_eq!(status.map(|s| s.as_u16()), Some(204));
        cancelled.insert(id);
        if n % 20 == 0 {
            let id = 5000 + n as i64;
            let late: ImportData =
                serde_json::from_value(serde_json::json!({"orders": [{"id": id, "status": "pending"}]})).unwrap();
            server.storage.import(&late).await.unwrap();
        }
    }
    let walked = walker.await.unwrap();
    assert!(
        walked.windows(2).all(|w| w[0] < w[1]),
        "strictly ascending: each order once"
    );
    let survivors = (1..=20)
        .chain(1000..1400)
        .filter(|id| ![7, 1001].contains(id) && !cancelled.contains(id));
    let walked_set: BTreeSet<i64> = walked.iter().copied().collect();
    for id in survivors {
        assert!(
            walked_set.contains(&id),
            "order {id} stayed uncancelled and was not walked"
        );
    }
    assert!(!walked_set.contains(&7) && !walked_set.contains(&1001));
}

/// The client's page stream (generated from the spec's `x-pagination`)
/// walks 10,000 orders, filtered by pet, while a quarter of them are
/// cancelled through both versions: every order that stayed uncancelled
/// comes once, in ascending order, and none of another pet.
async fn the_stream_walks_10000_orders_while_orders_are_cancelled(server: &TestServer) {
    use futures::TryStreamExt;
    const PET: i64 = 77;
    let ids = 10_000..20_000i64;
    let orders: ImportData = serde_json::from_value(serde_json::json!({
        "pets": [{"id": PET, "name": "Walker"}],
        "orders": ids.clone().map(|id| serde_json::json!({"id": id, "petId": PET, "status": "pending"})).collect::<Vec<_>>(),
    }))
    .unwrap();
    server.storage.import(&orders).await.unwrap();
    let (v1, v2) = (server.client(), server.v2_client());
    v1.cancel_order(10_000).await.unwrap();
    let walker = tokio::spawn({
        let v2 = server.v2_client();
        async move {
            let filters = Filters {
                pet_id: Some(PET),
                ..Filters::default()
            };
            let stream = filtered(&v2, &filters).limit(100).stream();
            stream.map_ok(|order| order.id).try_collect::<Vec<i64>>().await
        }
    });
    let mut cancelled = BTreeSet::from([10_000]);
    for (n, id) in ids.clone().skip(1).step_by(4).enumerate() {
        let status = match n % 2 {
            0 => v1.cancel_order(id).await.ok().map(|r| r.status()),
            _ => v2.cancel_order().order_id(id).send().await.ok().map(|r| r.status()),
        };
        assert_eq!(status.map(|s| s.as_u16()), Some(204), "cancelling {id}");
        cancelled.insert(id);
    }
    let walked = walker.await.unwrap().unwrap();
    assert!(walked.windows(2).all(|w| w[0] < w[1]), "strictly ascending: each once");
    assert!(walked.iter().all(|id| ids.contains(id)), "only pet {PET}'s orders");
    let walked: BTreeSet<i64> = walked.into_iter().collect();
    let survivors: BTreeSet<i64> = ids.filter(|id| !cancelled.contains(id)).collect();
    assert_eq!(survivors.len(), 7_499);
    let missing: Vec<_> = survivors.difference(&walked).take(5).collect();
    assert!(missing.is_empty(), "uncancelled orders not walked: {missing:?}");
    assert!(!walked.contains(&10_000), "cancelled before the walk");
}

/// Version 2's document at `/v2/openapi.json`, version 1's still at
/// `/v1/openapi.json`; and no getPetById in version 2.
async fn each_version_serves_its_document_and_only_its_paths(server: &TestServer) {
    let http = reqwest::Client::new();
    let (status, _, v2_doc) = send(http.get(format!("{}/openapi.json", server.v2_base_url))).await;
    assert_eq!(status, 200);
    assert_eq!(v2_doc["info"]["version"], "2.0.0");
    let (_, _, v1_doc) = send(http.get(format!("{}/openapi.json", server.base_url))).await;
    assert_eq!(v1_doc["info"]["version"], "1.0.0");
    let (status, _, body) = send(
        http.get(format!("{}/pets/1", server.v2_base_url))
            .bearer_auth(&server.key),
    )
    .await;
    assert_eq!(status, 404, "{body}");
    let (status, headers, body) = send(
        http.put(format!("{}/store/orders", server.v2_base_url))
            .bearer_auth(&server.key),
    )
    .await;
    assert_eq!(status, 405);
    assert_eq!(headers["allow"], "GET");
    assert_error_body(&body, 405, "method_not_allowed");
}

async fn a_missing_key_gets_401_with_the_problem_body(server: &TestServer) {
    let http = reqwest::Client::new();
    for request in [
        http.get(format!("{}/store/orders", server.v2_base_url)),
        http.delete(format!("{}/store/orders/1", server.v2_base_url)),
    ] {
        let (status, headers, body) = send(request).await;
        assert_eq!(status, 401);
        assert_error_body(&body, 401, "unauthorized");
        assert_eq!(headers["www-authenticate"], "Bearer");
    }
}

on_both_backends!(
    a_cancel_through_either_version_is_seen_at_once_through_the_other,
    a_walk_during_cancels_and_imports_returns_each_survivor_once,
    the_stream_walks_10000_orders_while_orders_are_cancelled,
    each_version_serves_its_document_and_only_its_paths,
    a_missing_key_gets_401_with_the_problem_body,
);
