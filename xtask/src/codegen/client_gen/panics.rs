//! Which operation progenitor fails on. progenitor asserts on a few
//! constructs the checks do not know yet (several response types where it
//! takes one), and its typify refuses a few schemas; its panic is caught
//! as a refusal ([`crate::codegen::no_panic`]), and its error names no
//! location, where one operation is to blame. This finds one such
//! operation by halving the operations until one fails alone, and within
//! it the schema that, typed as any JSON value, lets it generate: that
//! schema is degraded, or else that operation refused, and the rest
//! generates.

use openapiv3::{OpenAPI, ReferenceOr};

use crate::codegen::document::{Spec, SpecError, pointer_of};

/// An operation, by its path and method (lower case).
type Key = (String, &'static str);

/// The first operation of `api` on which `panics` holds alone, with
/// where it is; `None` when none does (the failure needs two together,
/// or is not an operation's: it holds with none).
pub(super) fn culprit(api: &OpenAPI, panics: &dyn Fn(&OpenAPI) -> Option<String>) -> Option<SpecError> {
    if panics(&only(api, &[])).is_some() {
        return None;
    }
    let keys: Vec<Key> = api
        .paths
        .paths
        .iter()
        .filter_map(|(path, item)| item.as_item().map(|item| (path, item)))
        .flat_map(|(path, item)| item.iter().map(move |(method, _)| (path.clone(), method_name(method))))
        .collect();
    let mut candidates = keys.as_slice();
    let mut message = panics(&only(api, candidates))?;
    while candidates.len() > 1 {
        let (first, second) = candidates.split_at(candidates.len() / 2);
        match panics(&only(api, first)) {
            Some(found) => (candidates, message) = (first, found),
            None => match panics(&only(api, second)) {
                Some(found) => (candidates, message) = (second, found),
                None => return None,
            },
        }
    }
    let (path, method) = candidates.first()?;
    Some(SpecError::new(format!("paths.{path}.{method}"), message))
}

/// The schema of `op` (`culprit` found it fails alone) that progenitor
/// generates it with once it is any JSON value: its location, as an
/// untypable schema for the next generation to degrade ([`Spec::degraded_inline`]).
pub(super) fn untypable_schema(
    spec: &Spec,
    api: &OpenAPI,
    culprit: &SpecError,
    fails: &dyn Fn(&OpenAPI) -> Option<String>,
) -> Option<SpecError> {
    let op = spec
        .operations()
        .into_iter()
        .find(|op| op.location() == culprit.location)?;
    let alone = only(api, &[(op.path.to_string(), method_name(op.method))]);
    let json = serde_json::to_value(&alone).ok()?;
    let candidates: Vec<(String, String)> = crate::codegen::document::operation_schemas::inline_schemas(spec, &op)
        .into_iter()
        .filter(|location| !spec.degraded_inline.contains_key(location))
        .filter_map(|location| Some((pointer_of(&spec.json, &location)?, location)))
        .collect();
    let degraded = |pointers: &[&String]| {
        let mut json = json.clone();
        for pointer in pointers {
            *json.pointer_mut(pointer)? = serde_json::json!({});
        }
        let api: OpenAPI = serde_json::from_value(json).ok()?;
        fails(&api).is_none().then_some(())
    };
    // One alone, the first that does; else, when all of them do, the
    // first (the next generation finds the next).
    let found = candidates
        .iter()
        .find(|(pointer, _)| degraded(&[pointer]).is_some())
        .or_else(|| {
            let all: Vec<&String> = candidates.iter().map(|(pointer, _)| pointer).collect();
            degraded(&all).and(candidates.first())
        })?;
    Some(SpecError::untypable(&found.1, culprit.message.clone()))
}

/// The component schemas progenitor fails on with no operation at all:
/// a part of them that, typed as any JSON value, lets it generate
/// ([`crate::codegen::bisect`]), each as an untypable schema for the next
/// generation to degrade. `None` when the failure is not theirs.
pub(super) fn untypable_components(
    api: &OpenAPI,
    message: &str,
    fails: &dyn Fn(&OpenAPI) -> Option<String>,
) -> Option<Vec<SpecError>> {
    let bare = only(api, &[]);
    let names: Vec<String> = bare.components.as_ref()?.schemas.keys().cloned().collect();
    let mut fails_with = |part: &[String]| {
        let mut tried = bare.clone();
        if let Some(components) = tried.components.as_mut() {
            for (name, schema) in components.schemas.iter_mut() {
                if !part.contains(name) {
                    *schema = ReferenceOr::Item(openapiv3::Schema {
                        schema_data: Default::default(),
                        schema_kind: openapiv3::SchemaKind::Any(Default::default()),
                    });
                }
            }
        }
        fails(&tried).is_some()
    };
    let part = crate::codegen::bisect::failing_part(&names, &mut fails_with)?;
    Some(
        part.into_iter()
            .map(|name| SpecError::untypable(format!("components.schemas.{name}"), message))
            .collect(),
    )
}

/// `api` with only the operations `keys` names.
fn only(api: &OpenAPI, keys: &[Key]) -> OpenAPI {
    let mut out = api.clone();
    out.paths.paths.retain(|path, _| keys.iter().any(|(p, _)| p == path));
    for (path, item) in out.paths.paths.iter_mut() {
        let ReferenceOr::Item(item) = item else { continue };
        let keep = |method: &str| keys.iter().any(|(p, m)| p == path && *m == method);
        for (method, slot) in crate::codegen::document::operation_slots(item) {
            if !keep(method) {
                *slot = None;
            }
        }
    }
    out
}

/// openapiv3's method names, as `'static` text.
fn method_name(method: &str) -> &'static str {
    crate::codegen::document::METHODS
        .into_iter()
        .find(|m| *m == method)
        .unwrap_or("get")
}
