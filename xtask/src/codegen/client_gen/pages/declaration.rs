//! An operation's `x-pagination`, read and checked against the spec.

use serde_json::Value;

use super::cursor_pages::{CursorPages, EXTENSION};
use crate::codegen::document::{OperationRef, Spec, SpecError, required_names};

/// The operation's declaration, checked: the cursor is an optional query
/// parameter, and the first success response's JSON body is an object
/// with the items (an array) and the next cursor (nullable or optional,
/// so that the last page can say there is none).
pub(super) fn declared(spec: &Spec, op: &OperationRef<'_>) -> Result<Option<CursorPages>, SpecError> {
    let Some(declaration) = op.json.get(EXTENSION) else {
        return Ok(None);
    };
    let location = format!("{}.{EXTENSION}", op.location());
    let name = |key: &str| {
        declaration
            .get(key)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| SpecError::new(&location, format!("`{key}` must name {}", what_names(key))))
    };
    let pages = CursorPages {
        operation_id: op.operation_id().to_string(),
        location: location.clone(),
        cursor: name("cursor")?,
        next_cursor: name("nextCursor")?,
        items: name("items")?,
    };
    let cursor = spec
        .parameters(op)?
        .into_iter()
        .find(|(p, _)| p["in"] == "query" && p["name"] == pages.cursor.as_str());
    match cursor {
        None => {
            return Err(SpecError::new(
                &location,
                format!("`cursor`: the operation has no query parameter `{}`", pages.cursor),
            ));
        }
        Some((p, _)) if p["required"] == true => {
            return Err(SpecError::new(
                &location,
                format!(
                    "`cursor`: the query parameter `{}` is required, so the first page could not be asked for",
                    pages.cursor
                ),
            ));
        }
        Some(_) => {}
    }
    let page = spec
        .responses(op)?
        .into_iter()
        .find(|(status, _, _)| status.starts_with('2'))
        .and_then(|(_, response, _)| crate::codegen::document::json_content_schema(&response).cloned())
        .map(|schema| spec.resolve_schema(&schema).clone())
        .filter(|schema| schema.get("properties").is_some())
        .ok_or_else(|| {
            SpecError::new(
                &location,
                "the operation's first success response has no JSON object body to page through",
            )
        })?;
    let property = |name: &str| page.pointer(&format!("/properties/{}", name.replace('~', "~0").replace('/', "~1")));
    let items = property(&pages.items).map(|items| spec.resolve_schema(items));
    if items.and_then(|items| items.get("type")).and_then(Value::as_str) != Some("array") {
        return Err(SpecError::new(
            &location,
            format!("`items`: the page has no array property `{}`", pages.items),
        ));
    }
    let Some(next) = property(&pages.next_cursor) else {
        return Err(SpecError::new(
            &location,
            format!("`nextCursor`: the page has no property `{}`", pages.next_cursor),
        ));
    };
    let nullable = spec.resolve_schema(next).get("nullable") == Some(&Value::Bool(true));
    if required_names(&page).contains(&pages.next_cursor.as_str()) && !nullable {
        return Err(SpecError::new(
            &location,
            format!(
                "`nextCursor`: `{}` is required and not nullable, so no page could be the last",
                pages.next_cursor
            ),
        ));
    }
    Ok(Some(pages))
}

fn what_names(key: &str) -> &'static str {
    match key {
        "cursor" => "the query parameter that takes the next page's cursor",
        "nextCursor" => "the page's property that holds the next cursor",
        _ => "the page's array of items",
    }
}
