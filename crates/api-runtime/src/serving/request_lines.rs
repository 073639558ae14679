//! The `request completed` line of a request the generated layer
//! answered, written by the layer itself from what it holds typed: the
//! same fields as dropshot's line (`latency_us`, `response_code`, `uri`,
//! `method`, `req_id`, `remote_addr`), in the same order, and the id the
//! request came with (`incoming_req_id`, after `req_id`) when it was kept
//! (`request_ids`).
//!
//! Why not dropshot's: its line reaches the log as slog values, among them
//! the client's address as a `SocketAddr` that only `Display` can write,
//! which alone takes as long as the rest of the line. Written here, the
//! address is a few digits, and the line costs a request about a third of
//! what dropshot's did. dropshot's record of the same request follows on
//! the same thread (the handler's future ends in the poll that logs it:
//! `Running::start` serves with `HandlerTaskMode::CancelOnDisconnect`,
//! which runs the handler in the request's own task, not a spawned one)
//! and is dropped by the level filter (`logging`), told by a flag this
//! thread sets. Requests dropshot answers alone (no route, the probes)
//! keep dropshot's line.

use std::cell::Cell;
use std::io::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use dropshot::RequestInfo;

use super::log_lines::{LogFormat, json_string};
use super::log_time::{timestamp_of, wall_time_at};
use super::log_writer::{BatchedStderr, Shared};
use super::request_ids::RequestIds;

/// Where the generated layer writes request lines: the log's writer, when
/// the level writes `info`.
#[derive(Clone)]
pub struct RequestLines {
    pub(super) shared: Arc<Shared>,
    pub(super) format: LogFormat,
}

thread_local! {
    /// Set when the layer has written a request's line on this thread; the
    /// filter drops dropshot's record of it and clears it.
    static WRITTEN: Cell<bool> = const { Cell::new(false) };
}

/// Whether the generated layer wrote the line of the request whose
/// dropshot record is being logged on this thread (and forgets it).
pub(super) fn take_written() -> bool {
    WRITTEN.replace(false)
}

impl RequestLines {
    /// The request lines of the log `log` writes.
    pub(super) fn of(log: &BatchedStderr) -> RequestLines {
        RequestLines {
            shared: log.shared.clone(),
            format: log.format,
        }
    }

    /// Writes the line of `request`, answered with `status` in `elapsed`,
    /// at `now` (the moment `elapsed` was measured to).
    pub(super) fn write(&self, request: &RequestInfo, now: Instant, elapsed: Duration, ids: &RequestIds, status: u16) {
        let line = RequestLine {
            time: wall_time_at(now),
            status,
            latency_us: u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX),
            uri: request.uri(),
            method: request.method().as_str(),
            request_id: &ids.own,
            incoming_request_id: ids.incoming(),
            remote: request.remote_addr(),
        };
        self.shared
            .queue_formatted(|bytes| format_request(self.format, &line, bytes), false);
        WRITTEN.set(true);
    }
}

/// A request the generated layer answered, for its line.
struct RequestLine<'a> {
    /// The wall clock's time when it was answered, since the Unix epoch.
    time: Duration,
    status: u16,
    latency_us: u64,
    uri: &'a http::Uri,
    method: &'a str,
    request_id: &'a str,
    incoming_request_id: Option<&'a str>,
    remote: SocketAddr,
}

/// Appends `request`'s line to `line`: what `log_lines::format` writes for
/// dropshot's record of it, but for `local_addr`.
fn format_request(format: LogFormat, request: &RequestLine<'_>, line: &mut Vec<u8>) {
    let mut status = itoa::Buffer::new();
    let mut latency = itoa::Buffer::new();
    let (status, latency) = (status.format(request.status), latency.format(request.latency_us));
    match format {
        LogFormat::Text => {
            timestamp_of(line, request.time);
            line.extend_from_slice(b" INFO request completed, latency_us: ");
            line.extend_from_slice(latency.as_bytes());
            line.extend_from_slice(b", response_code: ");
            line.extend_from_slice(status.as_bytes());
            line.extend_from_slice(b", uri: ");
            line.extend_from_slice(target(request.uri).as_bytes());
            line.extend_from_slice(b", method: ");
            line.extend_from_slice(request.method.as_bytes());
            line.extend_from_slice(b", req_id: ");
            line.extend_from_slice(request.request_id.as_bytes());
            if let Some(incoming) = request.incoming_request_id {
                line.extend_from_slice(b", incoming_req_id: ");
                line.extend_from_slice(incoming.as_bytes());
            }
            line.extend_from_slice(b", remote_addr: ");
            socket_address(request.remote, line);
        }
        LogFormat::Json => {
            line.extend_from_slice(b"{\"msg\":\"request completed\",\"level\":\"INFO\",\"ts\":\"");
            timestamp_of(line, request.time);
            line.extend_from_slice(b"\",\"latency_us\":");
            line.extend_from_slice(latency.as_bytes());
            line.extend_from_slice(b",\"response_code\":");
            line.extend_from_slice(status.as_bytes());
            line.extend_from_slice(b",\"uri\":");
            json_string(line, &target(request.uri));
            line.extend_from_slice(b",\"method\":");
            json_string(line, request.method);
            line.extend_from_slice(b",\"req_id\":");
            json_string(line, request.request_id);
            if let Some(incoming) = request.incoming_request_id {
                line.extend_from_slice(b",\"incoming_req_id\":");
                json_string(line, incoming);
            }
            line.extend_from_slice(b",\"remote_addr\":\"");
            socket_address(request.remote, line);
            line.extend_from_slice(b"\"}");
        }
    }
    line.push(b'\n');
}

