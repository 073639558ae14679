//! A multipart form with files (`uploadDocument`), over HTTP: typed text
//! fields, one required file, a list of scans; sent as raw bytes, and by
//! the generated client's method, which takes the parts typed.

use crate::support::{Sink, create_order, send};
use kitchen_sink::client::multipart_bodies::{File, UploadDocument};
use reqwest::Method;
use serde_json::json;
use std::num::NonZeroU64;

const BOUNDARY: &str = "kitchen-sink-boundary";

/// A multipart body of `(name, file name, bytes)` parts.
fn multipart(parts: &[(&str, Option<&str>, &[u8])]) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, file_name, data) in parts {
        body.extend_from_slice(format!("--{BOUNDARY}\r\n").as_bytes());
        match file_name {
            Some(file_name) => body.extend_from_slice(
                format!(
                    "Content-Disposition: form-data; name=\"{name}\"; filename=\"{file_name}\"\r\nContent-Type: application/pdf\r\n\r\n"
                )
                .as_bytes(),
            ),
            None => body.extend_from_slice(format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes()),
        }
        body.extend_from_slice(data);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    body
}

#[tokio::test]
async fn fields_and_files_reach_the_handler_typed() {
    let sink = Sink::start().await;
    let (id, _) = create_order(&sink, json!({"petId": 1, "quantity": 1})).await;
    let upload = |parts: Vec<u8>| {
        sink.request(Method::POST, &format!("/orders/{id}/documents"))
            .header("content-type", format!("multipart/form-data; boundary={BOUNDARY}"))
            .body(parts)
    };
    let pdf: &[u8] = b"%PDF-1.7\n\x00\xff binary";
    let stored = send(upload(multipart(&[
        ("kind", None, b"invoice"),
        ("file", Some("invoice.pdf"), pdf),
        ("pages", None, b"3"),
        ("scans", Some("p1.png"), b"1"),
        ("scans", Some("p2.png"), b"2"),
    ])))
    .await;
    assert_eq!(stored.status, 201, "{}", stored.body);
    assert_eq!(
        stored.body,
        json!({"kind": "invoice", "pages": 3, "fileName": "invoice.pdf", "bytes": pdf.len(), "scans": 2})
    );

    // The text fields are checked against the schema, files aside.
    let wrong_kind = send(upload(multipart(&[
        ("kind", None, b"memo"),
        ("file", Some("a.pdf"), b"x"),
    ])))
    .await;
    wrong_kind.assert_error(400, "invalid_body", &["/kind", "(enum)"]);
    let not_a_number = send(upload(multipart(&[
        ("kind", None, b"receipt"),
        ("pages", None, b"three"),
        ("file", Some("a.pdf"), b"x"),
    ])))
    .await;
    not_a_number.assert_error(400, "invalid_body", &["`pages`", "not an integer"]);
    let no_kind = send(upload(multipart(&[("file", Some("a.pdf"), b"x")]))).await;
    no_kind.assert_error(400, "invalid_body", &["kind", "(required)"]);
    // The file is required, and one.
    let no_file = send(upload(multipart(&[("kind", None, b"receipt")]))).await;
    no_file.assert_error(400, "invalid_body", &["file part `file` is required"]);
    let two_files = send(upload(multipart(&[
        ("kind", None, b"receipt"),
        ("file", Some("a.pdf"), b"x"),
        ("file", Some("b.pdf"), b"y"),
    ])))
    .await;
    two_files.assert_error(400, "invalid_body", &["more than once"]);
    // Not multipart at all, or cut short.
    let json_body = send(
        sink.request(Method::POST, &format!("/orders/{id}/documents"))
            .json(&json!({"kind": "invoice"})),
    )
    .await;
    json_body.assert_error(415, "unsupported_media_type", &["multipart/form-data"]);
    let mut cut = multipart(&[("kind", None, b"receipt"), ("file", Some("a.pdf"), b"x")]);
    cut.truncate(cut.len() - 10);
    send(upload(cut))
        .await
        .assert_error(400, "invalid_body", &["malformed"]);
    // The order must exist; the key is checked first.
    let missing = send(
        sink.request(Method::POST, "/orders/999999/documents")
            .header("content-type", format!("multipart/form-data; boundary={BOUNDARY}"))
            .body(multipart(&[("kind", None, b"invoice"), ("file", Some("a.pdf"), b"x")])),
    )
    .await;
    missing.assert_error(404, "not_found", &[]);
    let anonymous = send(
        sink.anonymous(Method::POST, &format!("/orders/{id}/documents"))
            .header("content-type", format!("multipart/form-data; boundary={BOUNDARY}"))
            .body(multipart(&[("kind", None, b"invoice")])),
    )
    .await;
    assert_eq!(anonymous.status, 401);
    sink.stop().await;
}

#[tokio::test]
async fn the_generated_client_sends_typed_parts_and_files() {
    let sink = Sink::start().await;
    let client = sink.client();
    let (id, _) = create_order(&sink, json!({"petId": 1, "quantity": 1})).await;
    let pdf: &[u8] = b"%PDF-1.7\n\x00\xff binary";
    let stored = client
        .upload_document(
            NonZeroU64::new(id as u64).unwrap(),
            UploadDocument {
                kind: "invoice".into(),
                note: Some("signed, a & b".into()),
                pages: Some(3),
                file: File::bytes(pdf).file_name("invoice.pdf"),
                // A streamed file and one of bytes, each its own part.
                scans: vec![
                    File::stream(reqwest::Body::from(&b"page one"[..]))
                        .file_name("p1.png")
                        .content_type("image/png"),
                    File::bytes(&b"2"[..]),
                ],
            },
        )
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        serde_json::to_value(stored).unwrap(),
        json!({"kind": "invoice", "note": "signed, a & b", "pages": 3, "fileName": "invoice.pdf", "bytes": pdf.len(), "scans": 2})
    );

    // What the schema refuses, the server answers with its Error object,
    // typed as the operation's error.
    let refused = client
        .upload_document(
            NonZeroU64::new(id as u64).unwrap(),
            UploadDocument {
                kind: "memo".into(),
                note: None,
                pages: Some(0),
                file: File::bytes(&b"x"[..]),
                scans: Vec::new(),
            },
        )
        .await
        .unwrap_err();
    match refused {
        kitchen_sink::client::Error::ErrorResponse(answer) => {
            assert_eq!(answer.status(), 400);
            assert_eq!(answer.into_inner().code, "invalid_body");
        }
        other => panic!("expected the Error object, got {other:?}"),
    }
    assert!(
        kitchen_sink::client::LEFT_OUT_OF_THE_CLIENT.is_empty(),
        "every operation has a method"
    );
    sink.stop().await;
}
