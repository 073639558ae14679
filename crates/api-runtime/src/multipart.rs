//! `multipart/form-data` bodies (RFC 7578), parsed by `multer` (the crate
//! dropshot itself uses). A part is a file when the schema says so
//! (`format: binary`, or a list of such: `contract::FileParts`), or when
//! the schema is the whole body as bytes; the handler gets it as bytes
//! with its file name and media type. Every other part is text, read as a
//! form's field is (by its type; an object as JSON), and the fields are
//! checked against the schema without its file properties and typed.

use std::borrow::Cow;

use bytes::Bytes;
use serde_json::Value;

use crate::contract::{Body, FileParts};
use crate::form::read_fields;
use crate::rejection::Rejection;

/// A multipart body: its text fields as the type of the schema's other
/// properties, and its files.
#[derive(Debug, Clone)]
pub struct Multipart<T> {
    pub fields: T,
    pub files: Files,
}

/// The text fields of a multipart body whose schema is the whole body as
/// bytes: there are none (every part is a file).
#[derive(Debug, Clone, Copy, Default, serde::Deserialize)]
pub struct NoFields {}

/// The file parts of a multipart body, in the order they came.
#[derive(Debug, Clone, Default)]
pub struct Files(Vec<FilePart>);

impl Files {
    /// The file part `name` (the first, for a list).
    pub fn get(&self, name: &str) -> Option<&FilePart> {
        self.0.iter().find(|part| part.name == name)
    }

    /// Every file part named `name`.
    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a FilePart> {
        self.0.iter().filter(move |part| part.name == name)
    }

