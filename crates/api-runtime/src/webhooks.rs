//! Sending a spec's webhooks and callbacks. A generated contract's
//! `webhooks::Sender` has one method per webhook, which calls
//! [`Sender::send`] with the webhook's table: the body is validated
//! against the spec's schema before anything leaves (a request the
//! receiver's contract would refuse is never sent), and the receiver's
//! answer is read against the statuses the spec documents.
//!
//! A callback is sent to a URL its spec writes as a runtime expression
//! over the request that registered it (`{$request.body#/callbackUrl}`):
//! [`callback_url`] evaluates one.

use std::time::Duration;

use bytes::Bytes;
use serde::Serialize;
use serde_json::Value;

use crate::contract::{BodyKind, Contract, Operation};

/// What a sender method hands over: the body, as the webhook's table
/// says it is sent.
pub enum Payload {
    /// No body.
    None,
    /// A body the table sends as JSON or as a form: validated first.
    Json(Result<Value, serde_json::Error>),
    /// A text body, sent as it is.
    Text(String),
    /// A body of bytes, sent as it is.
    Bytes(Bytes),
    /// Bytes of the media type they say (a body in several media types
    /// of values of their own), sent as they are.
    Of(crate::payload::Payload),
}

impl Payload {
    /// A typed body, to be validated and sent as the table says.
    pub fn json<T: Serialize + ?Sized>(body: &T) -> Self {
        Payload::Json(serde_json::to_value(body))
    }
}

/// The receiver's answer to a webhook it accepted (a 2xx).
#[derive(Debug, Clone)]
pub struct Delivery {
    pub status: u16,
    /// Whether the spec documents this status for the webhook.
    pub documented: bool,
    pub body: Bytes,
}

/// Why a webhook was not delivered.
#[derive(Debug)]
pub enum SendError {
    /// The body breaks the webhook's schema: nothing was sent.
    Invalid {
        operation: &'static str,
        pointer: String,
        message: String,
    },
    /// The webhook's body is required and none was given: nothing was sent.
    Missing { operation: &'static str },
    /// The body could not be written as the table says: nothing was sent.
    Unwritable { operation: &'static str, reason: String },
    /// The connection or the exchange failed (refused, timed out, cut).
    Transport(reqwest::Error),
    /// The receiver answered, but not with a 2xx.
    Status { status: u16, documented: bool, body: Bytes },
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SendError::Invalid {
                operation,
                pointer,
                message,
            } => write!(
                f,
                "`{operation}` not sent: its body breaks the schema at `{pointer}`: {message}"
            ),
            SendError::Missing { operation } => write!(f, "`{operation}` not sent: its body is required"),
            SendError::Unwritable { operation, reason } => write!(f, "`{operation}` not sent: {reason}"),
            SendError::Transport(e) => write!(f, "the webhook could not be delivered: {e}"),
            SendError::Status { status, documented, .. } => match documented {
                true => write!(f, "the receiver answered {status}"),
                false => write!(f, "the receiver answered {status}, which the spec does not document"),
            },
        }
    }
}

impl std::error::Error for SendError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SendError::Transport(e) => Some(e),
            _ => None,
        }
    }
}

/// Sends webhooks: an HTTP client, and the headers every request carries
/// (a receiver's key, say). Cheap to clone: clones share connections.
#[derive(Clone)]
pub struct Sender {
    client: reqwest::Client,
    headers: reqwest::header::HeaderMap,
}

/// How long a receiver may take to accept a connection, and to answer.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
const TIMEOUT: Duration = Duration::from_secs(30);

impl Default for Sender {
    fn default() -> Self {
        Self::new()
    }
}

