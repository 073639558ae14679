//! Generation operation by operation: an inline schema with no Rust type
//! is degraded to any JSON value (as a component is), a refusal takes out
//! the operations it belongs to ([`document::per_operation`]), and a
//! component no operation reaches, and the rest is generated again, until
//! it generates. Used for a document and for its receiver's (webhooks
//! and callbacks).

use std::collections::BTreeMap;

use super::document::leave_out::{self, LeftOut};
use super::document::{self, SpecErrors};

/// Runs `attempt` on `text` (an OpenAPI 3.0 document) until it succeeds:
/// the inline schemas a failure finds untypable go to `degraded` (by
/// location, with why), which `attempt` is given, to type them as any
/// JSON value; otherwise it leaves out what each failure blames: the
/// operations go to `refused` (which `attempt` is given, for the files'
/// header), unreached components to `tolerated`. Only a failure that
/// belongs to no operation fails. Each round degrades a schema not
/// degraded before, or takes out at least one operation or component, so
/// this ends.
pub(super) fn until_generated<T>(
    text: &mut String,
    tolerated: &mut Vec<document::tolerate::Tolerated>,
    refused: &mut Vec<LeftOut>,
    degraded: &mut BTreeMap<String, String>,
    mut attempt: impl FnMut(&str, &[LeftOut], &BTreeMap<String, String>) -> Result<T, SpecErrors>,
) -> Result<T, SpecErrors> {
    loop {
        let errors = match attempt(text, refused, degraded) {
            Ok(done) => return Ok(done),
            Err(errors) => errors,
        };
        let untypable: Vec<_> = errors
            .0
            .iter()
            .filter(|e| e.untypable && !degraded.contains_key(&e.location))
            .collect();
        if !untypable.is_empty() {
            for error in untypable {
                degraded.insert(error.location.clone(), error.message.clone());
            }
            continue;
        }
        let document: serde_json::Value = match serde_norway::from_str::<serde_norway::Value>(text)
            .ok()
            .and_then(|raw| serde_json::to_value(raw).ok())
        {
            Some(document) => document,
            None => return Err(errors),
        };
        let blamed = document::per_operation::blame(&document, &errors);
        let unreached = document::per_operation::unreached(&document, &errors);
        if blamed.is_none() && unreached.is_empty() {
            return Err(errors);
        }
        if !unreached.is_empty() {
            *text = document::per_operation::without_components(text, &unreached)?;
            for component in unreached {
                let why: Vec<String> = errors
                    .0
                    .iter()
                    .filter(|e| e.location == component || e.location.starts_with(&format!("{component}.")))
                    .map(|e| format!("{}: {}", e.location, e.message))
                    .collect();
                tolerated.push(document::tolerate::Tolerated {
                    location: component,
                    message: format!(
                        "(left out) no operation uses it, and the generator cannot map it ({})",
                        why.join("; ")
                    ),
                });
            }
        }
        let Some(entries) = blamed else { continue };
        let (rest, out) = leave_out::leave_out(text, "the generator's refusals", &entries)?;
        *text = rest;
        refused.extend(out);
    }
}
