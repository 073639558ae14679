//! Hostile requests: each gets the status the spec documents with the
//! Error body (or, where dropshot's router answers before our code runs,
//! the pinned known-gap behaviour), and the server still answers after.

use petstore_tests::harness::TestServer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// What the body must be.
#[derive(Debug, Clone, Copy)]
enum Body {
    /// The spec's Error object with this code.
    Error(&'static str),
    /// A success body (or none, for 204).
    Success,
    /// dropshot's router answered: `{"request_id", "message"}` (docs/known-gaps.md).
    RouterGap,
    /// hyper refused the request before dropshot saw it: no body.
    Refused,
}

struct Case {
    name: &'static str,
    method: &'static str,
    /// Relative to the base path, unless it starts with `!`: then absolute.
    path: String,
    /// Raw header lines; `KEY` is replaced by the valid key.
    headers: Vec<Vec<u8>>,
    body: &'static [u8],
    status: u16,
    expect: Body,
}

fn case(name: &'static str, method: &'static str, path: impl Into<String>, status: u16, expect: Body) -> Case {
    Case {
        name,
        method,
        path: path.into(),
        headers: vec![b"Authorization: Bearer KEY".to_vec()],
        body: b"",
        status,
        expect,
    }
}

fn with_auth(name: &'static str, authorization: &[&[u8]], status: u16, expect: Body) -> Case {
    let headers = authorization
        .iter()
        .map(|a| [&b"Authorization: "[..], a].concat())
        .collect();
    Case {
        name,
        method: "GET",
        path: "/store/orders".into(),
        headers,
        body: b"",
        status,
        expect,
    }
}

fn cases() -> Vec<Case> {
    use Body::*;
    let order = |id: &str| format!("/store/orders/{id}");
    let long_digits = "1".repeat(10 * 1024);
    let long_letters = "a".repeat(10 * 1024);
    let long_token = [&b"Bearer "[..], &[b'a'; 8 * 1024][..]].concat();
    let mut cases = vec![
        // orderId
        case(
            "overflow",
            "DELETE",
            order("9223372036854775808"),
            400,
            Error("invalid_parameter"),
        ),
        case(
            "negative overflow",
            "DELETE",
            order("-9223372036854775809"),
            400,
            Error("invalid_parameter"),
        ),
        case("negative", "DELETE", order("-1"), 404, Error("order_not_found")),
        case("zero", "DELETE", order("0"), 404, Error("order_not_found")),
        case("exponent", "DELETE", order("1e3"), 400, Error("invalid_parameter")),
        case("hex", "DELETE", order("0x10"), 400, Error("invalid_parameter")),
        case("plus sign", "DELETE", order("+5"), 400, Error("invalid_parameter")),
        case("decimal", "DELETE", order("1.0"), 400, Error("invalid_parameter")),
        case(
            "leading space",
            "DELETE",
            order("%201"),
            400,
            Error("invalid_parameter"),
        ),
        case(
            "arabic-indic digit",
            "DELETE",
            order("%D9%A1"),
            400,
            Error("invalid_parameter"),
        ),
        case(
            "fullwidth digit",
            "DELETE",
            order("%EF%BC%91"),
            400,
            Error("invalid_parameter"),
        ),
        case(
            "percent-encoded NUL",
            "DELETE",
            order("%00"),
            400,
            Error("invalid_parameter"),
        ),
        case(
            "digit then NUL",
            "DELETE",
            order("1%00"),
            400,
            Error("invalid_parameter"),
        ),
        case(
            "10 KB of digits",
            "DELETE",
            order(&long_digits),
            400,
            Error("invalid_parameter"),
        ),
        case(
            "10 KB of letters",
            "DELETE",
            order(&long_letters),
            400,
            Error("invalid_parameter"),
        ),
        case(
            "encoded slash",
            "DELETE",
            order("1%2F2"),
            400,
            Error("invalid_parameter"),
        ),
        case("not UTF-8", "DELETE", order("%FF"), 400, RouterGap),
        // Authorization
        with_auth("lower-case scheme", &[b"bearer KEY"], 200, Success),
        with_auth("upper-case scheme", &[b"BEARER KEY"], 200, Success),
        with_auth("extra spaces", &[b"Bearer    KEY"], 200, Success),
        with_auth("tab separator", &[b"Bearer\tKEY"], 401, Error("unauthorized")),
        with_auth("scheme alone", &[b"Bearer"], 401, Error("unauthorized")),
        with_auth("scheme and space", &[b"Bearer "], 401, Error("unauthorized")),
        with_auth("basic", &[b"Basic dXNlcjpwYXNz"], 401, Error("unauthorized")),
        with_auth("other scheme", &[b"Token KEY"], 401, Error("unauthorized")),
        with_auth("8 KB token", &[&long_token], 401, Error("unauthorized")),
        with_auth("non-ASCII bytes", &[b"Bearer \xff\xfe\xfd"], 401, Error("unauthorized")),
        with_auth(
            "two headers",
            &[b"Bearer KEY", b"Bearer KEY"],
            401,
            Error("unauthorized"),
        ),
        with_auth(
            "two headers, one wrong",
            &[b"Bearer KEY", b"Bearer nope"],
            401,
            Error("unauthorized"),
        ),
        with_auth("key and more", &[b"Bearer KEY extra"], 401, Error("unauthorized")),
        with_auth("truncated key", &[b"Bearer psk_1_abc"], 401, Error("unauthorized")),
        with_auth("empty header", &[b""], 401, Error("unauthorized")),
        Case {
            headers: vec![],
            ..case("no header", "GET", "/store/orders", 401, Error("unauthorized"))
        },
        Case {
            headers: vec![],
            ..case(
                "no header, malformed id",
                "DELETE",
                order("abc"),
                401,
                Error("unauthorized"),
            )
        },
        // Methods, bodies and paths
        case(
            "PUT on the list",
            "PUT",
            "/store/orders",
            405,
            Error("method_not_allowed"),
        ),
        case(
            "POST on the list",
            "POST",
            "/store/orders",
            405,
            Error("method_not_allowed"),
        ),
        case(
            "DELETE on the list",
            "DELETE",
            "/store/orders",
            405,
            Error("method_not_allowed"),
        ),
        case("GET on an order", "GET", order("1"), 405, Error("method_not_allowed")),
        case(
            "PATCH on an order",
            "PATCH",
            order("1"),
            405,
            Error("method_not_allowed"),
        ),
        case("unknown path", "GET", "/store/order", 404, RouterGap),
        // /v2 is served beside /v1 (tests/e2e_v2.rs); a major that does not exist is not.
        case("unknown version", "GET", "!/v3/store/orders", 404, RouterGap),
        case("trailing slash", "GET", "/store/orders/", 200, Success),
        case("double slash", "GET", "/store//orders", 200, Success),
        case(
            "unknown query parameters",
            "GET",
            "/store/orders?limit=5&sort=desc",
            200,
            Success,
        ),
        case(
            "unknown query on cancel",
            "DELETE",
            format!("{}?force=true", order("5")),
            204,
            Success,
        ),
        Case {
            body: b"hello",
            ..case("body on GET", "GET", "/store/orders", 200, Success)
        },
        Case {
            body: b"{\"id\":6}",
            ..case("body on DELETE", "DELETE", order("6"), 204, Success)
        },
    ];
    let mut big = case("oversized header", "GET", "/store/orders", 431, Refused);
    big.headers
        .push([&b"X-Big: "[..], &vec![b'x'; 512 * 1024][..]].concat());
    cases.push(big);
    let mut many = case("too many headers", "GET", "/store/orders", 431, Refused);
    many.headers.extend((0..200).map(|i| format!("X-H{i}: v").into_bytes()));
    cases.push(many);
    cases
}

/// Sends raw bytes and gives the status and body (empty when the server
/// closed without a response).
async fn send_raw(addr: &str, request: &[u8]) -> (u16, Vec<u8>) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    // A refused request may close the connection before all is written.
    let _ = stream.write_all(request).await;
    let mut response = Vec::new();
    let _ = tokio::time::timeout(std::time::Duration::from_secs(10), stream.read_to_end(&mut response)).await;
    let text = String::from_utf8_lossy(&response);
    let status = text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = match response.windows(4).position(|w| w == b"\r\n\r\n") {
        Some(i) => response[i + 4..].to_vec(),
        None => Vec::new(),
    };
    (status, body)
}

