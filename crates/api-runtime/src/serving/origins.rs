//! Which origins may call a service from a browser (`--cors-origin`), as
//! read from the command line; what is answered to them is [`super::cors`]'s.

use http::header::HeaderValue;

/// The origins allowed; see the module's documentation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cors {
    /// `*`: any origin, without credentials.
    AnyOrigin,
    /// These origins (`https://app.example.com`), with credentials.
    Origins(Vec<String>),
}

impl Cors {
    /// The policy `--cors-origin` names (repeated); `None` for none.
    /// Each origin is a scheme, a host and maybe a port, nothing else
    /// (that is what a browser sends), or `*` alone.
    pub fn from_options(origins: &[String]) -> Result<Option<Cors>, String> {
        if origins.is_empty() {
            return Ok(None);
        }
        if origins.iter().any(|o| o == "*") {
            return match origins.len() {
                1 => Ok(Some(Cors::AnyOrigin)),
                _ => Err("--cors-origin '*' allows every origin: name no other beside it".into()),
            };
        }
        let mut allowed = Vec::new();
        for origin in origins {
            let (scheme, rest) = origin
                .split_once("://")
                .ok_or_else(|| format!("--cors-origin {origin:?}: not an origin (such as https://app.example.com)"))?;
            let well_formed = matches!(scheme, "http" | "https")
                && !rest.is_empty()
                && !rest.contains(['/', '?', '#', '@', ' '])
                && rest.is_ascii();
            if !well_formed {
                return Err(format!(
                    "--cors-origin {origin:?}: an origin is a scheme, a host and maybe a port \
                     (https://app.example.com:8443), without a path"
                ));
            }
            allowed.push(origin.to_ascii_lowercase());
        }
        Ok(Some(Cors::Origins(allowed)))
    }

    /// The `Access-Control-Allow-Origin` for a request from `origin`, if
    /// it is allowed.
    pub(super) fn allow(&self, origin: &HeaderValue) -> Option<HeaderValue> {
        match self {
            Cors::AnyOrigin => Some(HeaderValue::from_static("*")),
            Cors::Origins(origins) => {
                let origin_text = origin.to_str().ok()?;
                origins
                    .iter()
                    .any(|allowed| allowed.eq_ignore_ascii_case(origin_text))
                    .then(|| origin.clone())
            }
        }
    }

    pub(super) fn credentials(&self) -> bool {
        matches!(self, Cors::Origins(_))
    }
}