impl Sender {
    /// A sender with its own client: bounded connection and answer times,
    /// and redirects not followed (a webhook goes where it was told, or
    /// fails).
    pub fn new() -> Self {
        let client = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .timeout(TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_default();
        Self::with_client(client)
    }

    /// A sender over `client` (its timeouts, proxies and TLS settings).
    pub fn with_client(client: reqwest::Client) -> Self {
        Self {
            client,
            headers: reqwest::header::HeaderMap::new(),
        }
    }

    /// The sender, with `name: value` on every request it sends (marked
    /// sensitive: never shown in debug output).
    pub fn with_header(mut self, name: &str, value: &str) -> Result<Self, String> {
        let name = reqwest::header::HeaderName::from_bytes(name.as_bytes())
            .map_err(|e| format!("`{name}` is not a header name: {e}"))?;
        let mut value = reqwest::header::HeaderValue::from_str(value)
            .map_err(|e| format!("the value of `{name}` is not a header value: {e}"))?;
        value.set_sensitive(true);
        self.headers.insert(name, value);
        Ok(self)
    }

    /// Sends `C`'s webhook to `url` with `payload`, validated against its
    /// table first.
    pub async fn send<C: Contract>(&self, url: &str, payload: Payload) -> Result<Delivery, SendError> {
        let operation = C::operation();
        let method = reqwest::Method::from_bytes(operation.method.as_bytes()).unwrap_or(reqwest::Method::POST);
        let mut request = self.client.request(method, url).headers(self.headers.clone());
        if let Some((media_type, body)) = encode(operation, payload)? {
            request = request
                .header(reqwest::header::CONTENT_TYPE, media_type.as_ref())
                .body(body);
        }
        let response = request.send().await.map_err(SendError::Transport)?;
        let status = response.status().as_u16();
        let body = response.bytes().await.map_err(SendError::Transport)?;
        let documented = documents(operation, status);
        match (200..300).contains(&status) {
            true => Ok(Delivery {
                status,
                documented,
                body,
            }),
            false => Err(SendError::Status {
                status,
                documented,
                body,
            }),
        }
    }
}

/// The body as the table sends it: its media type and bytes; `None`
/// for no body. A JSON or form body is validated first.
fn encode(
    operation: &'static Operation,
    payload: Payload,
) -> Result<Option<(std::borrow::Cow<'static, str>, Bytes)>, SendError> {
    let id = operation.id;
    let Some(table) = &operation.body else {
        return Ok(None);
    };
    let unwritable = |reason: String| SendError::Unwritable { operation: id, reason };
    let bytes = match payload {
        Payload::None if table.required => return Err(SendError::Missing { operation: id }),
        Payload::None => return Ok(None),
        Payload::Json(value) => {
            let value = value.map_err(|e| unwritable(format!("its body cannot be written as JSON: {e}")))?;
            table.schema.validate(&value).map_err(|violation| SendError::Invalid {
                operation: id,
                pointer: violation.pointer,
                message: violation.message,
            })?;
            match table.kind {
                BodyKind::Form => Bytes::from(form(&value).map_err(unwritable)?),
                _ => Bytes::from(serde_json::to_vec(&value).map_err(|e| unwritable(e.to_string()))?),
            }
        }
        Payload::Text(text) => Bytes::from(text),
        Payload::Bytes(bytes) => bytes,
        Payload::Of(payload) => return Ok(Some((payload.media_type.into(), payload.bytes))),
    };
    Ok(Some((table.media_type.into(), bytes)))
}

/// An object as `application/x-www-form-urlencoded`: scalars as their
/// text, an array as its items repeated (a form's `explode`).
fn form(value: &Value) -> Result<String, String> {
    let Value::Object(fields) = value else {
        return Err("a form body must be an object".to_string());
    };
    let mut form = form_urlencoded::Serializer::new(String::new());
    for (name, value) in fields {
        let items = match value {
            Value::Array(items) => items.iter().collect(),
            other => vec![other],
        };
        for item in items {
            match item {
                Value::Null => {}
                Value::String(text) => {
                    form.append_pair(name, text);
                }
                Value::Object(_) | Value::Array(_) => {
                    return Err(format!("the form field `{name}` is not a scalar"));
                }
                other => {
                    form.append_pair(name, &other.to_string());
                }
            }
        }
    }
    Ok(form.finish())
}

/// Whether `operation` documents `status` (exactly, by its class
/// `4XX`, or by `default`).
fn documents(operation: &Operation, status: u16) -> bool {
    let class = format!("{}XX", status / 100);
    let status_key = status.to_string();
    let matches = |key: &str| key == status_key || key == class || key == "default";
    operation
        .responses
        .iter()
        .any(|r| (r.status..=r.last).contains(&status))
        || operation.errors.iter().any(|key| matches(key))
        || operation.other_errors.iter().any(|e| matches(e.key))
}

/// The parts of a request a callback's URL expression may read.
#[derive(Debug, Default, Clone, Copy)]
pub struct CallbackSource<'a> {
    /// The request's URL, as `{$url}` reads it.
    pub url: &'a str,
    /// The request's method, as `{$method}` reads it.
    pub method: &'a str,
    /// The request's JSON body (`{$request.body#/pointer}`).
    pub body: Option<&'a Value>,
    /// Its query parameters (`{$request.query.name}`).
    pub query: &'a [(&'a str, &'a str)],
    /// Its path parameters (`{$request.path.name}`).
    pub path: &'a [(&'a str, &'a str)],
    /// Its headers (`{$request.header.name}`, case-insensitive).
    pub headers: &'a [(&'a str, &'a str)],
}

