//! Form bodies (`application/x-www-form-urlencoded`) as the server reads
//! them. progenitor's encoder, serde_urlencoded, writes no lists or
//! objects.

use progenitor_client::Error;

use crate::parameters::text;

/// Writes a form body: a scalar as its text, each item of a list (`lists`
/// names them) as its own pair, a field the spec encodes as a
/// `deepObject` (`deep` names them) in bracket notation
/// (`card[number]=4242`), an object or any other structured value as JSON
/// text. Null fields are not sent.
// The error is the generated method's own (progenitor's), passed on by `?`.
#[allow(clippy::result_large_err)]
pub fn encode_form<T: serde::Serialize, E>(body: &T, lists: &[&str], deep: &[&str]) -> Result<String, Error<E>> {
    let invalid = |e: String| Error::InvalidRequest(format!("the form body: {e}"));
    let value = serde_json::to_value(body).map_err(|e| invalid(e.to_string()))?;
    let serde_json::Value::Object(fields) = value else {
        return Err(invalid("not an object".into()));
    };
    let mut pairs: Vec<(String, String)> = Vec::new();
    for (name, value) in fields {
        match value {
            serde_json::Value::Null => {}
            value if deep.contains(&name.as_str()) => crate::query::bracketed(name, value, &mut pairs),
            serde_json::Value::Array(items) if lists.contains(&name.as_str()) => {
                pairs.extend(items.iter().map(|item| (name.clone(), text(item))));
            }
            other => {
                let text = text(&other);
                pairs.push((name, text));
            }
        }
    }
    serde_urlencoded::to_string(&pairs).map_err(|e| invalid(e.to_string()))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::encode_form;

    #[test]
    fn lists_repeat_their_name_and_objects_travel_as_json() {
        let body = json!({"tags": ["a", "b"], "meta": {"k": 1}, "n": 2, "s": "x y", "gone": null});
        let form = encode_form::<_, ()>(&body, &["tags"], &[]).unwrap();
        assert_eq!(form, "meta=%7B%22k%22%3A1%7D&n=2&s=x+y&tags=a&tags=b");
    }

    #[test]
    fn deep_fields_are_written_in_brackets() {
        let body = json!({"card": {"number": "4242", "exp": 12}, "expand": ["a"], "n": 1});
        let form = encode_form::<_, ()>(&body, &[], &["card", "expand"]).unwrap();
        assert_eq!(form, "card%5Bexp%5D=12&card%5Bnumber%5D=4242&expand%5B%5D=a&n=1");
    }

    #[test]
    fn a_list_not_named_as_one_is_json_text() {
        let form = encode_form::<_, ()>(&json!({"ids": [1, 2]}), &[], &[]).unwrap();
        assert_eq!(form, "ids=%5B1%2C2%5D");
    }

    #[test]
    fn a_body_that_is_not_an_object_is_an_invalid_request() {
        let error = encode_form::<_, ()>(&json!([1]), &[], &[]).unwrap_err();
        assert!(error.to_string().contains("the form body: not an object"), "{error}");
    }
}
