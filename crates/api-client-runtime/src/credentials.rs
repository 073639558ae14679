//! Credentials put on a request, each header marked sensitive so that no
//! log of the request shows it.

use reqwest::header::{COOKIE, HeaderValue};

/// Sets the header `name` to `value`, marked sensitive.
pub fn set_header(request: &mut reqwest::Request, name: &'static str, value: &str) -> Result<(), String> {
    let mut value = HeaderValue::from_str(value)
        .map_err(|_| format!("a credential for `{name}` holds characters a header cannot carry"))?;
    value.set_sensitive(true);
    request.headers_mut().insert(name, value);
    Ok(())
}

/// Adds the cookie `name=value` to the request's `Cookie` header (after
/// any cookies there already), marked sensitive.
pub fn add_cookie(request: &mut reqwest::Request, name: &str, value: &str) -> Result<(), String> {
    let pair = format!("{name}={value}");
    let cookie = match request.headers().get(COOKIE).and_then(|v| v.to_str().ok()) {
        Some(existing) => format!("{existing}; {pair}"),
        None => pair,
    };
    let mut value = HeaderValue::from_str(&cookie)
        .map_err(|_| format!("the cookie `{name}` holds characters a header cannot carry"))?;
    value.set_sensitive(true);
    request.headers_mut().insert(COOKIE, value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{add_cookie, set_header};

    fn request() -> reqwest::Request {
        reqwest::Request::new(reqwest::Method::GET, "http://localhost/".parse().unwrap())
    }

    #[test]
    fn a_header_credential_is_set_and_sensitive() {
        let mut request = request();
        set_header(&mut request, "x-api-key", "secret").unwrap();
        let value = &request.headers()["x-api-key"];
        assert_eq!(value, "secret");
        assert!(value.is_sensitive());
    }

    #[test]
    fn cookies_join_those_already_sent() {
        let mut request = request();
        add_cookie(&mut request, "a", "1").unwrap();
        add_cookie(&mut request, "b", "2").unwrap();
        let value = &request.headers()[reqwest::header::COOKIE];
        assert_eq!(value, "a=1; b=2");
        assert!(value.is_sensitive());
    }

    #[test]
    fn a_value_no_header_can_carry_is_refused_by_name() {
        let error = set_header(&mut request(), "x-api-key", "line\nbreak").unwrap_err();
        assert!(error.contains("`x-api-key`"), "{error}");
        let error = add_cookie(&mut request(), "session", "a\u{0}").unwrap_err();
        assert!(error.contains("`session`"), "{error}");
    }
}
