//! Version 2's handlers (`petstore_api::v2::PetStoreHandlers`), over the
//! same [`Service`] as version 1's: one storage, one key check, so that a
//! cancel through either version is seen at once through the other.
//!
//! listOrders reads a page from storage by keyset pagination on the id
//! ([`Storage::order_page`]): one indexed read of at most `limit + 1` rows,
//! whatever the size of the store, with the cursor signed for its filters
//! ([`crate::page_cursor`]). The page is kept, serialized, for the requests
//! that ask for it again before the orders change ([`crate::page_cache`]).

use petstore_api::runtime::{Json, Problem};
use petstore_api::v2::{self, CancelOrderResponse, ListOrdersOkHeaders, ListOrdersParams, ListOrdersResponse, types};

use crate::page_cache::{CachedPage, PageKey};
use crate::service::{Caller, ServerProblem, Service, cancel_order_response};
use crate::storage::{OrderFilters, OrderRecord, OrderStatus, PageQuery, Storage};

impl<S: Storage> v2::PetStoreHandlers for Service<S> {
    async fn list_orders(&self, caller: &Caller, params: ListOrdersParams) -> ListOrdersResponse {
        let filters = filters_of(&params);
        let server_problem = |error| match self.storage_problem("listOrders", error) {
            ServerProblem::Unavailable(p) => ListOrdersResponse::ServiceUnavailable(p),
            ServerProblem::Internal(p) => ListOrdersResponse::InternalServerError(p),
        };
        let signer = match self.cursor_signer().await {
            Ok(signer) => signer,
            Err(error) => return server_problem(error),
        };
        let after = match params.cursor.as_deref().map(|cursor| signer.open(cursor, &filters)) {
            None => None,
            Some(Ok(last_id)) => Some(last_id),
            Some(Err(_)) => {
                return ListOrdersResponse::BadRequest(Problem::new(
                    "invalid_parameter",
                    "parameter `cursor`: not a cursor this service issued for these filters",
                ));
            }
        };
        let key = PageKey {
            filters,
            after,
            limit: params.limit.get(),
        };
        // The version read for this request, before the rows: see
        // `crate::page_cache`.
        let version = caller.orders_version;
        if let Some(page) = self.pages().get(&key, version) {
            return ListOrdersResponse::Ok(page.body, ListOrdersOkHeaders { link: page.link });
        }
        let limit = key.limit;
        // One more than the page, to know whether another follows.
        let query = PageQuery {
            filters: &key.filters,
            after,
            limit: limit.saturating_add(1),
        };
        // Boxed: a page from the cache should not carry the read's future
        // (see `OrderListCache::get`).
        let mut records = match Box::pin(self.storage().order_page(query)).await {
            Ok(records) => records,
            Err(error) => return server_problem(error),
        };
        let more = records.len() > limit as usize;
        records.truncate(limit as usize);
        let next_cursor = match (more, records.last()) {
            (true, Some(last)) => Some(signer.issue(last.id, &key.filters)),
            _ => None,
        };
        let link = next_cursor.as_deref().map(|cursor| next_link(&params, cursor));
        let page = types::OrderPage {
            items: records.into_iter().filter_map(to_order).collect(),
            next_cursor,
        };
        let body = match Json::serialized(&page) {
            Ok(body) => body,
            Err(error) => {
                return server_problem(crate::storage::StorageError::Internal(format!(
                    "serializing a page: {error}"
                )));
            }
        };
        self.pages().put(
            key,
            version,
            CachedPage {
                body: body.clone(),
                link: link.clone(),
            },
        );
        ListOrdersResponse::Ok(body, ListOrdersOkHeaders { link })
    }

    async fn cancel_order(&self, caller: &Caller, order_id: i64) -> CancelOrderResponse {
        cancel_order_response!(self.cancel(caller, order_id).await, CancelOrderResponse)
    }
}

fn filters_of(params: &ListOrdersParams) -> OrderFilters {
    OrderFilters {
        status: params.status.map(|status| match status {
            types::OrderStatus::Pending => OrderStatus::Pending,
            types::OrderStatus::Shipped => OrderStatus::Shipped,
        }),
        pet_id: params.pet_id,
        ship_date_from: params.ship_date_from,
        ship_date_to: params.ship_date_to,
        complete: params.complete,
    }
}

/// A listed order. A page never holds a cancelled one (its query excludes
/// them), and version 2's Order has no way to say so.
fn to_order(record: OrderRecord) -> Option<types::Order> {
    let status = match record.status {
        OrderStatus::Pending => types::OrderStatus::Pending,
        OrderStatus::Shipped => types::OrderStatus::Shipped,
        OrderStatus::Cancelled => return None,
    };
    Some(types::Order {
        id: record.id,
        pet_id: record.pet_id,
        quantity: record.quantity,
        ship_date: record.ship_date,
        status,
        complete: record.complete,
    })
}

/// The `Link` header to the next page (RFC 8288): this request's
/// parameters with the next cursor, as a reference relative to the
/// request's own URL.
fn next_link(params: &ListOrdersParams, cursor: &str) -> String {
    let mut query = form_urlencoded::Serializer::new(String::new());
    query.append_pair("limit", &params.limit.to_string());
    if let Some(status) = params.status {
        query.append_pair("status", &status.to_string());
    }
    if let Some(pet_id) = params.pet_id {
        query.append_pair("petId", &pet_id.to_string());
    }
    let instant = |date: chrono::DateTime<chrono::Utc>| date.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true);
    if let Some(from) = params.ship_date_from {
        query.append_pair("shipDateFrom", &instant(from));
    }
    if let Some(to) = params.ship_date_to {
        query.append_pair("shipDateTo", &instant(to));
    }
    if let Some(complete) = params.complete {
        query.append_pair("complete", &complete.to_string());
    }
    query.append_pair("cursor", cursor);
    format!("<{}/store/orders?{}>; rel=\"next\"", v2::BASE_PATH, query.finish())
}
