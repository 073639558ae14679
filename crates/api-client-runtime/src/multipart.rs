//! `multipart/form-data` bodies, as the server reads them: a text part per
//! scalar (a part per item of a list), JSON text for a structured value,
//! and files as bytes or a stream, each with a file name and a content
//! type. The generated client has a struct of named, typed parts per
//! multipart operation, turned into these [`Parts`]; an operation whose
//! schema names no parts takes [`Parts`] itself.
//!
//! reqwest writes the body (its `multipart` feature). A body of bytes
//! alone is written out before it is sent, so that a retry can send it
//! again; a body with a streamed file is sent as it streams, and is then
//! never retried (`retries.rs` retries only what it can replay).

use bytes::Bytes;
use futures::TryStreamExt;
use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderValue};
use reqwest::multipart::{Form, Part};

/// A file part: its content, and the file name and content type it is
/// sent with.
pub struct File {
    content: Content,
    file_name: Option<String>,
    content_type: Option<String>,
}

enum Content {
    Bytes(Bytes),
    Stream(reqwest::Body),
}

impl File {
    /// A file of these bytes.
    pub fn bytes(bytes: impl Into<Bytes>) -> File {
        File {
            content: Content::Bytes(bytes.into()),
            file_name: None,
            content_type: None,
        }
    }

    /// A file read as it is sent (a request with one is not retried: its
    /// body cannot be sent again).
    pub fn stream(body: impl Into<reqwest::Body>) -> File {
        File {
            content: Content::Stream(body.into()),
            file_name: None,
            content_type: None,
        }
    }

    /// The file name the part is sent with (`filename=` in its
    /// `Content-Disposition`).
    pub fn file_name(mut self, name: impl Into<String>) -> File {
        self.file_name = Some(name.into());
        self
    }

    /// The part's content type; without one, the spec's (its `encoding`),
    /// else `application/octet-stream`.
    pub fn content_type(mut self, content_type: impl Into<String>) -> File {
        self.content_type = Some(content_type.into());
        self
    }
}

impl std::fmt::Debug for File {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut debug = f.debug_struct("File");
        match &self.content {
            Content::Bytes(bytes) => debug.field("bytes", &bytes.len()),
            Content::Stream(_) => debug.field("stream", &".."),
        };
        debug
            .field("file_name", &self.file_name)
            .field("content_type", &self.content_type)
            .finish()
    }
}

/// A multipart body's parts, in the order they are added.
pub struct Parts {
    form: Form,
    /// Whether every part is bytes in memory (no streamed file).
    in_memory: bool,
    /// Whether every part's name can be written as it is, in quotes.
    plain_names: bool,
}

/// Whether a part's name can be written in quotes as it is (`name="a b"`,
/// `name="straße"`), as browsers write names and servers read them.
/// Others (a quote, a backslash, a line break) are written as RFC 5987
/// says (`name*=utf-8''…`), reqwest's default, which fewer servers read.
fn is_plain(name: &str) -> bool {
    !name.contains(['"', '\\', '\r', '\n'])
}

impl std::fmt::Debug for Parts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Parts")
            .field("form", &self.form)
            .field("in_memory", &self.in_memory)
            .finish()
    }
}

impl Default for Parts {
    fn default() -> Parts {
        Parts::new()
    }
}

impl Parts {
    pub fn new() -> Parts {
        Parts {
            form: Form::new(),
            in_memory: true,
            plain_names: true,
        }
    }

    /// A text part.
    pub fn text(self, name: &str, text: impl std::fmt::Display) -> Parts {
        Parts {
            form: self.form.text(name.to_string(), text.to_string()),
            plain_names: self.plain_names && is_plain(name),
            ..self
        }
    }

    /// A part of any value, as the server reads one: a string as its text,
    /// anything else as JSON text.
    pub fn value(self, name: &str, value: &serde_json::Value) -> Parts {
        match value {
            serde_json::Value::String(text) => self.text(name, text),
            other => self.text(name, other),
        }
    }