/// A callback's URL: `expression` with each `{runtime expression}` it
/// holds replaced by what it names in `source`, as OpenAPI's runtime
/// expressions read (`{$request.query.callbackUrl}/data`). An expression
/// that names nothing present is an error naming it.
pub fn callback_url(expression: &str, source: &CallbackSource<'_>) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = expression;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let end = rest[start..]
            .find('}')
            .map(|end| start + end)
            .ok_or_else(|| format!("`{expression}`: a `{{` is not closed"))?;
        let inner = &rest[start + 1..end];
        let value = evaluate(inner, source).ok_or_else(|| format!("`{inner}` names nothing in the request"))?;
        out.push_str(&value);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// One runtime expression's value as text.
fn evaluate(expression: &str, source: &CallbackSource<'_>) -> Option<String> {
    let find = |pairs: &[(&str, &str)], name: &str, fold: bool| {
        pairs
            .iter()
            .find(|(key, _)| match fold {
                true => key.eq_ignore_ascii_case(name),
                false => *key == name,
            })
            .map(|(_, value)| value.to_string())
    };
    match expression {
        "$url" => return Some(source.url.to_string()),
        "$method" => return Some(source.method.to_string()),
        _ => {}
    }
    let request = expression.strip_prefix("$request.")?;
    if let Some(pointer) = request.strip_prefix("body") {
        let pointer = pointer.strip_prefix('#').unwrap_or(pointer);
        return match source.body?.pointer(pointer)? {
            Value::String(text) => Some(text.clone()),
            Value::Null => None,
            other => Some(other.to_string()),
        };
    }
    let (kind, name) = request.split_once('.')?;
    match kind {
        "query" => find(source.query, name, false),
        "path" => find(source.path, name, false),
        "header" => find(source.headers, name, true),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_callback_url_reads_the_request_it_was_registered_by() {
        let body = serde_json::json!({"hook": {"url": "http://a.test/in"}, "id": 7});
        let source = CallbackSource {
            url: "http://api.test/subscribe?x=1",
            method: "POST",
            body: Some(&body),
            query: &[("callbackUrl", "http://b.test/cb")],
            path: &[("id", "42")],
            headers: &[("X-Hook", "http://c.test")],
        };
        let url = |e: &str| callback_url(e, &source);
        assert_eq!(
            url("{$request.query.callbackUrl}/data").unwrap(),
            "http://b.test/cb/data"
        );
        assert_eq!(
            url("{$request.body#/hook/url}?id={$request.body#/id}").unwrap(),
            "http://a.test/in?id=7"
        );
        assert_eq!(
            url("{$request.header.x-hook}/{$request.path.id}").unwrap(),
            "http://c.test/42"
        );
        assert_eq!(url("{$method} {$url}").unwrap(), "POST http://api.test/subscribe?x=1");
        assert_eq!(url("https://fixed.test/hook").unwrap(), "https://fixed.test/hook");
        assert!(
            url("{$request.body#/missing}")
                .unwrap_err()
                .contains("$request.body#/missing")
        );
        assert!(url("{$request.query.callbackUrl").is_err());
    }

    #[test]
    fn a_form_body_is_its_fields_and_repeated_items() {
        let value = serde_json::json!({"a": "x y", "n": 2, "tags": ["p", "q"], "none": null});
        assert_eq!(form(&value).unwrap(), "a=x+y&n=2&tags=p&tags=q");
        assert!(form(&serde_json::json!({"o": {"k": 1}})).is_err());
        assert!(form(&serde_json::json!([1])).is_err());
    }
}
