//! A location as the generator writes it (`paths./v1.0/pets.get.parameters.0.schema`,
//! dotted, for people) read back into the JSON pointer it names in the
//! document (`/paths/~1v1.0~1pets/get/parameters/0/schema`). Keys may hold
//! dots themselves, so each step takes the longest key of the document
//! that the rest of the location starts with.

use serde_json::Value;

/// The JSON pointer `location` names in `document`, if it names a value.
pub fn pointer_of(document: &Value, location: &str) -> Option<String> {
    let mut pointer = String::new();
    let mut value = document;
    let mut rest = location;
    while !rest.is_empty() {
        let key = match value {
            Value::Object(map) => map
                .keys()
                .filter(|key| rest == key.as_str() || rest.starts_with(&format!("{key}.")))
                .max_by_key(|key| key.len())?
                .clone(),
            Value::Array(_) => rest.split('.').next().unwrap_or_default().to_string(),
            _ => return None,
        };
        value = match value {
            Value::Object(map) => &map[&key],
            Value::Array(items) => items.get(key.parse::<usize>().ok()?)?,
            _ => return None,
        };
        pointer.push('/');
        pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
        rest = rest.get(key.len()..).unwrap_or_default().trim_start_matches('.');
    }
    Some(pointer)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn keys_with_dots_and_slashes_are_read_whole() {
        let document = json!({"paths": {
            "/v1.0/pets": {"get": {"parameters": [{"schema": {}}, {"schema": {"type": "string"}}]}},
            "/v1": {"get": {}},
        }});
        assert_eq!(
            pointer_of(&document, "paths./v1.0/pets.get.parameters.1.schema").as_deref(),
            Some("/paths/~1v1.0~1pets/get/parameters/1/schema")
        );
        assert_eq!(
            pointer_of(&document, "paths./v1.get").as_deref(),
            Some("/paths/~1v1/get")
        );
        assert_eq!(pointer_of(&document, "paths./v2.get"), None);
    }

    #[test]
    fn media_types_are_keys_with_slashes() {
        let document =
            json!({"components": {"requestBodies": {"Pet.v2": {"content": {"application/json": {"schema": {}}}}}}});
        assert_eq!(
            pointer_of(
                &document,
                "components.requestBodies.Pet.v2.content.application/json.schema"
            )
            .as_deref(),
            Some("/components/requestBodies/Pet.v2/content/application~1json/schema")
        );
    }
}
