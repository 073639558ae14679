//! OpenAPI 3.1 documents, read into the 3.0 model the rest of the
//! generator (openapiv3, progenitor, typify, dropshot) reads.
//!
//! A 3.1 document is rewritten, before anything else reads it, into its
//! OpenAPI 3.0 rendering: the same operations and the same schemas, each
//! 3.1 construct said as 3.0 says it where 3.0 can ([`schemas`]: `null`
//! among the types is `nullable`, `const` a one-value enum, ...). What 3.0
//! cannot say (`prefixItems`, `if`/`then`/`else`, `patternProperties`,
//! ...) is kept under [`super::keywords::JSON_SCHEMA_KEY`], an extension the Rust types do
//! not read (they are looser: degrade the type) and the validation form
//! puts back (keep the contract: requests are validated as written).
//!
//! At the document's top: `openapi` becomes 3.0.3; a `jsonSchemaDialect`
//! other than JSON Schema 2020-12 (or OpenAPI 3.1's own) is refused (its schemas would mean
//! something else); `info.summary` and `license.identifier` go (3.0 has no
//! place for them); a missing `paths` is empty; path items that refer to
//! `components.pathItems` are the item referred to (in `webhooks` too);
//! `webhooks`, which 3.0 has no place for, stay where they are, rendered
//! as paths are (openapiv3 passes over them; [`super::webhooks`] reads
//! them); `$defs` inside component
//! schemas become component schemas of their own ([`defs`]).
//!
//! A document that is not 3.1 is not touched.

pub(super) mod defs;
mod kept;
mod respelled;
mod schemas;

use serde_norway::{Mapping, Value};

use super::errors::SpecError;
use super::tolerate::Tolerated;

/// The dialects read here: JSON Schema 2020-12, and OpenAPI 3.1's own
/// (2020-12 with OpenAPI's keywords), the default.
const DIALECT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";
const DIALECT_OAS_31: &str = "https://spec.openapis.org/oas/3.1/dialect/base";

/// A 3.1 document's 3.0 rendering.
pub struct Rendered {
    /// The rendering, as YAML.
    pub text: String,
    /// What the rendering could not say as the document does: each a
    /// warning with its location.
    pub notes: Vec<Tolerated>,
}

/// Whether `doc` declares OpenAPI 3.1.
pub fn is_31(doc: &Value) -> bool {
    doc.get("openapi")
        .and_then(Value::as_str)
        .is_some_and(|v| v == "3.1" || v.starts_with("3.1."))
}

/// The 3.0 rendering of `text` when it is a 3.1 document; `None` when it
/// is not (or is not YAML, which the parser then reports).
pub fn render(text: &str) -> Result<Option<Rendered>, SpecError> {
    let Ok(mut doc) = serde_norway::from_str::<Value>(text) else {
        return Ok(None);
    };
    if !is_31(&doc) {
        return Ok(None);
    }
    let mut notes = Vec::new();
    to_30(&mut doc, &mut |location, message| {
        notes.push(Tolerated {
            location,
            message: message.to_string(),
        })
    })?;
    let text = serde_norway::to_string(&doc)
        .map_err(|e| SpecError::new("document", format!("cannot write the 3.0 rendering: {e}")))?;
    Ok(Some(Rendered { text, notes }))
}

/// Rewrites a 3.1 document in place into its 3.0 rendering; `note` hears
/// each construct the rendering reads otherwise than written.
pub fn to_30(doc: &mut Value, note: &mut dyn FnMut(String, &str)) -> Result<(), SpecError> {
    let Value::Mapping(top) = doc else {
        return Err(SpecError::new("document", "an OpenAPI document must be a mapping"));
    };
    if let Some(dialect) = top.shift_remove("jsonSchemaDialect") {
        let dialect = dialect.as_str().unwrap_or_default();
        if ![DIALECT_2020_12, DIALECT_OAS_31].contains(&dialect.trim_end_matches('#')) {
            return Err(SpecError::new(
                "jsonSchemaDialect",
                format!(
                    "`{dialect}` is not read: schemas are read as JSON Schema 2020-12 ({DIALECT_2020_12}), \
                     which a document in another dialect does not mean"
                ),
            ));
        }
    }
    top.insert("openapi".into(), "3.0.3".into());
    if let Some(Value::Mapping(info)) = top.get_mut("info") {
        if let Some(summary) = info.shift_remove("summary")
            && !info.contains_key("description")
        {
            info.insert("description".into(), summary);
        }
        if let Some(Value::Mapping(license)) = info.get_mut("license") {
            license.shift_remove("identifier");
        }
    }
    if !top.contains_key("paths") {
        top.insert("paths".into(), Value::Mapping(Mapping::new()));
    }
    path_item_references(top, note);
    responses_optional(top);
    defs::hoist(top);
    schemas::everywhere(doc, note);
    Ok(())
}

/// 3.1 makes an operation's `responses` optional; 3.0 (and openapiv3)
/// requires them. An operation without is rendered with none documented,
/// which the generator reads as answering anything.
fn responses_optional(top: &mut Mapping) {
    for section in ["paths", "webhooks"] {
        let Some(Value::Mapping(items)) = top.get_mut(section) else {
            continue;
        };
        for (_, item) in items.iter_mut() {
            for method in super::model::METHODS {
                if let Some(Value::Mapping(op)) = item.get_mut(method)
                    && !op.contains_key("responses")
                {
                    op.insert("responses".into(), Value::Mapping(Mapping::new()));
                }
            }
        }
    }
}

/// A path item (of `paths` or `webhooks`) that refers to
/// `components.pathItems` is that item; the section goes (3.0 has none).
fn path_item_references(top: &mut Mapping, note: &mut dyn FnMut(String, &str)) {
    let items = top
        .get_mut("components")
        .and_then(Value::as_mapping_mut)
        .and_then(|c| c.shift_remove("pathItems"))
        .and_then(|items| items.as_mapping().cloned())
        .unwrap_or_default();
    for section in ["paths", "webhooks"] {
        let Some(Value::Mapping(paths)) = top.get_mut(section) else {
            continue;
        };
        for (path, item) in paths.iter_mut() {
            let Some(target) = item.get("$ref").and_then(Value::as_str).map(str::to_string) else {
                continue;
            };
            let found = target
                .strip_prefix("#/components/pathItems/")
                .and_then(|name| items.get(name));
            match found {
                Some(found) => *item = found.clone(),
                None => note(
                    format!("{section}.{}.$ref", path.as_str().unwrap_or_default()),
                    "a path item that refers elsewhere than `#/components/pathItems/<name>` is not read",
                ),
            }
        }
    }
}

#[cfg(test)]
mod tests;
