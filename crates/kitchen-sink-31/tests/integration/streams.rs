//! Streamed responses end to end: the handler's typed stream, written
//! item by item by the generated layer, read item by item by the
//! generated client. Ten thousand events; a reader that falls behind
//! holds production back; a reader that leaves drops the handler's
//! stream; a broken connection resumes after `Last-Event-ID`; the SSE
//! reader reads what the HTML standard allows.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use futures::StreamExt;
use kitchen_sink_31::client::{SseReader, types};

use crate::support::Sink31;

async fn one_shape(sink: &Sink31) {
    let circle = types::NewShape::Circle(types::Circle {
        kind: types::CircleKind::Circle,
        label: None,
        radius: 1.0,
    });
    sink.client().post_shapes(&circle).await.unwrap();
}

#[tokio::test]
async fn ten_thousand_events_arrive_typed_in_order() {
    let sink = Sink31::start().await;
    one_shape(&sink).await;
    let client = sink.client();
    let count = std::num::NonZeroU64::new(10_000);
    let mut events = client.get_shapes_events_events(count, None, None, None);
    let mut count = 0u64;
    while let Some(event) = events.next().await {
        let event = event.unwrap();
        assert_eq!(event.event, "shape");
        assert_eq!(event.data.seq, count);
        assert_eq!(event.id.as_deref(), Some(count.to_string().as_str()));
        assert_eq!(event.data.shape.as_ref().unwrap().id.get(), 1);
        count += 1;
    }
    assert_eq!(count, 10_000);
    assert_eq!(sink.service().gauges.produced.load(Ordering::SeqCst), 10_000);
    assert_eq!(
        sink.service().gauges.open.load(Ordering::SeqCst),
        0,
        "the finished stream is dropped"
    );
}

#[tokio::test]
async fn a_last_event_id_resumes_after_it_and_lines_arrive_typed() {
    let sink = Sink31::start().await;
    one_shape(&sink).await;
    one_shape(&sink).await;
    let client = sink.client();
    let after: types::GetShapesEventsLastEventId = "2".parse().unwrap();
    let count = std::num::NonZeroU64::new(6);
    let seqs: Vec<u64> = client
        .get_shapes_events_events(count, None, None, Some(&after))
        .map(|event| event.unwrap().data.seq)
        .collect()
        .await;
    assert_eq!(seqs, [3, 4, 5]);
    let shapes: Vec<types::Shape> = client
        .get_shapes_lines_items()
        .await
        .unwrap()
        .map(|shape| shape.unwrap())
        .collect()
        .await;
    assert_eq!(shapes.iter().map(|s| s.id.get()).collect::<Vec<_>>(), [1, 2]);
    // On the wire: one JSON document per line.
    let response = sink
        .http
        .get(format!("{}/shapes/lines", sink.base))
        .bearer_auth(&sink.key)
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["content-type"], "application/jsonl");
    assert_eq!(response.text().await.unwrap().lines().count(), 2);
}

/// The resident memory of this process (the server runs in it), in KiB.
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// An endless stream, produced as fast as it is read: while the reader
/// reads nothing, the server produces nothing (what the socket buffers
/// hold aside) and its memory stays flat; when it reads again, production
/// resumes.
#[tokio::test]
async fn a_slow_reader_holds_production_back_and_memory_stays_flat() {
    let sink = Sink31::start_alone().await;
    one_shape(&sink).await;
    let response = sink
        .http
        .get(format!("{}/shapes/events?follow=true&intervalMs=0", sink.base))
        .bearer_auth(&sink.key)
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let mut body = response.bytes_stream();
    let mut read = 0usize;
    while read < 1 << 20 {
        read += body.next().await.unwrap().unwrap().len();
    }
    let produced = || sink.service().gauges.produced.load(Ordering::SeqCst);
    // The reader stops; what the buffers take is produced, then nothing.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (paused_at, rss_at) = (produced(), rss_kib());
    tokio::time::sleep(Duration::from_secs(1)).await;
    let (paused_after, rss_after) = (produced(), rss_kib());
    assert_eq!(
        paused_at, paused_after,
        "nothing is produced while the reader is behind"
    );
    assert!(
        rss_after < rss_at + 4 * 1024,
        "memory flat: {rss_at} KiB -> {rss_after} KiB"
    );
    // It reads again: production resumes.
    let deadline = Instant::now() + Duration::from_secs(10);
    while produced() == paused_after && Instant::now() < deadline {
        body.next().await.unwrap().unwrap();
    }
    assert!(produced() > paused_after);
}