    /// A file part, of `default_type` unless the file says its own.
    pub fn file(self, name: &str, file: File, default_type: &str) -> Parts {
        let (part, in_memory) = match file.content {
            Content::Bytes(bytes) => (Part::stream(bytes), true),
            Content::Stream(body) => (Part::stream(body), false),
        };
        let part = part.file_name(file.file_name.unwrap_or_else(|| name.to_string()));
        // A content type that cannot be a header's text is not sent: the
        // spec's is.
        let content_type = [file.content_type.as_deref(), Some(default_type)]
            .into_iter()
            .flatten()
            .find_map(|text| HeaderValue::from_str(text).ok())
            .unwrap_or(HeaderValue::from_static("application/octet-stream"));
        let part = part.headers(HeaderMap::from_iter([(CONTENT_TYPE, content_type)]));
        Parts {
            form: self.form.part(name.to_string(), part),
            in_memory: self.in_memory && in_memory,
            plain_names: self.plain_names && is_plain(name),
        }
    }

    /// The body and its `Content-Type` (which names the boundary).
    pub async fn encode(self) -> reqwest::Result<Encoded> {
        let boundary = self.form.boundary();
        let content_type = HeaderValue::from_str(&format!("multipart/form-data; boundary={boundary}"))
            .expect("reqwest's boundary is a header value");
        let form = match self.plain_names {
            true => self.form.percent_encode_noop(),
            false => self.form,
        };
        let stream = form.into_stream();
        let body = match self.in_memory {
            true => {
                let chunks: Vec<Bytes> = stream.try_collect().await?;
                reqwest::Body::from(chunks.concat())
            }
            false => reqwest::Body::wrap_stream(stream),
        };
        Ok(Encoded { content_type, body })
    }
}

/// A multipart body, written.
pub struct Encoded {
    pub content_type: HeaderValue,
    pub body: reqwest::Body,
}

/// What a multipart operation's method takes: its generated struct of
/// named parts, or [`Parts`] where the schema names none.
pub trait MultipartBody {
    fn into_parts(self) -> Parts;
}

impl MultipartBody for Parts {
    fn into_parts(self) -> Parts {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn written(parts: Parts) -> (String, String) {
        let encoded = parts.encode().await.unwrap();
        let content_type = encoded.content_type.to_str().unwrap().to_string();
        let bytes = encoded.body.as_bytes().expect("bytes alone are written out").to_vec();
        (content_type, String::from_utf8(bytes).unwrap())
    }

    #[tokio::test]
    async fn text_values_and_files_are_parts_of_their_own() {
        let parts = Parts::new()
            .text("kind", "invoice")
            .text("pages", 3)
            .value("meta", &serde_json::json!({"a": 1}))
            .value("note", &serde_json::json!("as is"))
            .file("file", File::bytes(&b"%PDF"[..]).file_name("a.pdf"), "application/pdf")
            .file(
                "scan",
                File::bytes(&b"png"[..]).content_type("image/png"),
                "application/pdf",
            );
        let (content_type, body) = written(parts).await;
        let boundary = content_type.strip_prefix("multipart/form-data; boundary=").unwrap();
        assert_eq!(body.matches(boundary).count(), 7, "six parts and the end: {body}");
        assert!(body.contains("name=\"pages\"\r\n\r\n3\r\n"), "{body}");
        assert!(body.contains("name=\"meta\"\r\n\r\n{\"a\":1}\r\n"), "{body}");
        assert!(body.contains("name=\"note\"\r\n\r\nas is\r\n"), "{body}");
        assert!(
            body.contains("name=\"file\"; filename=\"a.pdf\"\r\ncontent-type: application/pdf\r\n\r\n%PDF\r\n"),
            "{body}"
        );
        assert!(
            body.contains("name=\"scan\"; filename=\"scan\"\r\ncontent-type: image/png\r\n\r\npng\r\n"),
            "the file's own type wins: {body}"
        );
    }

    #[tokio::test]
    async fn names_are_written_as_they_are_where_quotes_can_hold_them() {
        let (_, body) = written(Parts::new().text("straße nr", 1)).await;
        assert!(body.contains("name=\"straße nr\"\r\n"), "{body}");
        let (_, body) = written(Parts::new().text("say \"hi\"", 1)).await;
        assert!(body.contains("name*=utf-8''say%20%22hi%22"), "{body}");
    }

    #[tokio::test]
    async fn a_streamed_file_is_sent_as_it_streams() {
        let parts = Parts::new().file("file", File::stream(reqwest::Body::from("streamed")), "text/plain");
        let encoded = parts.encode().await.unwrap();
        assert!(
            encoded.body.as_bytes().is_none(),
            "a stream is not read before it is sent"
        );
    }
}
