//! The reading of parameters, on texts as requests carry them.

use super::*;
use crate::schema::{Components, Schema};

static COMPONENTS: Components = Components::new(&[]);
static LIMIT: Schema = Schema::new(
    &COMPONENTS,
    "{}",
    Some(r#"{"type":"integer","minimum":1,"maximum":100}"#),
);
static IDS: Schema = Schema::new(&COMPONENTS, "{}", Some(r#"{"type":"array","maxItems":3}"#));

fn parameter(value: ValueKind, explode: bool, schema: &'static Schema) -> Parameter {
    Parameter {
        name: "p",
        key: "p",
        location: Location::Query,
        required: false,
        value,
        explode,
        default: Some("10"),
        description: None,
        schema,
    }
}

fn texts(values: &[&'static str]) -> Vec<Cow<'static, str>> {
    values.iter().map(|v| Cow::Borrowed(*v)).collect()
}

#[test]
fn a_scalar_is_read_checked_and_defaulted() {
    let limit = parameter(ValueKind::Scalar(Scalar::Integer), true, &LIMIT);
    assert_eq!(
        read_parameter(&limit, &texts(&["7"])).unwrap(),
        Some(serde_json::json!(7))
    );
    assert_eq!(read_parameter(&limit, &[]).unwrap(), Some(serde_json::json!(10)));
    let problem = read_parameter(&limit, &texts(&["0"])).unwrap_err();
    assert_eq!(problem.code, "invalid_parameter");
    assert!(
        problem.message.starts_with("query parameter `p`: "),
        "{}",
        problem.message
    );
    assert!(problem.message.ends_with("(minimum)"), "{}", problem.message);
    assert!(
        read_parameter(&limit, &texts(&["x"]))
            .unwrap_err()
            .message
            .contains("\"x\"")
    );
    assert!(
        read_parameter(&limit, &texts(&["1", "2"]))
            .unwrap_err()
            .message
            .contains("more than once")
    );
}

#[test]
fn space_and_pipe_delimited_lists_split_at_their_delimiter() {
    let piped = parameter(ValueKind::Delimited(Scalar::Integer, '|'), false, &IDS);
    assert_eq!(
        read_parameter(&piped, &texts(&["1|2", "3"])).unwrap(),
        Some(serde_json::json!([1, 2, 3]))
    );
    assert!(
        read_parameter(&piped, &texts(&["1,2"])).is_err(),
        "a comma is no delimiter here"
    );
    assert_eq!(
        read_parameter(&piped, &texts(&[""])).unwrap(),
        Some(serde_json::json!([]))
    );
    // `scope=openid%20profile` (or `+`), as the query is decoded.
    let spaced = parameter(ValueKind::Delimited(Scalar::String, ' '), false, &IDS);
    assert_eq!(
        read_parameter(&spaced, &texts(&["openid profile"])).unwrap(),
        Some(serde_json::json!(["openid", "profile"]))
    );
    let exploded = parameter(ValueKind::Delimited(Scalar::String, '|'), true, &IDS);
    assert_eq!(
        read_parameter(&exploded, &texts(&["a|b"])).unwrap(),
        Some(serde_json::json!(["a|b"])),
        "with explode, each pair is an item"
    );
}

#[test]
fn arrays_explode_or_join() {
    let exploded = parameter(ValueKind::Array(Scalar::Integer), true, &IDS);
    assert_eq!(
        read_parameter(&exploded, &texts(&["1", "2"])).unwrap(),
        Some(serde_json::json!([1, 2]))
    );
    assert!(read_parameter(&exploded, &texts(&["1,2"])).is_err(), "one item `1,2`");
    let joined = parameter(ValueKind::Array(Scalar::Integer), false, &IDS);
    assert_eq!(
        read_parameter(&joined, &texts(&["1,2", "3"])).unwrap(),
        Some(serde_json::json!([1, 2, 3]))
    );
    assert_eq!(
        read_parameter(&joined, &texts(&[""])).unwrap(),
        Some(serde_json::json!([]))
    );
    let problem = read_parameter(&joined, &texts(&["1,2,3,4"])).unwrap_err();
    assert!(problem.message.contains("(maxItems)"), "{}", problem.message);
}

#[test]
fn a_scalar_of_no_one_type_is_read_as_the_schema_accepts() {
    // `oneOf: [integer, string with a pattern]`: `7` is the integer,
    // `abc` the string; `-` is read as text and refused.
    static EITHER: Schema = Schema::new(
        &COMPONENTS,
        "{}",
        Some(r#"{"oneOf":[{"type":"integer"},{"type":"string","pattern":"^[a-z]+$"}]}"#),
    );
    // A string pattern of digits: `12` is not read as a number there.
    static DIGITS: Schema = Schema::new(&COMPONENTS, "{}", Some(r#"{"type":"string","pattern":"^[0-9]+$"}"#));
    let either = parameter(ValueKind::Scalar(Scalar::Any), true, &EITHER);
    assert_eq!(
        read_parameter(&either, &texts(&["7"])).unwrap(),
        Some(serde_json::json!(7))
    );
    assert_eq!(
        read_parameter(&either, &texts(&["abc"])).unwrap(),
        Some(serde_json::json!("abc"))
    );
    assert!(read_parameter(&either, &texts(&["-"])).is_err());
    let digits = parameter(ValueKind::Scalar(Scalar::Any), true, &DIGITS);
    assert_eq!(
        read_parameter(&digits, &texts(&["12"])).unwrap(),
        Some(serde_json::json!("12"))
    );
    let list = parameter(ValueKind::Array(Scalar::Any), false, &DIGITS_LIST);
    static DIGITS_LIST: Schema = Schema::new(&COMPONENTS, "{}", Some(r#"{"type":"array","items":{"type":"string"}}"#));
    assert_eq!(
        read_parameter(&list, &texts(&["1,2"])).unwrap(),
        Some(serde_json::json!(["1", "2"]))
    );
}

#[test]
fn json_text_is_read_as_the_value_it_is() {
    static FILTERS: Schema = Schema::new(
        &COMPONENTS,
        "{}",
        Some(r#"{"type":"array","items":{"type":"object","required":["name"]}}"#),
    );
    let filters = parameter(ValueKind::Json, true, &FILTERS);
    assert_eq!(
        read_parameter(&filters, &texts(&[r#"[{"name":"a"}]"#])).unwrap(),
        Some(serde_json::json!([{"name": "a"}]))
    );
    let problem = read_parameter(&filters, &texts(&["[{}]"])).unwrap_err();
    assert!(problem.message.contains("(required)"), "{}", problem.message);
    let problem = read_parameter(&filters, &texts(&["[{"])).unwrap_err();
    assert!(problem.message.contains("is not JSON"), "{}", problem.message);
}

#[test]
fn path_variables_follow_the_route() {
    assert_eq!(
        path_variables("/v1/orders/{orderId}/lines/{line}", "/v1//orders/a%20b/lines/7"),
        [
            ("orderId".to_string(), "a b".to_string()),
            ("line".to_string(), "7".to_string())
        ]
    );
    // As many segments as the route: an empty one is an empty value.
    assert_eq!(
        path_variables("/user/{username}", "/user/"),
        [("username".to_string(), String::new())]
    );
    // A variable with text around it: the text is not its value.
    assert_eq!(
        path_variables("/Calls/{Sid}.json", "/Calls/CA%2012.json"),
        [("Sid".to_string(), "CA 12".to_string())]
    );
    // Several variables in one segment, split at the text between
    // them, each decoded after the split (an encoded `,` is a value's).
    assert_eq!(
        path_variables("/@{lat},{lon}", "/@1.5%2C7,-2"),
        [
            ("lat".to_string(), "1.5,7".to_string()),
            ("lon".to_string(), "-2".to_string())
        ]
    );
}

/// A path parameter that is a list: its segment's items joined by commas
/// (the `simple` style; a path has no other), each read as its type.
#[test]
fn a_path_list_is_its_segments_items() {
    let ids = Parameter {
        location: Location::Path,
        required: true,
        default: None,
        ..parameter(ValueKind::Array(Scalar::Integer), false, &IDS)
    };
    let segment = path_variables("/batches/{p}", "/batches/4,5,6");
    let [(name, text)] = segment.as_slice() else {
        panic!("{segment:?}")
    };
    assert_eq!(name, "p");
    assert_eq!(
        read_parameter(&ids, &[Cow::Borrowed(text.as_str())]).unwrap(),
        Some(serde_json::json!([4, 5, 6]))
    );
    let problem = read_parameter(&ids, &texts(&["1,x"])).unwrap_err();
    assert!(
        problem.message.contains("path parameter `p` item 1"),
        "{}",
        problem.message
    );
}
