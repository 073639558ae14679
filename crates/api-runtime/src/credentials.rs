//! Credentials as a request carries them, one reader per kind of scheme:
//! `Authorization: Bearer` (HTTP bearer, OAuth2 and OpenID Connect access
//! tokens), `Authorization: Basic` (HTTP basic), and API keys in a
//! header, a query parameter or a cookie.

use std::borrow::Cow;
use std::fmt;

use base64::Engine;
use http::{HeaderMap, Uri};

use crate::contract::Scheme;

/// A secret the caller sent (a token, a key, a password). Its `Debug`
/// hides the value, so it cannot end up in a log by accident. Borrowed
/// from the request where it is sent as it is (a bearer token, a key in a
/// header): every request with a key would otherwise copy it.
pub struct Secret<'a>(Cow<'a, str>);

impl Secret<'_> {
    pub fn secret(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

/// What a caller sent by one scheme, for the server's
/// [`crate::Authenticator`] to check. `scheme` is the name the spec gives
/// it in `components.securitySchemes`.
#[derive(Debug)]
pub enum Credential<'a> {
    /// `Authorization: Bearer <token>`: an HTTP bearer token, or the
    /// access token of OAuth2 or OpenID Connect, with the scopes the
    /// operation requires of it (to be checked against what it grants).
    Bearer {
        scheme: &'static str,
        token: Secret<'a>,
        scopes: &'static [&'static str],
    },
    /// HTTP basic (RFC 7617): the user and the password.
    Basic {
        scheme: &'static str,
        user: String,
        password: Secret<'a>,
    },
    /// An API key, from a header, a query parameter or a cookie.
    ApiKey { scheme: &'static str, key: Secret<'a> },
}

impl Credential<'_> {
    /// The name of the scheme it was sent by.
    pub fn scheme(&self) -> &'static str {
        match self {
            Credential::Bearer { scheme, .. }
            | Credential::Basic { scheme, .. }
            | Credential::ApiKey { scheme, .. } => scheme,
        }
    }

    /// A bearer token's or an API key's value; `None` for HTTP basic.
    pub fn token(&self) -> Option<&str> {
        match self {
            Credential::Bearer { token, .. } => Some(token.secret()),
            Credential::ApiKey { key, .. } => Some(key.secret()),
            Credential::Basic { .. } => None,
        }
    }
}

/// The parts of a request credentials are read from.
#[derive(Clone, Copy)]
pub struct Sent<'a> {
    pub headers: &'a HeaderMap,
    pub uri: &'a Uri,
}

impl<'a> Sent<'a> {
    /// Whether the request carries something for `scheme`: the one to
    /// check when a caller may choose between schemes.
    pub(crate) fn carries(&self, scheme: &Scheme) -> bool {
        // The scheme's word alone, as bytes: whether the value is text is
        // `read`'s to say (and each check of a 70-byte key costs).
        let authorization = |auth_scheme: &str| {
            self.headers
                .get(http::header::AUTHORIZATION)
                .and_then(|v| v.as_bytes().split(|b| *b == b' ').next())
                .is_some_and(|s| s.eq_ignore_ascii_case(auth_scheme.as_bytes()))
        };
        match scheme {
            Scheme::Bearer { .. } => authorization("bearer"),
            Scheme::Basic { .. } => authorization("basic"),
            Scheme::ApiKeyHeader { header, .. } => self.headers.contains_key(*header),
            Scheme::ApiKeyQuery { parameter, .. } => query_values(self.uri, parameter).next().is_some(),
            Scheme::ApiKeyCookie { cookie, .. } => cookie_values(self.headers, cookie).next().is_some(),
        }
    }

    /// The credential `scheme` finds in the request, or why there is none
    /// (for the 401's message).
    pub(crate) fn read(&self, scheme: &Scheme, scopes: &'static [&'static str]) -> Result<Credential<'a>, String> {
        let name = scheme.name();
        match scheme {
            Scheme::Bearer { .. } => bearer_token(self.headers)
                .map(|token| Credential::Bearer {
                    scheme: name,
                    token,
                    scopes,
                })
                .map_err(str::to_string),
            Scheme::Basic { .. } => basic(self.headers).map(|(user, password)| Credential::Basic {
                scheme: name,
                user,
                password,
            }),
            Scheme::ApiKeyHeader { header, .. } => {
                header_token(self.headers, header).map(|key| Credential::ApiKey { scheme: name, key })
            }
            Scheme::ApiKeyQuery { parameter, .. } => {
                let mut values = query_values(self.uri, parameter);
                let key = one_key(values.next(), values.next().is_some(), "query parameter", parameter)?;
                Ok(Credential::ApiKey { scheme: name, key })
            }
            Scheme::ApiKeyCookie { cookie, .. } => {
                let mut values = cookie_values(self.headers, cookie);
                let key = one_key(values.next(), values.next().is_some(), "cookie", cookie)?;
                Ok(Credential::ApiKey { scheme: name, key })
            }
        }
    }
}

