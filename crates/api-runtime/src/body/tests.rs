//! The reading of request bodies: media types, and the size limit.

use super::*;
use crate::schema::{Components, Schema};

static COMPONENTS: Components = Components::new(&[]);

fn body(kind: BodyKind, media_type: &'static str) -> Body {
    Body::for_tests(kind, media_type)
}

#[test]
fn media_types_match_by_essence() {
    let json = body(BodyKind::Json, "application/json");
    for ok in [
        "application/json",
        "Application/JSON; charset=utf-8",
        "application/merge-patch+json",
    ] {
        assert!(media_kind(&json, Some(ok)).is_ok(), "{ok}");
    }
    for bad in ["text/plain", "application/json; charset=latin1", "application/jsonx"] {
        assert_eq!(media_kind(&json, Some(bad)).unwrap_err().status, 415, "{bad}");
    }
    assert_eq!(media_kind(&json, None).unwrap_err().status, 415);
    let text = body(BodyKind::Text, "text/plain");
    assert!(media_kind(&text, Some("text/plain; charset=UTF-8")).is_ok());
}

#[test]
fn a_documented_range_takes_any_type_within_it() {
    let any = body(BodyKind::Binary, "*/*");
    for ok in ["image/png", "application/octet-stream", "text/csv; charset=latin1"] {
        assert_eq!(media_kind(&any, Some(ok)).unwrap().0, BodyKind::Binary, "{ok}");
    }
    assert_eq!(media_kind(&any, None).unwrap_err().status, 415);
    let application = body(BodyKind::Binary, "application/*");
    assert!(media_kind(&application, Some("Application/zip")).is_ok());
    assert_eq!(media_kind(&application, Some("image/png")).unwrap_err().status, 415);
}

#[test]
fn each_readable_media_type_is_read_as_its_kind() {
    let both = Body {
        alternatives: &[("application/x-www-form-urlencoded", BodyKind::Form)],
        ..body(BodyKind::Json, "application/json")
    };
    assert_eq!(media_kind(&both, Some("application/json")).unwrap().0, BodyKind::Json);
    assert_eq!(
        media_kind(&both, Some("application/x-www-form-urlencoded")).unwrap().0,
        BodyKind::Form
    );
    assert_eq!(
        media_kind(&both, Some("application/ld+json")).unwrap().0,
        BodyKind::Json
    );
    let refused = media_kind(&both, Some("application/xml")).unwrap_err();
    assert_eq!(refused.status, 415);
    assert!(
        refused
            .problem
            .message
            .contains("application/json or application/x-www-form-urlencoded"),
        "{}",
        refused.problem.message
    );
}

#[test]
fn a_media_type_of_a_value_of_its_own_is_read_with_its_schema() {
    static TEXT: Schema = Schema::new(&COMPONENTS, "{}", Some(r#"{"type":"string","maxLength":3}"#));
    static OTHERS: [(&str, BodyKind, &Schema); 1] = [("text/plain", BodyKind::Text, &TEXT)];
    let several = Body {
        others: &OTHERS,
        ..body(BodyKind::Json, "application/json")
    };
    let (kind, schema) = media_kind(&several, Some("text/plain")).unwrap();
    assert_eq!(kind, BodyKind::Text);
    assert!(std::ptr::eq(schema, &TEXT));
    assert!(std::ptr::eq(
        media_kind(&several, Some("application/json")).unwrap().1,
        several.schema
    ));
    let refused = media_kind(&several, Some("image/png")).unwrap_err();
    assert!(
        refused.problem.message.contains("application/json or text/plain"),
        "{}",
        refused.problem.message
    );
}

#[tokio::test]
async fn a_body_over_the_limit_is_413() {
    let small = read_limited(dropshot::Body::from(Bytes::from_static(b"12345")), 5).await;
    assert_eq!(small.unwrap(), Bytes::from_static(b"12345"));
    let large = read_limited(dropshot::Body::from(Bytes::from_static(b"123456")), 5).await;
    assert_eq!(large.unwrap_err().status, 413);
}
