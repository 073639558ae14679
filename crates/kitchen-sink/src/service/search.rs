//! A search: the orders passing every filter, one page at a time by id,
//! with the total and the next page's link; and the orders' events, a
//! page at a time.

use crate::api::{BASE_PATH, ListEventsParams, SearchOrdersOkHeaders, SearchOrdersParams, types};

/// One page of the events (an order placed, by ascending order id) of the
/// orders that match `params`; `None` for a page token this service did
/// not issue. The token is the last order id given, `e` before it.
pub(super) fn events<'a>(
    orders: impl Iterator<Item = &'a types::Order>,
    params: &ListEventsParams,
) -> Option<types::ListEventsResponseBody> {
    let after: i64 = match &params.page_token {
        None => i64::MIN,
        Some(token) => token.strip_prefix('e')?.parse().ok()?,
    };
    let size = params.page_size.get() as usize;
    let mut matching = orders
        .filter(|o| o.id > after && params.pet_id.is_none_or(|pet| i64::try_from(o.pet_id.get()) == Ok(pet)))
        .map(|o| types::ListEventsResponseBodyDataItem {
            kind: types::ListEventsResponseBodyDataItemKind::Placed,
            order_id: o.id,
            pet_id: i64::try_from(o.pet_id.get()).unwrap_or(i64::MAX),
        });
    let data: Vec<_> = matching.by_ref().take(size).collect();
    let next = match matching.next() {
        Some(_) => data.last().map(|event| format!("e{}", event.order_id)),
        None => None,
    };
    Some(types::ListEventsResponseBody { data, next })
}

/// One page of the orders (in ascending id) that match `params`.
pub(super) fn page<'a>(
    orders: impl DoubleEndedIterator<Item = &'a types::Order>,
    params: &SearchOrdersParams,
) -> (types::OrderPage, SearchOrdersOkHeaders) {
    let descending = params.sort == types::SearchOrdersSort::Desc;
    let cursor: Option<i64> = params.cursor.as_ref().and_then(|c| c.parse().ok());
    let mut found: Vec<&types::Order> = orders.filter(|o| matches(o, params)).collect();
    if descending {
        found.reverse();
    }
    let total = found.len() as i64;
    let after_cursor = |o: &&types::Order| match (cursor, descending) {
        (None, _) => true,
        (Some(c), false) => o.id > c,
        (Some(c), true) => o.id < c,
    };
    let limit = params.limit.get() as usize;
    let rest: Vec<types::Order> = found.into_iter().filter(after_cursor).cloned().collect();
    let more = rest.len() > limit;
    let items: Vec<types::Order> = rest.into_iter().take(limit).collect();
    let next = more.then(|| items.last().map(|o| o.id)).flatten();
    let headers = SearchOrdersOkHeaders {
        link: next.map(|cursor| next_page_link(params, cursor)),
        x_total_count: total,
    };
    let page = types::OrderPage {
        items,
        next_cursor: next.map(|id| id.to_string()),
    };
    (page, headers)
}

/// Whether `order` passes every filter of a search.
fn matches(order: &types::Order, params: &SearchOrdersParams) -> bool {
    let tags: Vec<&str> = order.tags.iter().flatten().map(|t| t.as_str()).collect();
    params.status.is_none_or(|s| order.status == s)
        && params.since.is_none_or(|since| order.created_at >= since)
        && params
            .deliver_by
            .is_none_or(|by| order.deliver_by.is_some_and(|d| d <= by))
        && params.tag.iter().flatten().all(|t| tags.contains(&t.as_str()))
        && params
            .ids
            .as_ref()
            .is_none_or(|ids| ids.iter().any(|id| id.get() as i64 == order.id))
        && params.min_total.is_none_or(|min| order.total.is_some_and(|t| t > min))
        && params
            .max_weight
            .is_none_or(|max| order.weight_kg.is_some_and(|w| w <= max))
        && params.gift_wrap.is_none_or(|g| order.gift_wrap == g)
}

/// The query of the next page: this search's, from `cursor` on.
fn next_page_link(params: &SearchOrdersParams, cursor: i64) -> String {
    let mut query = form_urlencoded::Serializer::new(String::new());
    let list = |items: &[String]| items.join(",");
    if let Some(status) = params.status {
        query.append_pair("status", &status.to_string());
    }
    if let Some(since) = params.since {
        query.append_pair("since", &since.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true));
    }
    if let Some(by) = params.deliver_by {
        query.append_pair("deliverBy", &by.to_string());
    }
    for tag in params.tag.iter().flatten() {
        query.append_pair("tag", tag);
    }
    if let Some(ids) = &params.ids {
        query.append_pair("ids", &list(&ids.iter().map(|id| id.to_string()).collect::<Vec<_>>()));
    }
    if let Some(min) = params.min_total {
        query.append_pair("minTotal", &min.to_string());
    }
    if let Some(max) = params.max_weight {
        query.append_pair("maxWeight", &max.to_string());
    }
    if let Some(gift_wrap) = params.gift_wrap {
        query.append_pair("giftWrap", &gift_wrap.to_string());
    }
    query.append_pair("sort", &params.sort.to_string());
    query.append_pair("limit", &params.limit.to_string());
    query.append_pair("cursor", &cursor.to_string());
    format!("<{}/orders?{}>; rel=\"next\"", BASE_PATH, query.finish())
}
