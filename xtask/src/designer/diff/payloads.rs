//! Request bodies and responses: their presence, statuses, media types
//! (every one, matched by essence) and response headers.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::differ::{Differ, Direction, Level, is_true};
use crate::designer::spec_json::resolve;

/// A body's or response's media types by essence (`application/json`),
/// each with its media type object.
fn media_types(holder: &Value) -> BTreeMap<String, (String, Value)> {
    holder
        .get("content")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(media_type, media)| {
            (
                api_shared::media::essence(media_type),
                (media_type.clone(), media.clone()),
            )
        })
        .collect()
}

fn is_success(status: &str) -> bool {
    status.starts_with('2')
}

impl Differ<'_> {
    pub(super) fn request_body(&mut self, location: &str, old: &Value, new: &Value) {
        let at = format!("{location}.requestBody");
        let old_body = old.get("requestBody").map(|b| resolve(self.old, b).clone());
        let new_body = new.get("requestBody").map(|b| resolve(self.new, b).clone());
        match (old_body, new_body) {
            (None, Some(body)) if is_true(body.get("required")) => self.push(
                Level::Breaking,
                &at,
                "new required request body: requests without one now fail",
            ),
            (None, Some(_)) => self.push(Level::Compatible, &at, "new optional request body"),
            (Some(_), None) => self.push(
                Level::Breaking,
                &at,
                "request body removed: clients that send one no longer match the operation (and their generated method changes)",
            ),
            (Some(old_body), Some(new_body)) => {
                if is_true(new_body.get("required")) && !is_true(old_body.get("required")) {
                    self.push(Level::Breaking, &at, "request body became required");
                }
                self.content(&at, &old_body, &new_body, self.flowing(Direction::Request));
            }
            (None, None) => {}
        }
    }

    /// The media types of a body or response: one removed from a request
    /// is refused (415) where it was read; one removed from a response is
    /// one clients that asked for it no longer get. Each media type both
    /// have is compared by its schema.
    fn content(&mut self, at: &str, old: &Value, new: &Value, direction: Direction) {
        let (old_media, new_media) = (media_types(old), media_types(new));
        for (essence, (written, old_type)) in &old_media {
            let here = format!("{at}.content.{written}");
            match new_media.get(essence) {
                None => {
                    let message = match direction {
                        Direction::Request => format!("media type `{written}` is no longer accepted"),
                        Direction::Response => {
                            format!("media type `{written}` is no longer sent: clients that read it fail")
                        }
                    };
                    self.push(Level::Breaking, &here, message);
                }
                Some((new_written, new_type)) => {
                    let here = format!("{at}.content.{new_written}");
                    match (old_type.get("schema"), new_type.get("schema")) {
                        (Some(o), Some(n)) => self.schema(&format!("{here}.schema"), o, n, direction),
                        (Some(_), None) => {
                            self.push(Level::Warning, &here, "schema removed: the body is no longer described")
                        }
                        _ => {}
                    }
                }
            }
        }
        for (essence, (written, _)) in &new_media {
            if !old_media.contains_key(essence) {
                let message = match direction {
                    Direction::Request => format!("media type `{written}` is now accepted too"),
                    Direction::Response => {
                        format!("media type `{written}` may now be sent, to clients that ask for it")
                    }
                };
                self.push(Level::Compatible, &format!("{at}.content.{written}"), message);
            }
        }
    }

    pub(super) fn responses(&mut self, location: &str, old: &Value, new: &Value) {
        let responses = |op: &Value| -> Map<String, Value> {
            op.get("responses")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default()
        };
        let (old_r, new_r) = (responses(old), responses(new));
        for (status, old_response) in &old_r {
            let at = format!("{location}.responses.{status}");
            let Some(new_response) = new_r.get(status) else {
                match is_success(status) {
                    true => self.push(
                        Level::Breaking,
                        &at,
                        format!("success status {status} removed: clients that expect it fail"),
                    ),
                    false => self.push(Level::Compatible, &at, "error status no longer documented"),
                }
                continue;
            };
            let (o, n) = (
                resolve(self.old, old_response).clone(),
                resolve(self.new, new_response).clone(),
            );
            let has_body = |r: &Value| {
                r.get("content")
                    .and_then(Value::as_object)
                    .is_some_and(|c| !c.is_empty())
            };
            match (has_body(&o), has_body(&n)) {
                (true, false) => self.push(Level::Breaking, &at, "response body removed"),
                (false, true) => self.push(Level::Compatible, &at, "response body added"),
                _ => self.content(&at, &o, &n, self.flowing(Direction::Response)),
            }
            self.headers(&at, &o, &n);
        }
        for status in new_r.keys().filter(|s| !old_r.contains_key(*s)) {
            let at = format!("{location}.responses.{status}");
            match is_success(status) {
                true => self.push(Level::Compatible, &at, format!("new success status {status}")),
                false => self.push(Level::Compatible, &at, "new error status documented"),
            }
        }
    }

    /// A response's headers (names in any case).
    fn headers(&mut self, at: &str, old: &Value, new: &Value) {
        let headers = |doc: &Value, response: &Value| -> BTreeMap<String, (String, Value)> {
            response
                .get("headers")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .map(|(name, header)| (name.to_ascii_lowercase(), (name.clone(), resolve(doc, header).clone())))
                .collect()
        };
        let (old_h, new_h) = (headers(self.old, old), headers(self.new, new));
        for (key, (name, old_header)) in &old_h {
            let here = format!("{at}.headers.{name}");
            let Some((new_name, new_header)) = new_h.get(key) else {
                match is_true(old_header.get("required")) {
                    true => self.push(Level::Breaking, &here, "required response header removed"),
                    false => self.push(
                        Level::Warning,
                        &here,
                        "optional response header removed: clients that read it no longer get it",
                    ),
                }
                continue;
            };
            let here = format!("{at}.headers.{new_name}");
            if is_true(old_header.get("required")) && !is_true(new_header.get("required")) {
                self.push(
                    Level::Breaking,
                    &here,
                    "response header became optional: it may be absent",
                );
            }
            if let (Some(o), Some(n)) = (old_header.get("schema"), new_header.get("schema")) {
                self.schema(&format!("{here}.schema"), o, n, self.flowing(Direction::Response));
            }
        }
        for (key, (name, _)) in &new_h {
            if !old_h.contains_key(key) {
                self.push(
                    Level::Compatible,
                    &format!("{at}.headers.{name}"),
                    "new response header",
                );
            }
        }
    }
}
