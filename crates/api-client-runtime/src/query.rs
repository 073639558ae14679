//! Object query parameters in the styles progenitor does not write:
//! `name[property]=value` per property (`deepObject`), or
//! `name=property,value,...` (`form`, `explode: false`).

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
        let properties = match value {
            serde_json::Value::Object(properties) => properties,
            serde_json::Value::Null => serde_json::Map::new(),
            _ => return Err(serde::ser::Error::custom(format!("`{}` is not an object", self.name))),
        };
        let text = |value: serde_json::Value| match value {
            serde_json::Value::String(text) => text,
            other => other.to_string(),
        };
        let present = properties.into_iter().filter(|(_, value)| !value.is_null());
        let pairs: Vec<(String, String)> = match self.deep {
            true => present
                .map(|(property, value)| (format!("{}[{property}]", self.name), text(value)))
                .collect(),
            false => {
                let joined: Vec<String> = present.flat_map(|(property, value)| [property, text(value)]).collect();
                match joined.is_empty() {
                    true => Vec::new(),
                    false => vec![(self.name.to_string(), joined.join(","))],
                }
            }
        };
        pairs.serialize(serializer)
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
    fn a_value_that_is_not_an_object_is_refused_by_name() {
        let error = query(&json!([1, 2]), true).unwrap_err();
        assert!(error.to_string().contains("`filter` is not an object"), "{error}");
    }
}
