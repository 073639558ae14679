//! Requests written byte by byte over plain TCP, as a hostile client
//! would: an HTTP client crate would not send a short body or a head in
//! pieces.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// A request the service answers with a 2xx, for the client that must be
/// answered throughout a check.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: &'static str,
    /// Absolute: `/v1/orders?limit=1`.
    pub path: String,
    /// Whole header lines: `Authorization: Bearer KEY`.
    pub headers: Vec<String>,
}

impl Request {
    pub fn get(path: impl Into<String>, headers: &[&str]) -> Request {
        Request {
            method: "GET",
            path: path.into(),
            headers: headers.iter().map(|h| h.to_string()).collect(),
        }
    }

    /// The request's bytes, with `extra` header lines, on a connection that
    /// closes after it.
    pub fn bytes(&self, extra: &[&str]) -> Vec<u8> {
        let mut head = format!(
            "{} {} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n",
            self.method, self.path
        );
        for line in self.headers.iter().map(String::as_str).chain(extra.iter().copied()) {
            head.push_str(line);
            head.push_str("\r\n");
        }
        head.push_str("\r\n");
        head.into_bytes()
    }
}

/// Sends `request` on a connection of its own: the answer's status and
/// its whole text, or `None` when none came within 10 s.
pub fn send(address: SocketAddr, request: &[u8]) -> Option<(u16, String)> {
    let mut stream = TcpStream::connect_timeout(&address, Duration::from_secs(5)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    stream.write_all(request).ok()?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response).ok()?;
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text.get(9..12)?.parse().ok()?;
    Some((status, text))
}

/// How long until the service closes `conn` (reading and dropping
/// whatever it answers), at most `limit`.
pub fn time_until_closed(conn: &mut TcpStream, limit: Duration) -> Duration {
    let started = Instant::now();
    let mut buf = [0u8; 4096];
    loop {
        let left = limit.saturating_sub(started.elapsed());
        if left.is_zero() || conn.set_read_timeout(Some(left)).is_err() {
            return started.elapsed();
        }
        match conn.read(&mut buf) {
            Ok(0) | Err(_) => return started.elapsed(),
            Ok(_) => {}
        }
    }
}

/// Sends `request` `count` times on one connection, pipelined (written on
/// a thread while the answers are read): how many were answered 2xx.
pub fn pipelined(address: SocketAddr, request: &Request, count: usize) -> usize {
    let keep_alive = String::from_utf8(request.bytes(&[]))
        .expect("an ASCII request")
        .replace("Connection: close\r\n", "Connection: keep-alive\r\n");
    let mut stream = TcpStream::connect_timeout(&address, Duration::from_secs(5)).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("a timeout");
    let mut writer = stream.try_clone().expect("a second handle");
    let last = request.bytes(&[]);
    let written = std::thread::spawn(move || {
        for _ in 1..count {
            writer.write_all(keep_alive.as_bytes())?;
        }
        writer.write_all(&last)
    });
    let mut answers = Vec::new();
    let _ = stream.read_to_end(&mut answers);
    let _ = written.join();
    String::from_utf8_lossy(&answers)
        .split("HTTP/1.1 ")
        .filter(|answer| answer.starts_with('2') && answer.get(3..4) == Some(" "))
        .count()
}
