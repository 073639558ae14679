//! Every construct of the kitchen sink, round-tripped over HTTP through its
//! generated progenitor client: typed parameters of every type and format
//! (defaults included), JSON, text, byte and form bodies, JSON, CSV and
//! byte responses, documented response headers, two success statuses,
//! oneOf and allOf bodies, a map, a primitive, a public operation and an
//! API-key header.

use std::num::{NonZeroU32, NonZeroU64};

use crate::support::{Sink, send};
use chrono::{DateTime, NaiveDate, Utc};
use futures_util::StreamExt;
use kitchen_sink::client::{Error as ClientError, types};
use progenitor_client::{ByteStream, ResponseValue};
use reqwest::Method;
use serde_json::json;

pub(crate) async fn bytes(response: ResponseValue<ByteStream>) -> Vec<u8> {
    let mut stream = response.into_inner().into_inner();
    let mut out = Vec::new();
    while let Some(chunk) = stream.next().await {
        out.extend_from_slice(&chunk.unwrap());
    }
    out
}

pub(crate) fn new_order(pet: u64, quantity: u32) -> types::NewOrder {
    serde_json::from_value(json!({"petId": pet, "quantity": quantity})).unwrap()
}

/// An order placed through the generated client.
pub(crate) async fn placed(client: &kitchen_sink::client::Client, pet: u64, quantity: u32) -> types::Order {
    client
        .create_order(None, None, &new_order(pet, quantity))
        .await
        .unwrap()
        .into_inner()
}

pub(crate) fn id(order: &types::Order) -> NonZeroU64 {
    NonZeroU64::new(order.id as u64).unwrap()
}

#[tokio::test]
async fn create_read_update_and_delete_an_order() {
    let sink = Sink::start().await;
    let client = sink.client();
    let body: types::NewOrder = serde_json::from_value(json!({
        "petId": 7, "quantity": 3, "shipDate": "2026-12-01T09:00:00Z", "deliverBy": "2026-12-05",
        "note": "fragile", "tags": ["gift", "urgent"], "giftWrap": true, "discount": 0.25, "weightKg": 1.5,
        "address": {"street": "1 Main St", "city": "Springfield", "postcode": "12345"}
    }))
    .unwrap();
    let created = client.create_order(None, None, &body).await.unwrap();
    assert_eq!(created.status().as_u16(), 201);
    let location = created.headers()["location"].to_str().unwrap().to_string();
    let etag = created.headers()["etag"].to_str().unwrap().to_string();
    let order = created.into_inner();
    assert_eq!(location, format!("/v1/orders/{}", order.id));
    assert_eq!(order.status, types::OrderStatus::Pending);
    assert_eq!(order.quantity.get(), 3);
    assert_eq!(order.deliver_by, NaiveDate::from_ymd_opt(2026, 12, 5));
    assert_eq!(order.tags.as_ref().unwrap().len(), 2);
    // Defaults of the body's schema reach the stored order: the address's
    // country and the channel were not sent.
    let address = order.address.as_ref().unwrap();
    assert_eq!(address.country.as_str(), "US");
    assert_eq!(order.channel, types::OrderChannel::Web);
    assert_eq!(order.total, Some(3.0 * 9.5 * 0.75));

    let read = client.get_order(id(&order)).await.unwrap();
    assert_eq!(read.headers()["etag"].to_str().unwrap(), etag);
    assert_eq!(read.into_inner().note.as_deref().map(|n| n.as_str()), Some("fragile"));

    // If-Match: the current ETag changes the order; an old one is 412.
    let patch: types::OrderPatch = serde_json::from_value(json!({"quantity": 5, "note": "handle with care"})).unwrap();
    let if_match: types::UpdateOrderIfMatch = etag.parse().unwrap();
    let updated = client.update_order(id(&order), &if_match, &patch).await.unwrap();
    let new_etag = updated.headers()["etag"].to_str().unwrap().to_string();
    assert_ne!(new_etag, etag);
    let updated = updated.into_inner();
    assert_eq!(
        (updated.quantity.get(), updated.note.as_deref().map(|n| n.as_str())),
        (5, Some("handle with care"))
    );
    match client.update_order(id(&order), &if_match, &patch).await {
        Err(ClientError::ErrorResponse(e)) => {
            assert_eq!((e.status().as_u16(), e.code.as_str()), (412, "precondition_failed"))
        }
        other => panic!("{other:?}"),
    }

    assert_eq!(client.delete_order(id(&order)).await.unwrap().status().as_u16(), 204);
    match client.get_order(id(&order)).await {
        Err(ClientError::ErrorResponse(e)) => assert_eq!(e.status().as_u16(), 404),
        other => panic!("{other:?}"),
    }
    sink.stop().await;
}