#[tokio::test]
async fn a_reader_that_leaves_drops_the_handlers_stream() {
    let sink = Sink31::start().await;
    let client = sink.client();
    let mut events = client.get_shapes_events_events(None, Some(true), Some(1), None);
    for _ in 0..3 {
        assert_eq!(events.next().await.unwrap().unwrap().event, "tick");
    }
    assert_eq!(sink.service().gauges.open.load(Ordering::SeqCst), 1);
    drop(events);
    drop(client);
    let deadline = Instant::now() + Duration::from_secs(10);
    while sink.service().gauges.open.load(Ordering::SeqCst) != 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        sink.service().gauges.open.load(Ordering::SeqCst),
        0,
        "dropped once the reader left"
    );
}

/// A server that answers the first request with two events and breaks
/// the connection, and the second (which must carry `Last-Event-ID`)
/// with the rest: the client's stream resumes, and no event is lost or
/// repeated.
#[tokio::test]
async fn a_broken_event_stream_resumes_after_the_last_event_id() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/sink31", listener.local_addr().unwrap());
    let server = tokio::spawn(async move {
        let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n";
        let chunk = |text: &str| format!("{:x}\r\n{text}\r\n", text.len());
        let mut requests = Vec::new();
        for round in 0..2 {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut request = vec![0u8; 4096];
            let n = socket.read(&mut request).await.unwrap();
            requests.push(String::from_utf8_lossy(&request[..n]).to_lowercase());
            let mut out = head.to_string();
            if round == 0 {
                out.push_str(&chunk("retry: 10\nid: 0\nevent: shape\ndata: {\"seq\":0}\n\n"));
                out.push_str(&chunk("id: 1\ndata: {\"seq\":1}\n\n"));
                // Broken: the connection closes mid-body.
                socket.write_all(out.as_bytes()).await.unwrap();
            } else {
                out.push_str(&chunk("id: 2\ndata: {\"seq\":2}\n\n"));
                out.push_str("0\r\n\r\n");
                socket.write_all(out.as_bytes()).await.unwrap();
            }
        }
        requests
    });
    let client = kitchen_sink_31::client::Client::new(
        &base,
        kitchen_sink_31::client::Credentials {
            bearer: Some("k".into()),
        },
    );
    let seqs: Vec<u64> = client
        .get_shapes_events_events(None, None, None, None)
        .map(|event| event.unwrap().data.seq)
        .collect()
        .await;
    assert_eq!(seqs, [0, 1, 2]);
    let requests = server.await.unwrap();
    assert!(!requests[0].contains("last-event-id"));
    assert!(requests[1].contains("last-event-id: 1\r\n"), "{}", requests[1]);
}

/// The reader reads what the standard allows: CRLF, LF and CR line ends
/// (split anywhere), data on several lines, comments, a field without a
/// value, `retry`, an id that stays for the events after it, and nothing
/// dispatched for a block without data.
#[test]
fn the_sse_reader_reads_what_the_standard_allows() {
    let text = "\u{feff}: a comment\r\nevent: a\r\ndata: {\"x\":\r\ndata: 1}\r\nid: 7\r\nretry: 2500\r\n\r\ndata\n\n: only a comment\n\nevent: ignored-without-data\n\ndata: {\"y\":2}\rretry: soon\r\r";
    let mut reader = SseReader::default();
    let mut events = Vec::new();
    for piece in text.as_bytes().chunks(3) {
        events.extend(reader.feed(piece));
    }
    assert_eq!(events.len(), 3, "{events:?}");
    assert_eq!(events[0].event, "a");
    assert_eq!(events[0].data, "{\"x\":\n1}");
    assert_eq!(events[0].id.as_deref(), Some("7"));
    assert_eq!(events[0].retry, Some(Duration::from_millis(2500)));
    assert_eq!((events[1].event.as_str(), events[1].data.as_str()), ("message", ""));
    assert_eq!(events[2].data, "{\"y\":2}");
    assert_eq!(events[2].id.as_deref(), Some("7"), "the last id stays");
    assert_eq!(
        events[2].retry,
        Some(Duration::from_millis(2500)),
        "`retry: soon` is ignored"
    );
}