fn request_bytes(server: &TestServer, addr: &str, case: &Case) -> Vec<u8> {
    let base_path = server.base_url.split_once(addr).unwrap().1;
    let path = match case.path.strip_prefix('!') {
        Some(absolute) => absolute.to_string(),
        None => format!("{base_path}{}", case.path),
    };
    let mut out = format!(
        "{} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n",
        case.method
    )
    .into_bytes();
    for header in &case.headers {
        out.extend_from_slice(&replace_key(header, server.key.as_bytes()));
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", case.body.len()).as_bytes());
    out.extend_from_slice(case.body);
    out
}

/// The header with `KEY` replaced by the key, byte for byte (some headers
/// are deliberately not UTF-8).
fn replace_key(header: &[u8], key: &[u8]) -> Vec<u8> {
    match header.windows(3).position(|w| w == b"KEY") {
        Some(i) => [&header[..i], key, &replace_key(&header[i + 3..], key)].concat(),
        None => header.to_vec(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_requests_get_documented_answers() {
    let server = TestServer::sqlite().await;
    let addr = server
        .base_url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap()
        .to_string();
    let cases = cases();
    assert!(cases.len() >= 40, "{} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let (status, body) = send_raw(&addr, &request_bytes(&server, &addr, case)).await;
        let json: serde_json::Value = serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null);
        let body_ok = match case.expect {
            Body::Error(code) => json["code"] == code && json["status"] == status && json["message"].is_string(),
            Body::Success => status == 204 || json.is_array(),
            Body::RouterGap => json["request_id"].is_string() && json.get("code").is_none(),
            Body::Refused => true,
        };
        if status != case.status || !body_ok {
            failures.push(format!(
                "{}: got {status} {}",
                case.name,
                String::from_utf8_lossy(&body)
            ));
        }
        // The server still answers after every one.
        let (status, _) = send_raw(
            &addr,
            format!(
                "GET {}/store/orders HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {}\r\nConnection: close\r\n\r\n",
                petstore_api::BASE_PATH,
                server.key
            )
            .as_bytes(),
        )
        .await;
        assert_eq!(status, 200, "the server stopped answering after {}", case.name);
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    server.stop().await;
}