#[tokio::test]
async fn a_boolean_header_defaults_to_false() {
    let sink = Sink::start().await;
    let client = sink.client();
    let when: DateTime<Utc> = "2026-11-23T10:00:00Z".parse().unwrap();
    let plain = client
        .create_order(Some(&when), None, &new_order(1, 2))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(plain.total, Some(19.0), "absent, X-Express is false: no surcharge");
    let express = client
        .create_order(None, Some(true), &new_order(1, 2))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(express.total, Some(24.0));
    sink.stop().await;
}

#[tokio::test]
async fn search_filters_pages_and_links() {
    let sink = Sink::start().await;
    let client = sink.client();
    for i in 1..=5u32 {
        let mut body = new_order(u64::from(i), i);
        body.tags = Some(vec![if i % 2 == 0 { "even" } else { "odd" }.parse().unwrap()]);
        body.gift_wrap = i == 3;
        client.create_order(None, None, &body).await.unwrap();
    }
    // A page of two, ascending (the default sort), with the total and the
    // next page in `Link`.
    let limit = NonZeroU32::new(2);
    let first = client
        .search_orders(None, None, None, None, limit, None, None, None, None, None, None, None)
        .await
        .unwrap();
    assert_eq!(first.headers()["x-total-count"], "5");
    let link = first.headers()["link"].to_str().unwrap().to_string();
    assert!(
        link.starts_with("</v1/orders?") && link.ends_with("rel=\"next\""),
        "{link}"
    );
    let first = first.into_inner();
    assert_eq!(first.items.iter().map(|o| o.id).collect::<Vec<_>>(), [1, 2]);
    let cursor: types::SearchOrdersCursor = first.next_cursor.clone().unwrap().parse().unwrap();
    let second = client
        .search_orders(
            Some(&cursor),
            None,
            None,
            None,
            limit,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
        )
        .await
        .unwrap()
        .into_inner();
    assert_eq!(second.items.iter().map(|o| o.id).collect::<Vec<_>>(), [3, 4]);
    // Following the Link gives the same page.
    let target = link
        .trim_start_matches('<')
        .split('>')
        .next()
        .unwrap()
        .trim_start_matches("/v1");
    let linked = send(sink.request(Method::GET, target)).await;
    assert_eq!(linked.body["items"][0]["id"], 3);

    // Repeated `tag` (explode: true), comma-joined `ids` (explode: false;
    // progenitor's client repeats the name, which is read too), a boolean,
    // a number and a descending sort.
    let tags = vec!["even".parse().unwrap()];
    let ids = vec![
        NonZeroU64::new(2).unwrap(),
        NonZeroU64::new(3).unwrap(),
        NonZeroU64::new(4).unwrap(),
    ];
    let found = client
        .search_orders(
            None,
            None,
            None,
            Some(&ids),
            None,
            None,
            Some(1.0),
            None,
            Some(types::SearchOrdersSort::Desc),
            Some(types::OrderStatus::Pending),
            Some(&tags),
            Some(&uuid::Uuid::new_v4()),
        )
        .await
        .unwrap()
        .into_inner();
    assert_eq!(found.items.iter().map(|o| o.id).collect::<Vec<_>>(), [4, 2]);
    assert_eq!(found.next_cursor, None, "the last page says so with null");
    let wrapped = client
        .search_orders(
            None,
            None,
            Some(true),
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
        )
        .await
        .unwrap()
        .into_inner();
    assert_eq!(wrapped.items.iter().map(|o| o.id).collect::<Vec<_>>(), [3]);
    // The spec's form of `ids` (commas) and `tag` (repeated), sent raw.
    let raw = send(sink.request(Method::GET, "/orders?ids=1,3,5&tag=odd&tag=odd")).await;
    let ids: Vec<i64> = raw.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [1, 3, 5]);
    sink.stop().await;
}
