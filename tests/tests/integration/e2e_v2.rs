//! Version 2 against the real server, beside version 1 in the same process
//! (ephemeral port; a temporary SQLite file and a fresh PostgreSQL
//! database): pages, filters, cursors, the envelope and `Link`, and
//! cancels seen at once through either version.

use std::num::NonZeroU32;

use chrono::{DateTime, Utc};
use petstore_client::v2::types::{self, ListOrdersCursor, OrderStatus};
use petstore_client::v2::{Client, Error as ClientError, builder};
use petstore_tests::harness::{TestServer, assert_error_body, send};
use petstore_tests::on_both_backends;

/// The filters of a listOrders call, as the generated client takes them.
#[derive(Default, Clone)]
pub(crate) struct Filters {
    pub(crate) status: Option<OrderStatus>,
    pub(crate) pet_id: Option<i64>,
    pub(crate) ship_date_from: Option<DateTime<Utc>>,
    pub(crate) ship_date_to: Option<DateTime<Utc>>,
    pub(crate) complete: Option<bool>,
}

/// A listOrders request with these filters, by name (the builder).
pub(crate) fn filtered<'a>(client: &'a Client, filters: &Filters) -> builder::ListOrders<'a> {
    let mut request = client.list_orders();
    if let Some(status) = filters.status {
        request = request.status(status);
    }
    if let Some(pet_id) = filters.pet_id {
        request = request.pet_id(pet_id);
    }
    if let Some(from) = filters.ship_date_from {
        request = request.ship_date_from(from);
    }
    if let Some(to) = filters.ship_date_to {
        request = request.ship_date_to(to);
    }
    if let Some(complete) = filters.complete {
        request = request.complete(complete);
    }
    request
}

async fn page(
    client: &Client,
    filters: &Filters,
    limit: Option<u32>,
    cursor: Option<&str>,
) -> Result<types::OrderPage, ClientError<types::Problem>> {
    let mut request = filtered(client, filters);
    if let Some(limit) = limit.and_then(NonZeroU32::new) {
        request = request.limit(limit);
    }
    if let Some(cursor) = cursor {
        request = request.cursor(ListOrdersCursor::try_from(cursor).unwrap());
    }
    request.send().await.map(|response| response.into_inner())
}

/// Every page, following `nextCursor`: the ids, in the order served.
pub(crate) async fn walk(client: &Client, filters: &Filters, limit: u32) -> Vec<i64> {
    let mut ids = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let page = page(client, filters, Some(limit), cursor.as_deref()).await.unwrap();
        assert!(page.items.len() <= limit as usize);
        ids.extend(page.items.iter().map(|o| o.id));
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => return ids,
        }
    }
}

fn instant(text: &str) -> Option<DateTime<Utc>> {
    Some(text.parse().unwrap())
}

pub(crate) fn problem<T: std::fmt::Debug>(result: Result<T, ClientError<types::Problem>>) -> (u16, types::Problem) {
    crate::e2e::failed_with(result, |problem| problem.status)
}

async fn a_walk_returns_every_order_once_by_ascending_id(server: &TestServer) {
    let client = server.v2_client();
    for limit in [1, 3, 7, 20, 1000] {
        assert_eq!(
            walk(&client, &Filters::default(), limit).await,
            (1..=20).collect::<Vec<_>>()
        );
    }
    // The default page is 100: all 20 at once, and no next page.
    let first = page(&client, &Filters::default(), None, None).await.unwrap();
    assert_eq!(first.items.len(), 20);
    assert_eq!(first.next_cursor, None);
}

async fn an_order_carries_its_status_and_recorded_fields(server: &TestServer) {
    let items = page(&server.v2_client(), &Filters::default(), Some(3), None)
        .await
        .unwrap()
        .items;
    let (first, second, third) = (&items[0], &items[1], &items[2]);
    assert_eq!(
        (first.id, first.status, first.pet_id, first.quantity),
        (1, OrderStatus::Pending, Some(1), Some(2))
    );
    assert_eq!(first.ship_date, instant("2026-01-02T03:04:05Z"));
    assert_eq!(first.complete, Some(false));
    assert_eq!((second.status, second.ship_date), (OrderStatus::Pending, None));
    assert_eq!((third.status, third.complete), (OrderStatus::Shipped, Some(true)));
}

