//! A body whose media type the spec leaves open (`*/*`, `image/*`, or an
//! operation that documents no response at all): the handler gives the
//! bytes and their concrete type, and the layer checks that the type is
//! one the spec allows before sending it.

use bytes::Bytes;
use http::HeaderValue;

/// Bytes and the media type they are, chosen by the handler.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payload {
    pub media_type: String,
    pub bytes: Bytes,
}

impl Payload {
    pub fn new(media_type: impl Into<String>, bytes: impl Into<Bytes>) -> Self {
        Payload {
            media_type: media_type.into(),
            bytes: bytes.into(),
        }
    }

    /// The `Content-Type` to send when `media_type` is one `range` allows
    /// (`*/*`, `image/*`, or an exact type, compared by essence); the
    /// reason otherwise.
    pub(crate) fn content_type(&self, range: &str) -> Result<HeaderValue, String> {
        let (given, allowed) = (essence(&self.media_type), essence(range));
        let (given_type, given_subtype) = given
            .split_once('/')
            .ok_or_else(|| format!("the handler's media type `{}` is not `type/subtype`", self.media_type))?;
        let fits = match allowed.split_once('/') {
            Some(("*", "*")) => true,
            Some((ty, "*")) => ty == given_type,
            Some((ty, subtype)) => ty == given_type && subtype == given_subtype,
            None => false,
        };
        if !fits || given_subtype.is_empty() || given_type == "*" || given_subtype == "*" {
            return Err(format!(
                "the handler's media type `{}` is not one the spec documents (`{range}`)",
                self.media_type
            ));
        }
        HeaderValue::try_from(self.media_type.as_str()).map_err(|e| format!("`{}`: {e}", self.media_type))
    }
}

pub use api_shared::media::essence;

#[cfg(test)]
mod tests {
    use super::Payload;

    #[test]
    fn a_payload_is_sent_only_as_a_type_its_range_allows() {
        let png = Payload::new("image/png", &b"\x89PNG"[..]);
        assert_eq!(png.content_type("*/*").unwrap(), "image/png");
        assert_eq!(png.content_type("image/*").unwrap(), "image/png");
        assert_eq!(png.content_type("IMAGE/PNG").unwrap(), "image/png");
        assert!(png.content_type("text/*").is_err());
        assert!(png.content_type("image/jpeg").is_err());
        let wildcard = Payload::new("*/*", "x");
        assert!(
            wildcard.content_type("*/*").is_err(),
            "a concrete type is sent, never a range"
        );
        assert!(Payload::new("nonsense", "x").content_type("*/*").is_err());
        let text = Payload::new("text/plain; charset=utf-8", "hi");
        assert_eq!(text.content_type("text/*").unwrap(), "text/plain; charset=utf-8");
    }
}
