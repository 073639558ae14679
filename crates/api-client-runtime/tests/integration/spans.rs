//! A request's tracing span, seen by a subscriber that records what it
//! is given, against a real server that fails the first request: named by
//! the operation, with the method, the path template, the attempt and the
//! status, and a retry as an event inside it. The subscriber is the
//! binary's global one, as an application installs it: a scoped one
//! races with the other tests' threads over the span's cached interest.
//! (That a span without a subscriber is disabled is `spans.rs`'s unit
//! test.)

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use api_client_runtime::retries::{Retries, execute};
use api_client_runtime::spans::Route;
use reqwest::Method;
use serving_checks::scripted_server::{ScriptedServer, answer};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// Each span's name and fields, and each event's fields with its span's
/// id, as given.
#[derive(Default)]
struct Recorded {
    spans: BTreeMap<u64, (String, BTreeMap<String, String>)>,
    events: Vec<(Option<u64>, BTreeMap<String, String>)>,
}

#[derive(Clone, Default)]
struct Recorder {
    recorded: Arc<Mutex<Recorded>>,
    next: Arc<AtomicU64>,
}

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_string(), format!("{value:?}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_string(), value.to_string());
    }
}

impl Subscriber for Recorder {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let id = self.next.fetch_add(1, Ordering::SeqCst) + 1;
        let mut fields = BTreeMap::new();
        span.record(&mut Fields(&mut fields));
        let name = span.metadata().name().to_string();
        self.recorded.lock().unwrap().spans.insert(id, (name, fields));
        Id::from_u64(id)
    }

    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut recorded = self.recorded.lock().unwrap();
        if let Some((_, fields)) = recorded.spans.get_mut(&span.into_u64()) {
            values.record(&mut Fields(fields));
        }
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut fields = BTreeMap::new();
        event.record(&mut Fields(&mut fields));
        let parent = event.parent().map(Id::into_u64);
        self.recorded.lock().unwrap().events.push((parent, fields));
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

/// The binary's global subscriber, installed once.
fn recorder() -> &'static Recorder {
    static RECORDER: OnceLock<Recorder> = OnceLock::new();
    RECORDER.get_or_init(|| {
        let recorder = Recorder::default();
        tracing::subscriber::set_global_default(recorder.clone()).expect("no other global subscriber");
        recorder
    })
}

#[tokio::test]
async fn each_request_is_a_span_named_by_its_operation() {
    let server = ScriptedServer::start(vec![answer(503), answer(200)]);
    let recorder = recorder();
    let retries = Retries::default().backoff(Duration::from_millis(10), Duration::from_millis(20));
    let request = reqwest::Request::new(Method::GET, format!("{}/store/orders/7", server.url).parse().unwrap());
    let route = Route {
        operation_id: "getOrder",
        path: "/store/orders/{orderId}",
    };

    let response = execute(&reqwest::Client::new(), &retries, request, "get_order", Some(route))
        .await
        .unwrap();
    assert_eq!(response.status(), 200);

    let recorded = recorder.recorded.lock().unwrap();
    let requests: Vec<_> = recorded
        .spans
        .iter()
        .filter(|(_, (name, fields))| name == "request" && fields.get("otel.name").is_some_and(|n| n == "getOrder"))
        .collect();
    assert_eq!(requests.len(), 1, "one span for the request, its retry inside it");
    let (id, (_, fields)) = requests[0];
    for (field, value) in [
        ("otel.name", "getOrder"),
        ("operation_id", "getOrder"),
        ("http.request.method", "GET"),
        ("http.route", "/store/orders/{orderId}"),
        ("http.response.status_code", "200"),
        ("attempt", "2"),
    ] {
        assert_eq!(
            fields.get(field).map(String::as_str),
            Some(value),
            "{field}: {fields:?}"
        );
    }
    let retried: Vec<_> = recorded
        .events
        .iter()
        .filter(|(parent, _)| *parent == Some(*id))
        .collect();
    assert_eq!(retried.len(), 1, "{:?}", recorded.events);
    assert_eq!(retried[0].1.get("attempt").map(String::as_str), Some("1"));
    assert_eq!(retried[0].1.get("message").map(String::as_str), Some("retrying"));
}