    pub fn iter(&self) -> impl Iterator<Item = &FilePart> {
        self.0.iter()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// One file part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePart {
    /// The part's name (its form field).
    pub name: String,
    /// The file name the sender gave, if any.
    pub file_name: Option<String>,
    /// The part's own `Content-Type`, if any.
    pub content_type: Option<String>,
    pub bytes: Bytes,
}

/// The body's text fields as the JSON object of the schema's other
/// properties, and its files; or why the body is not a multipart body of
/// this shape.
pub(crate) async fn read_multipart(spec: &Body, content_type: &str, bytes: Bytes) -> Result<(Value, Files), Rejection> {
    let boundary = multer::parse_boundary(content_type)
        .map_err(|e| Rejection::invalid_body(format!("the multipart body's Content-Type has no boundary: {e}")))?;
    let stream = futures_util::stream::once(async move { Ok::<Bytes, std::convert::Infallible>(bytes) });
    let mut multipart = multer::Multipart::new(stream, boundary);
    let is_file = |name: &str| match spec.file_parts {
        FileParts::All => true,
        FileParts::Named(files) => files.iter().any(|(file, _)| *file == name),
    };
    let malformed = |e: multer::Error| Rejection::invalid_body(format!("the multipart body is malformed: {e}"));
    let mut texts: Vec<(Cow<'static, str>, Cow<'static, str>)> = Vec::new();
    let mut files = Vec::new();
    while let Some(part) = multipart.next_field().await.map_err(malformed)? {
        let Some(name) = part.name().map(str::to_string) else {
            return Err(Rejection::invalid_body("a part of the multipart body has no name"));
        };
        let file_name = part.file_name().map(str::to_string);
        let content_type = part.content_type().map(ToString::to_string);
        let data = part.bytes().await.map_err(malformed)?;
        if is_file(&name) {
            files.push(FilePart {
                name,
                file_name,
                content_type,
                bytes: data,
            });
            continue;
        }
        let text = String::from_utf8(data.to_vec())
            .map_err(|_| Rejection::invalid_body(format!("the multipart body's text part `{name}` is not UTF-8")))?;
        texts.push((Cow::Owned(name), Cow::Owned(text)));
    }
    let files = Files(files);
    if let FileParts::Named(named) = spec.file_parts {
        for (name, field) in named {
            match files.all(name).count() {
                0 if field.required => {
                    return Err(Rejection::invalid_body(format!(
                        "the multipart body's file part `{name}` is required"
                    )));
                }
                2.. if !field.list => {
                    return Err(Rejection::invalid_body(format!(
                        "the multipart body's file part `{name}` is given more than once"
                    )));
                }
                _ => {}
            }
        }
    }
    Ok((read_fields(spec, texts)?, files))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::{BodyKind, FileField, FormField, Scalar};

    const BOUNDARY: &str = "XyZ";

    fn upload(file_parts: FileParts) -> Body {
        Body {
            form_fields: &[
                ("caption", FormField::One(Scalar::String)),
                ("rank", FormField::One(Scalar::Integer)),
            ],
            file_parts,
            ..Body::for_tests(BodyKind::Multipart, "multipart/form-data")
        }
    }

    const PHOTO: FileParts = FileParts::Named(&[(
        "photo",
        FileField {
            list: false,
            required: true,
        },
    )]);

    fn body(parts: &[(&str, Option<&str>, &[u8])]) -> Bytes {
        let mut out = Vec::new();
        for (name, file_name, data) in parts {
            out.extend_from_slice(format!("--{BOUNDARY}\r\n").as_bytes());
            let file = file_name.map(|f| format!("; filename=\"{f}\"")).unwrap_or_default();
            out.extend_from_slice(format!("Content-Disposition: form-data; name=\"{name}\"{file}\r\n").as_bytes());
            if file_name.is_some() {
                out.extend_from_slice(b"Content-Type: image/png\r\n");
            }
            out.extend_from_slice(b"\r\n");
            out.extend_from_slice(data);
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
        Bytes::from(out)
    }

    async fn read(spec: &Body, bytes: Bytes) -> Result<(Value, Files), String> {
        let content_type = format!("multipart/form-data; boundary={BOUNDARY}");
        read_multipart(spec, &content_type, bytes)
            .await
            .map_err(|r| r.problem.message)
    }

    #[tokio::test]
    async fn text_parts_are_fields_and_file_parts_are_bytes() {
        let png: &[u8] = &[0x89, b'P', b'N', b'G', 0, 255];
        let (fields, files) = read(
            &upload(PHOTO),
            body(&[
                ("caption", None, b"a cat"),
                ("photo", Some("cat.png"), png),
                ("rank", None, b"2"),
            ]),
        )
        .await
        .unwrap();
        assert_eq!(fields, serde_json::json!({"caption": "a cat", "rank": 2}));
        let photo = files.get("photo").unwrap();
        assert_eq!(
            (
                photo.file_name.as_deref(),
                photo.content_type.as_deref(),
                &photo.bytes[..]
            ),
            (Some("cat.png"), Some("image/png"), png)
        );
        // The whole body as bytes: every part is a file.
        let (fields, files) = read(&upload(FileParts::All), body(&[("caption", None, b"x")]))
            .await
            .unwrap();
        assert_eq!((fields, files.len()), (serde_json::json!({}), 1));
    }

    #[tokio::test]
    async fn what_does_not_fit_is_named() {
        let missing = read(&upload(PHOTO), body(&[("caption", None, b"x")]))
            .await
            .unwrap_err();
        assert!(missing.contains("file part `photo` is required"), "{missing}");
        let twice = read(
            &upload(PHOTO),
            body(&[("photo", Some("a.png"), b"1"), ("photo", Some("b.png"), b"2")]),
        )
        .await
        .unwrap_err();
        assert!(twice.contains("more than once"), "{twice}");
        let not_integer = read(
            &upload(PHOTO),
            body(&[("photo", Some("a"), b"1"), ("rank", None, b"two")]),
        )
        .await
        .unwrap_err();
        assert!(not_integer.contains("`rank`"), "{not_integer}");
        let cut = read(
            &upload(PHOTO),
            Bytes::from_static(b"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end"),
        )
        .await
        .unwrap_err();
        assert!(cut.contains("malformed"), "{cut}");
        let no_boundary = read_multipart(&upload(PHOTO), "multipart/form-data", Bytes::new())
            .await
            .unwrap_err();
        assert!(no_boundary.problem.message.contains("boundary"));
    }
}