async fn the_envelope_and_the_link_header_point_to_the_next_page(server: &TestServer) {
    let http = reqwest::Client::new();
    let url = format!("{}/store/orders?limit=8&petId=2", server.v2_base_url);
    let (status, headers, body) = send(http.get(&url).bearer_auth(&server.key)).await;
    assert_eq!(status, 200);
    let cursor = body["nextCursor"].as_str().expect("a next page").to_string();
    let link = headers["link"].to_str().unwrap();
    assert!(
        link.starts_with("</v2/store/orders?") && link.ends_with(">; rel=\"next\""),
        "{link}"
    );
    // The link is the same query with the next cursor: following it gives
    // the next page.
    let target = &link[1..link.find('>').unwrap()];
    assert!(
        target.contains("limit=8") && target.contains("petId=2") && target.contains(&cursor),
        "{link}"
    );
    let origin = server.v2_base_url.trim_end_matches(petstore_api::v2::BASE_PATH);
    let (status, headers, next) = send(http.get(format!("{origin}{target}")).bearer_auth(&server.key)).await;
    assert_eq!(status, 200);
    let ids = |page: &serde_json::Value| {
        page["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["id"].as_i64().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(&body), [2, 4, 5, 6, 7, 8, 9, 10]);
    assert_eq!(ids(&next), [11, 12, 13, 14, 15, 16, 17, 18]);
    // The last page: `nextCursor` null (present), and no `Link`.
    let last_cursor = next["nextCursor"].as_str().unwrap();
    let (_, headers_last, last) = send(
        http.get(format!("{}/store/orders", server.v2_base_url))
            .query(&[("limit", "8"), ("petId", "2"), ("cursor", last_cursor)])
            .bearer_auth(&server.key),
    )
    .await;
    assert_eq!(ids(&last), [19, 20]);
    assert_eq!(last["nextCursor"], serde_json::Value::Null);
    assert!(last.as_object().unwrap().contains_key("nextCursor"));
    assert!(!headers_last.contains_key("link"));
    assert!(headers.contains_key("link"));
}

async fn filters_select_the_matching_orders(server: &TestServer) {
    let client = server.v2_client();
    let cases = [
        (
            Filters {
                status: Some(OrderStatus::Shipped),
                ..Filters::default()
            },
            vec![3],
        ),
        (
            Filters {
                pet_id: Some(1),
                ..Filters::default()
            },
            vec![1, 3],
        ),
        (
            Filters {
                status: Some(OrderStatus::Pending),
                pet_id: Some(1),
                ..Filters::default()
            },
            vec![1],
        ),
        (
            Filters {
                complete: Some(true),
                ..Filters::default()
            },
            vec![3],
        ),
        // Orders 4..=20 have no recorded flag: they match neither value.
        (
            Filters {
                complete: Some(false),
                ..Filters::default()
            },
            vec![1, 2],
        ),
        // shipDateFrom is inclusive, shipDateTo exclusive.
        (
            Filters {
                ship_date_from: instant("2026-01-02T03:04:05Z"),
                ..Filters::default()
            },
            vec![1, 3],
        ),
        (
            Filters {
                ship_date_from: instant("2026-01-02T03:04:05.000001Z"),
                ..Filters::default()
            },
            vec![3],
        ),
        (
            Filters {
                ship_date_to: instant("2026-02-03T04:05:06Z"),
                ..Filters::default()
            },
            vec![1],
        ),
        (
            Filters {
                ship_date_to: instant("2026-02-03T04:05:06.000000001Z"),
                ..Filters::default()
            },
            vec![1, 3],
        ),
        (
            Filters {
                ship_date_from: instant("2026-01-01T00:00:00Z"),
                ship_date_to: instant("2026-02-01T00:00:00Z"),
                ..Filters::default()
            },
            vec![1],
        ),
        (
            Filters {
                pet_id: Some(999),
                ..Filters::default()
            },
            vec![],
        ),
    ];
    for (filters, expected) in cases {
        // A page of one at a time walks the filtered set too.
        assert_eq!(walk(&client, &filters, 1).await, expected);
        assert_eq!(walk(&client, &filters, 100).await, expected);
    }
}

async fn a_bad_cursor_gets_400_invalid_parameter_naming_cursor(server: &TestServer) {
    let client = server.v2_client();
    let pending = Filters {
        status: Some(OrderStatus::Pending),
        ..Filters::default()
    };
    let issued = page(&client, &pending, Some(2), None)
        .await
        .unwrap()
        .next_cursor
        .unwrap();
    // Forged: the same cursor with one character changed.
    let mut forged = issued.clone().into_bytes();
    forged[3] = if forged[3] == b'A' { b'B' } else { b'A' };
    let forged = String::from_utf8(forged).unwrap();
    let attempts = [
        (pending.clone(), "not a cursor".to_string()),
        (pending.clone(), "AAAA".to_string()),
        (pending.clone(), forged),
        // Reused with other filters.
        (Filters::default(), issued.clone()),
        (
            Filters {
                pet_id: Some(2),
                ..pending.clone()
            },
            issued.clone(),
        ),
    ];
    for (filters, cursor) in attempts {
        let (status, body) = problem(page(&client, &filters, Some(2), Some(&cursor)).await);
        assert_eq!((status, body.code.as_str()), (400, "invalid_parameter"), "{cursor}");
        assert!(body.message.contains("cursor"), "{}", body.message);
    }
    // With its own filters and any limit, it still works.
    let next = page(&client, &pending, Some(5), Some(&issued)).await.unwrap();
    assert_eq!(next.items.iter().map(|o| o.id).collect::<Vec<_>>(), [4, 5, 6, 7, 8]);
}

async fn out_of_range_parameters_get_400_naming_them(server: &TestServer) {
    let http = reqwest::Client::new();
    let base = &server.v2_base_url;
    for (query, name) in [
        ("limit=0", "limit"),
        ("limit=1001", "limit"),
        ("status=cancelled", "status"),
        ("petId=x", "petId"),
        ("shipDateFrom=yesterday", "shipDateFrom"),
        ("complete=maybe", "complete"),
        ("cursor=", "cursor"),
    ] {
        let (status, _, body) = send(
            http.get(format!("{base}/store/orders?{query}"))
                .bearer_auth(&server.key),
        )
        .await;
        assert_eq!(status, 400, "{query}");
        assert_error_body(&body, 400, "invalid_parameter");
        assert!(body["message"].as_str().unwrap().contains(name), "{query}: {body}");
    }
}

on_both_backends!(
    a_walk_returns_every_order_once_by_ascending_id,
    an_order_carries_its_status_and_recorded_fields,
    the_envelope_and_the_link_header_point_to_the_next_page,
    filters_select_the_matching_orders,
    a_bad_cursor_gets_400_invalid_parameter_naming_cursor,
    out_of_range_parameters_get_400_naming_them,
);
