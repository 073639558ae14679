//! The request's id in the body of a 5xx, so that a user's report finds
//! the logs: the id dropshot gives every request, answers with in
//! `x-request-id`, and logs every line of the request with (`req_id`).
//! An incoming `X-Request-Id` cannot be kept (dropshot sets its own after
//! the handler: docs/known-gaps.md).

use bytes::Bytes;

/// `body` (a JSON error body) with the id appended to its `message` (the
/// Error object's) or else its `detail` (problem details'); `None` for a
/// body with neither, which is left as it is: the spec's Error object is
/// of another shape.
pub(crate) fn named_in(body: &[u8], request_id: &str) -> Option<Bytes> {
    let serde_json::Value::Object(mut fields) = serde_json::from_slice(body).ok()? else {
        return None;
    };
    let key = ["message", "detail"]
        .into_iter()
        .find(|key| fields.get(*key).is_some_and(serde_json::Value::is_string))?;
    if let Some(serde_json::Value::String(text)) = fields.get_mut(key) {
        text.push_str(&format!(" (request id {request_id})"));
    }
    serde_json::to_vec(&fields).ok().map(Bytes::from)
}

#[cfg(test)]
mod tests {
    use super::named_in;

    #[test]
    fn the_message_or_the_detail_names_the_id_and_other_shapes_are_left() {
        let named = named_in(br#"{"code":"internal_error","message":"boom","status":500}"#, "r-1").unwrap();
        let named: serde_json::Value = serde_json::from_slice(&named).unwrap();
        assert_eq!(named["message"], "boom (request id r-1)");
        assert_eq!(named["status"], 500);
        let named = named_in(br#"{"title":"x","detail":"down"}"#, "r-2").unwrap();
        assert!(String::from_utf8_lossy(&named).contains("down (request id r-2)"));
        assert_eq!(named_in(br#"{"error":{"message":"nested"}}"#, "r-3"), None);
        assert_eq!(named_in(b"not json", "r-4"), None);
    }
}
