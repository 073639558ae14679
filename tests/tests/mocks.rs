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
