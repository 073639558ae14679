//! The webhook and the callback, end to end: the service sends
//! `shapeAdded` through its generated sender to a receiver this test
//! serves with the generated receiver contract (`api::webhooks`), and the
//! `shapeAdded` callback to each subscriber. What leaves is validated
//! against the spec before it leaves; what arrives is validated by the
//! receiver's generated layer before its handler runs.

use std::sync::atomic::Ordering;
use std::time::Duration;

use kitchen_sink_31::api::{types, webhooks};
use kitchen_sink_31::runtime::webhooks::{Payload, SendError, Sender};
use kitchen_sink_31::runtime::{AuthError, Authenticator, Credential};
use kitchen_sink_31::service::Service;
use serde_json::json;
use tokio::sync::mpsc;

use crate::support::Sink31;

/// What the receiver was sent, in order.
#[derive(Debug)]
enum Received {
    Webhook(types::Shape),
    Callback(webhooks::types::SubscribeShapeAddedRequestBody),
}

/// A receiver of the kitchen sink's webhooks: it records what it gets,
/// and answers a callback with `callback_status`.
struct Receiver {
    received: mpsc::UnboundedSender<Received>,
    gone: bool,
}

impl Authenticator for Receiver {
    type Principal = ();
    async fn authenticate(&self, _credential: Credential<'_>) -> Result<(), AuthError> {
        Err(AuthError::InvalidKey)
    }
}

/// Served by a test's own server: no `Serving` of its own.
impl kitchen_sink_31::runtime::serving::Served for Receiver {}

impl webhooks::KitchenSink31WebhooksHandlers for Receiver {
    async fn shape_added(&self, body: types::Shape) -> webhooks::ShapeAddedResponse {
        let _ = self.received.send(Received::Webhook(body));
        webhooks::ShapeAddedResponse::NoContent
    }

    async fn subscribe_shape_added(
        &self,
        body: webhooks::types::SubscribeShapeAddedRequestBody,
    ) -> webhooks::SubscribeShapeAddedResponse {
        let _ = self.received.send(Received::Callback(body));
        match self.gone {
            true => webhooks::SubscribeShapeAddedResponse::Gone,
            false => webhooks::SubscribeShapeAddedResponse::Accepted,
        }
    }
}

/// A receiver served on an ephemeral port.
struct Served {
    base: String,
    received: mpsc::UnboundedReceiver<Received>,
    _server: dropshot::HttpServer<Receiver>,
    _quiet: tokio::sync::RwLockReadGuard<'static, ()>,
}

/// A receiver served on an ephemeral port: its base URL, and what it gets.
async fn receiver(gone: bool) -> Served {
    let quiet = crate::support::shared().await;
    let (sent, received) = mpsc::unbounded_channel();
    let api = webhooks::api_description::<Receiver>().unwrap();
    let log = slog::Logger::root(slog::Discard, slog::o!());
    let config = dropshot::ConfigDropshot {
        bind_address: "127.0.0.1:0".parse().unwrap(),
        ..Default::default()
    };
    let server = dropshot::ServerBuilder::new(api, Receiver { received: sent, gone }, log)
        .config(config)
        .start()
        .unwrap();
    Served {
        base: format!("http://{}", server.local_addr()),
        received,
        _server: server,
        _quiet: quiet,
    }
}

