//! CORS as the headers say it (`--cors-origin`): preflights answered
//! from the spec, never with a 401; `Access-Control-Allow-Origin` and
//! `Vary: Origin` on answers; credentials only with origins named one by
//! one. A real browser's verdict is [`crate::browser`]'s.

use std::process::Command;

use crate::checks::Service;
use crate::raw_http::{Request, send};

const ALLOWED: &str = "http://app.example.test:8000";
const OTHER: &str = "http://elsewhere.example.test";

/// The value of header `name` in a raw answer, if it is there.
pub fn header<'a>(answer: &'a str, name: &str) -> Option<&'a str> {
    let head = answer.split("\r\n\r\n").next()?;
    head.lines().skip(1).find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.trim().eq_ignore_ascii_case(name).then(|| value.trim())
    })
}

/// `body_request` is an operation that takes a JSON body, whose
/// preflight must allow `needed` request headers beside `Content-Type`.
pub fn cors_follows_the_origins_allowed(service: &Service, body_request: &Request, needed: &[&str]) {
    let process = service.start(&["--cors-origin", ALLOWED, "--cors-origin", "http://second.example.test"]);
    let address = process.address();
    let preflight = |origin: &str| {
        let request = Request {
            method: "OPTIONS",
            path: body_request.path.clone(),
            headers: vec![],
        };
        let origin = format!("Origin: {origin}");
        let method = format!("Access-Control-Request-Method: {}", body_request.method);
        let headers = "Access-Control-Request-Headers: authorization,content-type";
        send(address, &request.bytes(&[&origin, &method, headers])).expect("an answer to the preflight")
    };
    let (status, answer) = preflight(ALLOWED);
    assert_eq!(status, 204, "a preflight (no credentials, never a 401): {answer}");
    assert_eq!(
        header(&answer, "access-control-allow-origin"),
        Some(ALLOWED),
        "{answer}"
    );
    assert_eq!(
        header(&answer, "access-control-allow-credentials"),
        Some("true"),
        "{answer}"
    );
    let methods = header(&answer, "access-control-allow-methods").unwrap_or_default();
    assert!(methods.split(", ").any(|m| m == body_request.method), "{answer}");
    let allowed_headers = header(&answer, "access-control-allow-headers")
        .unwrap_or_default()
        .to_ascii_lowercase();
    for needed in needed.iter().chain(&["content-type"]) {
        let needed = needed.to_ascii_lowercase();
        assert!(allowed_headers.split(", ").any(|h| h == needed), "{needed}: {answer}");
    }
    let (status, answer) = preflight(OTHER);
    assert_eq!(status, 204, "{answer}");
    assert_eq!(header(&answer, "access-control-allow-origin"), None, "{answer}");

    let get = |origin: &str| {
        let origin = format!("Origin: {origin}");
        send(address, &service.served.bytes(&[&origin])).expect("an answer")
    };
    let (status, answer) = get(ALLOWED);
    assert!((200..300).contains(&status), "{answer}");
    assert_eq!(
        header(&answer, "access-control-allow-origin"),
        Some(ALLOWED),
        "{answer}"
    );
    assert_eq!(header(&answer, "vary"), Some("Origin"), "{answer}");
    let exposed = header(&answer, "access-control-expose-headers").unwrap_or_default();
    assert!(exposed.contains("x-request-id"), "{answer}");
    // Served, but without the header the browser needs to hand it over.
    let (status, answer) = get(OTHER);
    assert!((200..300).contains(&status), "{answer}");
    assert_eq!(header(&answer, "access-control-allow-origin"), None, "{answer}");
    assert_eq!(header(&answer, "vary"), Some("Origin"), "{answer}");
    drop(process);

    // Any origin, and then never credentials.
    let any = service.start(&["--cors-origin", "*"]);
    let origin = format!("Origin: {OTHER}");
    let (_, answer) = send(any.address(), &service.served.bytes(&[&origin])).expect("an answer");
    assert_eq!(header(&answer, "access-control-allow-origin"), Some("*"), "{answer}");
    assert_eq!(header(&answer, "access-control-allow-credentials"), None, "{answer}");
    drop(any);

    // Without --cors-origin: nothing of CORS.
    let off = service.start(&[]);
    let (_, answer) = send(off.address(), &service.served.bytes(&[&origin])).expect("an answer");
    assert_eq!(header(&answer, "access-control-allow-origin"), None, "{answer}");
    assert_eq!(header(&answer, "vary"), None, "{answer}");
    drop(off);

    // An origin that is not one is refused at start, with the reason.
    for wrong in [
        &["--cors-origin", "app.example.test"][..],
        &["--cors-origin", "*", "--cors-origin", ALLOWED],
    ] {
        let output = Command::new(&service.binary)
            .args(&service.args)
            .args(["--bind", "127.0.0.1:0"])
            .args(wrong)
            .output()
            .expect("the service runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            !output.status.success() && stderr.contains("--cors-origin"),
            "{wrong:?}: {stderr}"
        );
    }
}
