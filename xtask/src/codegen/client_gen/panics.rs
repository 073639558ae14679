//! Which operation progenitor panics on. progenitor asserts on a few
//! constructs the checks do not know yet (several response types where it
//! takes one); its panic is caught as a refusal ([`crate::codegen::no_panic`]),
//! but of the whole document, where one operation is to blame. This finds
//! one such operation by halving the operations until one panics alone,
//! so that a refusal takes out that operation and the rest generates.

use openapiv3::{OpenAPI, PathItem, ReferenceOr};

use crate::codegen::spec::SpecError;

/// An operation, by its path and method (lower case).
type Key = (String, &'static str);

/// The first operation of `api` on which `panics` holds alone, with
/// where it is; `None` when none does (the panic needs two together, or
/// is not an operation's).
pub(super) fn culprit(api: &OpenAPI, panics: &dyn Fn(&OpenAPI) -> Option<String>) -> Option<SpecError> {
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

/// `api` with only the operations `keys` names.
fn only(api: &OpenAPI, keys: &[Key]) -> OpenAPI {
    let mut out = api.clone();
    out.paths.paths.retain(|path, _| keys.iter().any(|(p, _)| p == path));
    for (path, item) in out.paths.paths.iter_mut() {
        let ReferenceOr::Item(item) = item else { continue };
        let keep = |method: &str| keys.iter().any(|(p, m)| p == path && *m == method);
        let slots: [(&str, &mut Option<openapiv3::Operation>); 8] = slots(item);
        for (method, slot) in slots {
            if !keep(method) {
                *slot = None;
            }
        }
    }
    out
}

fn slots(item: &mut PathItem) -> [(&'static str, &mut Option<openapiv3::Operation>); 8] {
    [
        ("get", &mut item.get),
        ("put", &mut item.put),
        ("post", &mut item.post),
        ("delete", &mut item.delete),
        ("options", &mut item.options),
        ("head", &mut item.head),
        ("patch", &mut item.patch),
        ("trace", &mut item.trace),
    ]
}

/// openapiv3's method names, as `'static` text.
fn method_name(method: &str) -> &'static str {
    crate::codegen::spec::METHODS
        .into_iter()
        .find(|m| *m == method)
        .unwrap_or("get")
}