/// Waits up to 2 s for `counter` to reach `value`.
async fn reaches(counter: &std::sync::atomic::AtomicU64, value: u64) -> u64 {
    for _ in 0..100 {
        if counter.load(Ordering::Relaxed) >= value {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    counter.load(Ordering::Relaxed)
}

async fn next(received: &mut mpsc::UnboundedReceiver<Received>) -> Received {
    tokio::time::timeout(Duration::from_secs(10), received.recv())
        .await
        .expect("delivered within 10 s")
        .expect("the receiver is up")
}

fn circle(radius: f64) -> serde_json::Value {
    json!({"kind": "circle", "radius": radius})
}

#[tokio::test]
async fn a_new_shape_is_sent_to_the_webhooks_receiver_and_to_every_subscriber() {
    let Served {
        base: receiver_base,
        mut received,
        _server,
        _quiet,
    } = receiver(false).await;
    let service = Service::new("k".into()).with_webhook_url(Some(format!("{receiver_base}/shapeAdded")));
    let sink = Sink31::start_with(service, "k").await;
    // The callback goes to `{$request.body#/url}/shapes`: the receiver
    // serves it at `/shapeAdded/shapes`.
    let (status, subscription) = sink
        .send(
            reqwest::Method::POST,
            "/subscriptions",
            json!({"url": format!("{receiver_base}/shapeAdded")}),
        )
        .await;
    assert_eq!(status, 201, "{subscription}");

    let (status, created) = sink.send(reqwest::Method::POST, "/shapes", circle(2.5)).await;
    assert_eq!(status, 201, "{created}");
    let mut webhook = None;
    let mut callback = None;
    for _ in 0..2 {
        match next(&mut received).await {
            Received::Webhook(shape) => webhook = Some(shape),
            Received::Callback(body) => callback = Some(body),
        }
    }
    // Typed on both sides, and the very shape the service answered with.
    let webhook = webhook.expect("the webhook");
    assert_eq!(serde_json::to_value(&webhook).unwrap(), created);
    let callback = callback.expect("the callback");
    assert_eq!(json!(callback.subscription.get()), subscription["id"]);
    assert_eq!(serde_json::to_value(&callback.shape).unwrap(), created);
    let notifier = &sink.service().notifier;
    assert_eq!(reaches(&notifier.delivered, 2).await, 2);
    assert_eq!(notifier.failed.load(Ordering::Relaxed), 0);
}

#[tokio::test]
async fn a_subscriber_that_answers_410_is_sent_nothing_more() {
    let Served {
        base: receiver_base,
        mut received,
        _server,
        _quiet,
    } = receiver(true).await;
    let sink = Sink31::start_with(Service::new("k".into()), "k").await;
    let url = json!({"url": format!("{receiver_base}/shapeAdded")});
    assert_eq!(sink.send(reqwest::Method::POST, "/subscriptions", url).await.0, 201);
    assert_eq!(sink.send(reqwest::Method::POST, "/shapes", circle(1.0)).await.0, 201);
    assert!(matches!(next(&mut received).await, Received::Callback(_)));
    // Gone: counted as not accepted, and unsubscribed.
    let notifier = &sink.service().notifier;
    assert_eq!(reaches(&notifier.failed, 1).await, 1);
    assert_eq!(sink.send(reqwest::Method::POST, "/shapes", circle(2.0)).await.0, 201);
    let more = tokio::time::timeout(Duration::from_millis(500), received.recv()).await;
    assert!(more.is_err(), "nothing more is sent: {more:?}");
}

#[tokio::test]
async fn a_body_that_breaks_the_schema_never_leaves() {
    let Served {
        base: receiver_base,
        mut received,
        _server,
        _quiet,
    } = receiver(false).await;
    let sender = webhooks::Sender::default();
    // The radius must be above 0: the Rust type (a float) cannot say so,
    // the spec's schema can.
    let shape: types::Shape = serde_json::from_value(json!({
        "id": 1, "shape": circle(-1.0), "note": null
    }))
    .unwrap();
    let error = sender
        .shape_added(&format!("{receiver_base}/shapeAdded"), &shape)
        .await
        .unwrap_err();
    match &error {
        SendError::Invalid { operation, pointer, .. } => {
            assert_eq!(*operation, "shapeAdded");
            assert_eq!(pointer, "/shape/radius", "{error}");
        }
        other => panic!("not refused as invalid: {other}"),
    }
    let arrived = tokio::time::timeout(Duration::from_millis(300), received.recv()).await;
    assert!(arrived.is_err(), "nothing was sent: {arrived:?}");
    // A good one goes, and the receiver's documented 204 is its answer.
    let good: types::Shape = serde_json::from_value(json!({"id": 1, "shape": circle(1.0), "note": null})).unwrap();
    let delivery = sender
        .shape_added(&format!("{receiver_base}/shapeAdded"), &good)
        .await
        .unwrap();
    assert_eq!((delivery.status, delivery.documented), (204, true));
    assert!(matches!(next(&mut received).await, Received::Webhook(_)));
}

#[tokio::test]
async fn the_receiver_validates_what_it_is_sent_before_its_handler_runs() {
    let Served {
        base: receiver_base,
        mut received,
        _server,
        _quiet,
    } = receiver(false).await;
    let http = reqwest::Client::new();
    let bad = json!({"id": 0, "shape": circle(1.0), "note": null});
    let response = http
        .post(format!("{receiver_base}/shapeAdded"))
        .json(&bad)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 400);
    let problem: serde_json::Value = response.json().await.unwrap();
    assert_eq!(problem["status"], 400, "{problem}");
    // A status the receiver's contract does not document is read as such
    // by the sender: here, a raw sender to a path that is not the receiver's.
    let error = Sender::new()
        .send::<webhooks::ShapeAdded>(&format!("{receiver_base}/elsewhere"), Payload::json(&bad))
        .await;
    assert!(
        matches!(error, Err(SendError::Invalid { .. })),
        "validated first: {error:?}"
    );
    let good = json!({"id": 3, "shape": circle(1.0), "note": null});
    let error = Sender::new()
        .send::<webhooks::ShapeAdded>(&format!("{receiver_base}/elsewhere"), Payload::json(&good))
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            SendError::Status {
                status: 404,
                documented: false,
                ..
            }
        ),
        "{error}"
    );
    let arrived = tokio::time::timeout(Duration::from_millis(300), received.recv()).await;
    assert!(arrived.is_err(), "no handler ran: {arrived:?}");
}
