//! The page streams the generator writes for operations that declare a
//! cursor pattern (`x-pagination`), over HTTP: two patterns named unlike
//! each other (`searchOrders`: `cursor`/`nextCursor`/`items`, the last
//! cursor null; `listEvents`: `pageToken`/`next`/`data`, the last token
//! absent), with filters kept on every page and errors as items.

use std::num::NonZeroU32;

use crate::support::Sink;
use futures::{StreamExt, TryStreamExt};
use kitchen_sink::client::{Error as ClientError, types};
use serde_json::json;

/// Places `count` orders, alternating pets 1 and 2.
async fn place(client: &kitchen_sink::client::Client, count: u32) {
    for i in 0..count {
        let body: types::NewOrder = serde_json::from_value(json!({"petId": 1 + i % 2, "quantity": 1})).unwrap();
        client.create_order(None, None, &body).await.unwrap();
    }
}

#[tokio::test]
async fn a_stream_walks_every_page_with_the_filters_of_the_first() {
    let sink = Sink::start().await;
    let client = sink.client();
    place(&client, 23).await;

    // listEvents: pages of 4, only pet 2 (the odd orders' pet is 1).
    let page_size = NonZeroU32::new(4);
    let events: Vec<_> = client
        .list_events_stream(page_size, Some(2))
        .try_collect()
        .await
        .unwrap();
    let ids: Vec<i64> = events.iter().map(|e| e.order_id).collect();
    assert_eq!(ids, (1..=23).filter(|id| id % 2 == 0).collect::<Vec<i64>>());
    assert!(events.iter().all(|e| e.pet_id == 2));
    // Unfiltered, in pages of one: every order once.
    let all: Vec<_> = client
        .list_events_stream(NonZeroU32::new(1), None)
        .map_ok(|e| e.order_id)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(all, (1..=23).collect::<Vec<i64>>());

    // searchOrders: a null nextCursor ends the walk; the sort is kept on
    // every page (descending, pages of 5).
    let found: Vec<i64> = client
        .search_orders_stream(
            None,
            None,
            None,
            NonZeroU32::new(5),
            None,
            None,
            None,
            Some(types::SearchOrdersSort::Desc),
            None,
            None,
            None,
        )
        .map_ok(|o| o.id)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(found, (1..=23).rev().collect::<Vec<i64>>());
    sink.stop().await;
}

#[tokio::test]
async fn an_error_is_the_streams_last_item() {
    let sink = Sink::start().await;
    place(&sink.client(), 3).await;
    // A wrong key: the first page's 401 is the one item.
    let stranger = sink.client_with(kitchen_sink::client::Credentials {
        bearer_auth: Some("not-a-key".into()),
        ..Default::default()
    });
    let items: Vec<_> = stranger.list_events_stream(None, None).collect().await;
    match items.as_slice() {
        [Err(ClientError::ErrorResponse(e))] => assert_eq!(e.status().as_u16(), 401),
        other => panic!("{other:?}"),
    }
    sink.stop().await;
}
