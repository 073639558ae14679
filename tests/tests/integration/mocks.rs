//! The client's generated mocks, used the way a consumer team would: their
//! own code talks to a mock server instead of the real one.

use httpmock::MockServer;
use petstore_client::mock::MockServerExt;
use petstore_client::{ApiKey, Client, Error, types};

/// Consumer code under test: the ids of orders that have not shipped yet.
async fn pending_order_ids(client: &Client) -> Result<Vec<i64>, Error<types::Error>> {
    let orders = client.list_orders().await?.into_inner();
    Ok(orders
        .iter()
        .filter(|o| o.complete != Some(true))
        .filter_map(|o| o.id)
        .collect())
}

#[tokio::test]
async fn list_orders_mock() {
    let server = MockServer::start_async().await;
    let orders = vec![
        types::Order {
            id: Some(1),
            complete: Some(false),
            ..Default::default()
        },
        types::Order {
            id: Some(2),
            complete: Some(true),
            ..Default::default()
        },
    ];
    let mock = server.list_orders(|when, then| {
        when.into_inner().header("authorization", "Bearer k1");
        then.ok(&orders);
    });
    let client = Client::new(&server.base_url(), ApiKey::new("k1"));
    assert_eq!(pending_order_ids(&client).await.unwrap(), vec![1]);
    mock.assert_async().await;
}

#[tokio::test]
async fn cancel_order_conflict_mock() {
    let server = MockServer::start_async().await;
    let body = types::Error {
        code: "order_already_shipped".into(),
        message: "shipped".into(),
        status: 409,
    };
    let mock = server.cancel_order(|when, then| {
        when.order_id(3);
        then.conflict(&body);
    });
    let client = Client::new(&server.base_url(), ApiKey::new("k1"));
    match client.cancel_order(3).await {
        Err(Error::ErrorResponse(e)) => {
            assert_eq!((e.status().as_u16(), e.code.as_str()), (409, "order_already_shipped"))
        }
        other => panic!("expected a 409, got {other:?}"),
    }
    mock.assert_async().await;
}

/// A consumer uses both versions at once: v1's client for the full list,
/// v2's for a filtered page, each against its own mock, with the same key.
#[tokio::test]
async fn v1_and_v2_clients_side_by_side() {
    use petstore_client::v2;
    use petstore_client::v2::mock::MockServerExt as V2MockServerExt;

    // Both versions' mock traits extend `MockServer` with a `list_orders`:
    // with both in scope, name the trait.
    let v1_server = MockServer::start_async().await;
    let v1_mock = MockServerExt::list_orders(&v1_server, |when, then| {
        when.into_inner().header("authorization", "Bearer k1");
        then.ok(&vec![types::Order {
            id: Some(1),
            ..Default::default()
        }]);
    });
    let v2_server = MockServer::start_async().await;
    let page = v2::types::OrderPage {
        items: vec![v2::types::Order {
            id: 2,
            pet_id: Some(5),
            quantity: Some(1),
            ship_date: None,
            status: v2::types::OrderStatus::Pending,
            complete: Some(false),
        }],
        next_cursor: None,
    };
    let v2_mock = V2MockServerExt::list_orders(&v2_server, |when, then| {
        let when = when
            .status(v2::types::OrderStatus::Pending)
            .pet_id(5)
            .limit(std::num::NonZeroU32::new(10).unwrap());
        when.into_inner().header("authorization", "Bearer k1");
        then.ok(&page);
    });

    let key = ApiKey::new("k1");
    let v1_client = Client::new(&v1_server.base_url(), key.clone());
    let v2_client = v2::Client::new(&v2_server.base_url(), key);
    let all = v1_client.list_orders().await.unwrap().into_inner();
    let first_page = v2_client
        .list_orders()
        .limit(10)
        .pet_id(5)
        .status(v2::types::OrderStatus::Pending)
        .send()
        .await
        .unwrap()
        .into_inner();
    assert_eq!(all.iter().filter_map(|o| o.id).collect::<Vec<_>>(), vec![1]);
    assert_eq!(first_page.items.iter().map(|o| o.id).collect::<Vec<_>>(), vec![2]);
    assert_eq!(first_page.next_cursor, None);
    v1_mock.assert_async().await;
    v2_mock.assert_async().await;
}