/// The request's target as dropshot writes it (`format!("{}", uri)`):
/// the path and query of an origin-form target, without `Display`.
fn target(uri: &http::Uri) -> std::borrow::Cow<'_, str> {
    match uri.path_and_query() {
        Some(target) if uri.scheme().is_none() && uri.authority().is_none() => target.as_str().into(),
        _ => uri.to_string().into(),
    }
}

/// `127.0.0.1:41000`, written in place and appended at once: a request
/// pays for this on every line, and a number at a time through `itoa`,
/// each appended, cost it twice as much. An IPv6 address by `Display`.
fn socket_address(address: SocketAddr, line: &mut Vec<u8>) {
    match address {
        SocketAddr::V4(v4) => {
            // Four octets of up to four bytes each (the dot included), the
            // port's five digits.
            let mut text = [0u8; 21];
            let mut at = 0;
            for octet in v4.ip().octets() {
                let (bytes, length) = OCTETS[usize::from(octet)];
                text[at..at + 4].copy_from_slice(&bytes);
                at += usize::from(length);
            }
            // The last octet's dot is the port's colon.
            text[at - 1] = b':';
            let mut digits = itoa::Buffer::new();
            let port = digits.format(v4.port()).as_bytes();
            text[at..at + port.len()].copy_from_slice(port);
            line.extend_from_slice(&text[..at + port.len()]);
        }
        SocketAddr::V6(_) => {
            let _ = write!(line, "{address}");
        }
    }
}

/// Each octet's digits followed by a dot, padded to four bytes, and how
/// many of them count: a fixed four-byte copy writes any octet.
const OCTETS: [([u8; 4], u8); 256] = {
    let mut table = [([0u8; 4], 0u8); 256];
    let mut octet = 0;
    while octet < 256 {
        let (hundreds, tens, ones) = ((octet / 100) as u8, (octet / 10 % 10) as u8, (octet % 10) as u8);
        table[octet] = match octet {
            100.. => ([b'0' + hundreds, b'0' + tens, b'0' + ones, b'.'], 4),
            10.. => ([b'0' + tens, b'0' + ones, b'.', 0], 3),
            _ => ([b'0' + ones, b'.', 0, 0], 2),
        };
        octet += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serving::log_lines;

    /// The layer's line of a request, and the line of dropshot's record of
    /// it, without their times.
    fn both_lines(format: LogFormat, uri: &str, remote: SocketAddr) -> (String, String) {
        let uri: http::Uri = uri.parse().unwrap();
        let request = RequestLine {
            time: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap(),
            status: 404,
            latency_us: 1234,
            uri: &uri,
            method: "DELETE",
            request_id: "0b9c3a52-6f1e-4d2a-9a57-2d4f0c1e8b31",
            incoming_request_id: None,
            remote,
        };
        let mut ours = Vec::new();
        format_request(format, &request, &mut ours);
        let dropshots = log_lines::server_line(format, |log| {
            // As dropshot's request logger holds them (a child of the server's).
            let log = log.new(slog::o!(
                "remote_addr" => remote,
                "req_id" => request.request_id.to_string(),
                "method" => "DELETE".to_string(),
                "uri" => format!("{uri}"),
            ));
            slog::info!(log, "request completed"; "response_code" => 404u16, "latency_us" => 1234u128)
        });
        let untimed = |text: &str| match format {
            LogFormat::Text => text.split_once(' ').unwrap().1.to_string(),
            LogFormat::Json => {
                let mut record: serde_json::Value = serde_json::from_str(text).unwrap();
                record["ts"] = serde_json::Value::Null;
                record.to_string()
            }
        };
        (untimed(&String::from_utf8(ours).unwrap()), untimed(&dropshots))
    }

    #[test]
    fn the_layers_request_line_is_dropshots_without_the_servers_address() {
        let v4 = SocketAddr::from(([192, 168, 10, 200], 65535));
        let v6: SocketAddr = "[2001:db8::1]:8080".parse().unwrap();
        for format in [LogFormat::Text, LogFormat::Json] {
            for (uri, remote) in [
                ("/v1/store/orders/1?x=%22y%22", v4),
                ("http://example.com/v1/store/orders", v6),
                ("*", v4),
            ] {
                let (ours, dropshots) = both_lines(format, uri, remote);
                assert_eq!(ours, dropshots, "{uri} from {remote}");
            }
        }
    }

    #[test]
    fn an_address_is_written_as_display_writes_it() {
        let octets = [0u8, 7, 10, 99, 100, 255];
        let ports = [0u16, 9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 65_535];
        for (&a, &b) in octets.iter().zip(octets.iter().rev()) {
            for port in ports {
                let address = SocketAddr::from(([a, b, a, b], port));
                let mut line = b"remote_addr: ".to_vec();
                socket_address(address, &mut line);
                assert_eq!(String::from_utf8(line).unwrap(), format!("remote_addr: {address}"));
            }
        }
    }

    #[test]
    fn an_incoming_id_follows_dropshots_own() {
        let uri: http::Uri = "/v1/orders".parse().unwrap();
        let request = RequestLine {
            time: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap(),
            status: 200,
            latency_us: 7,
            uri: &uri,
            method: "GET",
            request_id: "r-1",
            incoming_request_id: Some(r#"a"b\c"#),
            remote: SocketAddr::from(([127, 0, 0, 1], 9)),
        };
        let mut text = Vec::new();
        format_request(LogFormat::Text, &request, &mut text);
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.ends_with("req_id: r-1, incoming_req_id: a\"b\\c, remote_addr: 127.0.0.1:9\n"),
            "{text}"
        );
        let mut json = Vec::new();
        format_request(LogFormat::Json, &request, &mut json);
        let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(
            (&json["req_id"], &json["incoming_req_id"]),
            (&"r-1".into(), &r#"a"b\c"#.into())
        );
    }
}
