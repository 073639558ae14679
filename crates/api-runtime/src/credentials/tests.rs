//! The credential readers against the headers, queries and cookies a
//! request can carry.

use super::*;

fn headers(values: &[&[u8]]) -> HeaderMap {
    let mut map = HeaderMap::new();
    for v in values {
        map.append(http::header::AUTHORIZATION, http::HeaderValue::from_bytes(v).unwrap());
    }
    map
}

#[test]
fn bearer_scheme_is_case_insensitive() {
    for value in [&b"Bearer k1"[..], b"bearer k1", b"BEARER k1", b"Bearer   k1"] {
        assert_eq!(bearer_token(&headers(&[value])).unwrap().secret(), "k1", "{value:?}");
    }
}

#[test]
fn malformed_authorization_is_rejected() {
    for value in [
        &b"Basic abc"[..],
        b"Bearer",
        b"Bearer ",
        b"Bearer a b",
        b"Bearer\tk1",
        b"Bearers k1",
        b"Bearer  ",
        b"k1",
        b"Bearer \xffk",
    ] {
        assert!(bearer_token(&headers(&[value])).is_err(), "{value:?}");
    }
    assert!(bearer_token(&headers(&[])).is_err());
    assert!(bearer_token(&headers(&[b"Bearer a", b"Bearer b"])).is_err());
}

#[test]
fn visible_ascii_accepts_what_header_values_to_str_accepts() {
    let mut values: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b'k', b, b'k']).collect();
    values.extend([b"Bearer psk_1_abc".to_vec(), b"a\tb".to_vec(), Vec::new()]);
    for value in values {
        let Ok(header) = http::HeaderValue::from_bytes(&value) else {
            continue;
        };
        assert_eq!(visible_ascii(&value), header.to_str().ok(), "{value:?}");
    }
}

#[test]
fn a_secret_debug_hides_it() {
    let sent = headers(&[b"Bearer s3cret"]);
    let token = bearer_token(&sent).unwrap();
    assert!(!format!("{token:?}").contains("s3cret"));
    let credential = Credential::Basic {
        scheme: "basic",
        user: "ann".into(),
        password: Secret("pa55".into()),
    };
    assert!(!format!("{credential:?}").contains("pa55"));
}

#[test]
fn basic_gives_the_user_and_the_password() {
    // RFC 7617's example: Aladdin / open sesame.
    let (user, password) = basic(&headers(&[b"Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="])).unwrap();
    assert_eq!((user.as_str(), password.secret()), ("Aladdin", "open sesame"));
    let colon_in_password = base64::engine::general_purpose::STANDARD.encode("u:a:b");
    let value = format!("basic {colon_in_password}");
    let (user, password) = basic(&headers(&[value.as_bytes()])).unwrap();
    assert_eq!((user.as_str(), password.secret()), ("u", "a:b"));
    for bad in [
        &b"Basic"[..],
        b"Basic !!!",
        b"Bearer QWxhZGRpbjpvcGVuIHNlc2FtZQ==",
        b"Basic dXNlcg==",
    ] {
        assert!(basic(&headers(&[bad])).is_err(), "{bad:?}");
    }
}

#[test]
fn an_api_key_header_is_read_alone() {
    let mut map = HeaderMap::new();
    map.insert("x-api-key", http::HeaderValue::from_static("k1"));
    assert_eq!(header_token(&map, "X-API-Key").unwrap().secret(), "k1");
    map.append("x-api-key", http::HeaderValue::from_static("k2"));
    assert!(header_token(&map, "X-API-Key").is_err());
    assert!(header_token(&HeaderMap::new(), "X-API-Key").is_err());
    map.insert("x-api-key", http::HeaderValue::from_static("a b"));
    assert!(header_token(&map, "X-API-Key").is_err(), "a key alone has no space");
}

#[test]
fn an_api_key_in_authorization_is_the_whole_value() {
    let mut map = HeaderMap::new();
    map.insert("authorization", http::HeaderValue::from_static("Token jwt.a.b"));
    assert_eq!(header_token(&map, "Authorization").unwrap().secret(), "Token jwt.a.b");
    map.insert("authorization", http::HeaderValue::from_static(" "));
    assert!(header_token(&map, "Authorization").is_err());
}

#[test]
fn api_keys_in_the_query_and_in_cookies() {
    let query = Scheme::ApiKeyQuery {
        name: "q",
        parameter: "api_key",
    };
    let cookie = Scheme::ApiKeyCookie {
        name: "c",
        cookie: "session",
    };
    let no_headers = HeaderMap::new();
    let uri: Uri = "/pets?limit=3&api_key=k%201".parse().unwrap();
    let sent = Sent {
        headers: &no_headers,
        uri: &uri,
    };
    assert!(sent.carries(&query) && !sent.carries(&cookie));
    assert_eq!(sent.read(&query, &[]).unwrap().token(), Some("k 1"));
    let twice: Uri = "/pets?api_key=a&api_key=b".parse().unwrap();
    let sent = Sent {
        headers: &no_headers,
        uri: &twice,
    };
    assert!(sent.read(&query, &[]).is_err());

    let mut cookies = HeaderMap::new();
    cookies.append(http::header::COOKIE, "theme=dark; session=s1".parse().unwrap());
    let plain: Uri = "/pets".parse().unwrap();
    let sent = Sent {
        headers: &cookies,
        uri: &plain,
    };
    assert!(sent.carries(&cookie) && !sent.carries(&query));
    assert_eq!(sent.read(&cookie, &[]).unwrap().token(), Some("s1"));
    cookies.append(http::header::COOKIE, "session=s2".parse().unwrap());
    let sent = Sent {
        headers: &cookies,
        uri: &plain,
    };
    assert!(sent.read(&cookie, &[]).is_err(), "one session cookie, not two");
}
