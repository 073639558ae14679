//! Object query parameters in the styles progenitor does not write:
//! `name[property]=value` per property (`deepObject`, in bracket notation
//! to any depth), or `name=property,value,...` (`form`, `explode: false`);
//! and lists `spaceDelimited` or `pipeDelimited`, one pair of their items.

use crate::parameters::text;

/// An object query parameter, serialized as the pairs its style writes.
/// Absent (`None`) and null properties are not sent.
pub struct ObjectQuery<'a, T> {
    name: &'a str,
    value: &'a T,
    deep: bool,
}

impl<'a, T> ObjectQuery<'a, T> {
    /// `value` as the parameter `name`: `deep` for `deepObject`, else
    /// `form` without `explode`.
    pub fn new(name: &'a str, value: &'a T, deep: bool) -> Self {
        ObjectQuery { name, value, deep }
    }
}

impl<T: serde::Serialize> serde::Serialize for ObjectQuery<'_, T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let value = serde_json::to_value(self.value).map_err(serde::ser::Error::custom)?;
        let pairs: Vec<(String, String)> = match self.deep {
            true => {
                let mut pairs = Vec::new();
                bracketed(self.name.to_string(), value, &mut pairs);
                pairs
            }
            false => {
                let properties = match value {
                    serde_json::Value::Object(properties) => properties,
                    serde_json::Value::Null => serde_json::Map::new(),
                    _ => return Err(serde::ser::Error::custom(format!("`{}` is not an object", self.name))),
                };
                let present = properties.into_iter().filter(|(_, value)| !value.is_null());
                let joined: Vec<String> = present.flat_map(|(property, value)| [property, text(&value)]).collect();
                match joined.is_empty() {
                    true => Vec::new(),
                    false => vec![(self.name.to_string(), joined.join(","))],
                }
            }
        };
        pairs.serialize(serializer)
    }
}

/// A list query parameter `spaceDelimited` or `pipeDelimited`: one pair
/// of its items joined by the delimiter. Absent (`None`) or empty, none.
pub struct DelimitedQuery<'a, T> {
    name: &'a str,
    value: &'a T,
    delimiter: char,
}

impl<'a, T> DelimitedQuery<'a, T> {
    pub fn new(name: &'a str, value: &'a T, delimiter: char) -> Self {
        DelimitedQuery { name, value, delimiter }
    }
}

impl<T: serde::Serialize> serde::Serialize for DelimitedQuery<'_, T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let items = match serde_json::to_value(self.value).map_err(serde::ser::Error::custom)? {
            serde_json::Value::Array(items) => items,
            serde_json::Value::Null => Vec::new(),
            other => vec![other],
        };
        let texts: Vec<String> = items
            .into_iter()
            .filter(|item| !item.is_null())
            .map(|item| text(&item))
            .collect();
        let pairs: Vec<(&str, String)> = match texts.is_empty() {
            true => Vec::new(),
            false => vec![(self.name, texts.join(&self.delimiter.to_string()))],
        };
        pairs.serialize(serializer)
    }
}

/// `value` as the pairs bracket notation writes under `name`: a scalar as
/// `name=value`, an object's property as `name[key]`, a list's scalar item
/// as `name[]` and its structured item as `name[index]`, nested to any
/// depth. Null is not sent.
pub fn bracketed(name: String, value: serde_json::Value, pairs: &mut Vec<(String, String)>) {
    match value {
        serde_json::Value::Null => {}
        serde_json::Value::Object(properties) => {
            for (key, value) in properties {
                bracketed(format!("{name}[{key}]"), value, pairs);
            }
        }
        serde_json::Value::Array(items) => {
            for (index, item) in items.into_iter().enumerate() {
                let key = match item.is_object() || item.is_array() {
                    true => index.to_string(),
                    false => String::new(),
                };
                bracketed(format!("{name}[{key}]"), item, pairs);
            }
        }
        scalar => pairs.push((name, text(&scalar))),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::ObjectQuery;

    fn query(value: &serde_json::Value, deep: bool) -> Result<String, serde_urlencoded::ser::Error> {
        serde_urlencoded::to_string(ObjectQuery::new("filter", value, deep))
    }

    #[test]
    fn a_deep_object_is_a_pair_per_present_property() {
        let value = json!({"color": "red", "size": 3, "gone": null});
        assert_eq!(query(&value, true).unwrap(), "filter%5Bcolor%5D=red&filter%5Bsize%5D=3");
    }

    #[test]
    fn a_form_object_unexploded_is_one_pair_of_names_and_values() {
        let value = json!({"color": "red", "size": 3});
        assert_eq!(query(&value, false).unwrap(), "filter=color%2Cred%2Csize%2C3");
        assert_eq!(query(&json!({}), false).unwrap(), "");
        assert_eq!(query(&serde_json::Value::Null, true).unwrap(), "");
    }

    #[test]
    fn a_deep_value_of_any_structure_is_written_in_brackets() {
        assert_eq!(query(&json!(5), true).unwrap(), "filter=5");
        assert_eq!(
            query(&json!({"gt": 1, "lt": {"x": true}}), true).unwrap(),
            "filter%5Bgt%5D=1&filter%5Blt%5D%5Bx%5D=true"
        );
        assert_eq!(
            query(&json!(["a", "b"]), true).unwrap(),
            "filter%5B%5D=a&filter%5B%5D=b"
        );
        assert_eq!(
            query(&json!([{"price": "p"}, {"price": "q"}]), true).unwrap(),
            "filter%5B0%5D%5Bprice%5D=p&filter%5B1%5D%5Bprice%5D=q"
        );
    }

    #[test]
    fn a_delimited_list_is_one_pair_of_its_items_joined() {
        let query = |value: &serde_json::Value, delimiter| {
            serde_urlencoded::to_string(super::DelimitedQuery::new("scope", value, delimiter)).unwrap()
        };
        assert_eq!(query(&json!(["openid", "profile"]), ' '), "scope=openid+profile");
        assert_eq!(query(&json!([1, 2]), '|'), "scope=1%7C2");
        assert_eq!(query(&json!([]), '|'), "");
        assert_eq!(query(&serde_json::Value::Null, '|'), "");
    }

    #[test]
    fn a_value_that_is_not_an_object_is_refused_by_name() {
        let error = query(&json!([1, 2]), false).unwrap_err();
        assert!(error.to_string().contains("`filter` is not an object"), "{error}");
    }
}