/// Reads the bearer token of a request. The scheme name is
/// case-insensitive (RFC 9110 §11.1); exactly one `Authorization` header
/// is accepted.
pub fn bearer_token(headers: &HeaderMap) -> Result<Secret<'_>, &'static str> {
    let value = authorization(headers).map_err(|e| match e {
        AuthorizationError::Missing => "missing API key: send `Authorization: Bearer <API_KEY>`",
        AuthorizationError::Several => "more than one Authorization header",
        AuthorizationError::NotAscii => "the Authorization header is not visible ASCII",
    })?;
    // `Bearer ` first, as nearly every caller sends it: then the first
    // space is the seventh byte, which is what the search would find, at
    // a fifth of its cost.
    let token = match value.get(..7) {
        Some(scheme) if scheme.eq_ignore_ascii_case("bearer ") => &value[7..],
        _ => {
            let (scheme, token) = value
                .split_once(' ')
                .ok_or("the Authorization header must be `Bearer <API_KEY>`")?;
            if !scheme.eq_ignore_ascii_case("bearer") {
                return Err("the Authorization scheme must be Bearer");
            }
            token
        }
    };
    let token = token.trim_matches(' ');
    // A visible-ASCII value (`authorization` checked it) has no byte at or
    // below a space but the space and the tab: one comparison a byte, over
    // every byte (a loop that stops early does not vectorize).
    if token.is_empty() || token.bytes().fold(false, |any, b| any | (b <= b' ')) {
        return Err("the Authorization header must be `Bearer <API_KEY>`");
    }
    Ok(Secret(Cow::Borrowed(token)))
}

/// HTTP basic (RFC 7617): `Basic <base64 of user:password>`, UTF-8.
fn basic(headers: &HeaderMap) -> Result<(String, Secret<'static>), String> {
    let value = authorization(headers).map_err(|e| match e {
        AuthorizationError::Missing => "missing credentials: send `Authorization: Basic <user:password in base64>`",
        AuthorizationError::Several => "more than one Authorization header",
        AuthorizationError::NotAscii => "the Authorization header is not visible ASCII",
    })?;
    let malformed = || "the Authorization header must be `Basic <user:password in base64>`".to_string();
    let (scheme, encoded) = value.split_once(' ').ok_or_else(malformed)?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return Err("the Authorization scheme must be Basic".into());
    }
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim_matches(' '))
        .map_err(|_| malformed())?;
    let text = String::from_utf8(decoded).map_err(|_| "the Basic credentials are not UTF-8".to_string())?;
    let (user, password) = text.split_once(':').ok_or_else(malformed)?;
    Ok((user.to_string(), Secret(Cow::Owned(password.to_string()))))
}

enum AuthorizationError {
    Missing,
    Several,
    NotAscii,
}

/// The one `Authorization` header's value.
fn authorization(headers: &HeaderMap) -> Result<&str, AuthorizationError> {
    let mut values = headers.get_all(http::header::AUTHORIZATION).iter();
    let value = values.next().ok_or(AuthorizationError::Missing)?;
    if values.next().is_some() {
        return Err(AuthorizationError::Several);
    }
    visible_ascii(value.as_bytes()).ok_or(AuthorizationError::NotAscii)
}

/// `bytes` as text when each is visible ASCII or a tab, as
/// `HeaderValue::to_str` accepts them, checked over every byte: a check
/// that stops at the first bad byte does not vectorize, and every request
/// with a key reads this header (a few hundred instructions fewer).
fn visible_ascii(bytes: &[u8]) -> Option<&str> {
    let visible = bytes
        .iter()
        .fold(true, |all, &b| all & ((b' '..=b'~').contains(&b) | (b == b'\t')));
    visible.then(|| std::str::from_utf8(bytes).ok()).flatten()
}

/// Reads an API key sent in a header of its own: the value alone. In
/// `Authorization` the key is the whole value, a scheme of the API's own
/// and its credential (`Token <jwt>`).
fn header_token<'a>(headers: &'a HeaderMap, header: &str) -> Result<Secret<'a>, String> {
    let mut values = headers.get_all(header).iter();
    let value = values
        .next()
        .ok_or_else(|| format!("missing API key: send `{header}: <API_KEY>`"))?;
    if values.next().is_some() {
        return Err(format!("more than one {header} header"));
    }
    let token = value
        .to_str()
        .map_err(|_| format!("the {header} header is not visible ASCII"))?
        .trim_matches(' ');
    let whole_value = header.eq_ignore_ascii_case("authorization");
    if token.is_empty() || token.contains('\t') || (!whole_value && token.contains(' ')) {
        return Err(format!("the {header} header must hold the API key alone"));
    }
    Ok(Secret(Cow::Borrowed(token)))
}

/// The values of the query parameter `name`, decoded.
fn query_values<'a>(uri: &'a Uri, name: &'a str) -> impl Iterator<Item = String> + 'a {
    form_urlencoded::parse(uri.query().unwrap_or_default().as_bytes())
        .filter(move |(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
}

/// The values of the cookie `name` (RFC 6265 §5.4: `a=b; c=d`, in one
/// `Cookie` header or, over HTTP/2, several).
pub(crate) fn cookie_values<'a>(headers: &'a HeaderMap, name: &'a str) -> impl Iterator<Item = String> + 'a {
    headers
        .get_all(http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .filter(move |(key, _)| *key == name)
        .map(|(_, value)| value.trim_matches('"').to_string())
}

/// An API key given once, and not empty.
fn one_key(first: Option<String>, more: bool, place: &str, name: &str) -> Result<Secret<'static>, String> {
    match first {
        None => Err(format!("missing API key: send it in the {place} `{name}`")),
        Some(_) if more => Err(format!("more than one {place} `{name}`")),
        Some(key) if key.is_empty() => Err(format!("the {place} `{name}` is empty")),
        Some(key) => Ok(Secret(Cow::Owned(key))),
    }
}

#[cfg(test)]
mod tests;
