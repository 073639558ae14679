//! A real HTTP/1.1 server on an ephemeral loopback port that answers each
//! request with the next of its scripted answers (the last one again once
//! the script runs out) and keeps what it was sent: what a client's
//! retries are tested against (a deploy's 503s, a 429 with
//! `Retry-After`). Each answer closes its connection, so every attempt is
//! a request of its own. Plain threads and `std::net`: any test, async or
//! not, can start one.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// One scripted answer: status, extra headers, a JSON body.
#[derive(Clone, Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// How long the server waits before it answers.
    pub delay: std::time::Duration,
}

/// An answer with this status and `{}` as its body.
pub fn answer(status: u16) -> Answer {
    Answer {
        status,
        headers: Vec::new(),
        body: "{}".into(),
        delay: std::time::Duration::ZERO,
    }
}

impl Answer {
    pub fn with_header(mut self, name: &str, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub fn with_body(mut self, body: impl Into<String>) -> Self {
        self.body = body.into();
        self
    }

    /// Answers only after `delay` (a slow server, for deadlines).
    pub fn after(mut self, delay: std::time::Duration) -> Self {
        self.delay = delay;
        self
    }
}

pub struct ScriptedServer {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    received: Arc<Mutex<Vec<String>>>,
}

impl ScriptedServer {
    /// Serves `script` (at least one answer) until the process ends.
    pub fn start(script: Vec<Answer>) -> ScriptedServer {
        assert!(!script.is_empty(), "a script of at least one answer");
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let received = Arc::new(Mutex::new(Vec::new()));
        let log = received.clone();
        std::thread::spawn(move || {
            for (index, stream) in listener.incoming().enumerate() {
                let Ok(mut stream) = stream else { continue };
                log.lock().unwrap().push(read_request(&mut stream));
                let answer = &script[index.min(script.len() - 1)];
                // A slow answer holds the next connection back: the script
                // is one client's, one request at a time.
                std::thread::sleep(answer.delay);
                let mut head = format!(
                    "HTTP/1.1 {} Scripted\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
                    answer.status,
                    answer.body.len()
                );
                for (name, value) in &answer.headers {
                    head.push_str(&format!("{name}: {value}\r\n"));
                }
                head.push_str("\r\n");
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(answer.body.as_bytes());
                let _ = stream.shutdown(std::net::Shutdown::Both);
            }
        });
        ScriptedServer { url, received }
    }

    /// How many requests it has been sent.
    pub fn requests(&self) -> usize {
        self.received.lock().unwrap().len()
    }

    /// Each request's head and body, as received, in order.
    pub fn received(&self) -> Vec<String> {
        self.received.lock().unwrap().clone()
    }
}

/// The request's head and its `content-length` body.
fn read_request(stream: &mut TcpStream) -> String {
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 4096];
    while let Ok(read) = stream.read(&mut buffer) {
        if read == 0 {
            break;
        }
        bytes.extend_from_slice(&buffer[..read]);
        let text = String::from_utf8_lossy(&bytes);
        if let Some(end) = text.find("\r\n\r\n") {
            let length = text[..end]
                .lines()
                .find_map(|line| {
                    let (name, value) = line.split_once(':')?;
                    name.eq_ignore_ascii_case("content-length")
                        .then(|| value.trim().parse::<usize>().ok())?
                })
                .unwrap_or(0);
            if bytes.len() >= end + 4 + length {
                break;
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}
