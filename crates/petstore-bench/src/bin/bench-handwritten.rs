//! Hand-written: what a user would write instead of this workspace. A
//! minimal axum server with the same SQL on the same database file, the
//! same API key check, the same durability (WAL, synchronous = FULL), and
//! serde_json. Version 2's listOrders pages with the same keyset SQL as
//! ours; its cursor is the last id in the clear (unsigned, unfiltered).

use std::str::FromStr;

use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::{delete, get};
use serde::Serialize;
use sha2::{Digest, Sha256};
use sqlx::Row;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};
use subtle::ConstantTimeEq;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Order {
    id: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pet_id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    quantity: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ship_date: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    complete: Option<bool>,
}

fn error(status: StatusCode, code: &str) -> Response {
    let body = serde_json::json!({"code": code, "message": code, "status": status.as_u16()});
    (status, Json(body)).into_response()
}

async fn authorized(pool: &SqlitePool, headers: &HeaderMap) -> bool {
    let Some(token) = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    else {
        return false;
    };
    let Some((id, secret)) = token.strip_prefix("psk_").and_then(|t| t.split_once('_')) else {
        return false;
    };
    let Ok(id) = id.parse::<i64>() else { return false };
    let hash: Option<Vec<u8>> = sqlx::query_scalar("SELECT key_hash FROM api_keys WHERE id = ? AND revoked_at IS NULL")
        .bind(id)
        .fetch_optional(pool)
        .await
        .ok()
        .flatten();
    hash.is_some_and(|h| bool::from(Sha256::digest(secret.as_bytes()).as_slice().ct_eq(&h)))
}

async fn list_orders(State(pool): State<SqlitePool>, headers: HeaderMap) -> Response {
    if !authorized(&pool, &headers).await {
        return error(StatusCode::UNAUTHORIZED, "unauthorized");
    }
    let rows = sqlx::query(
        "SELECT id, pet_id, quantity, ship_date, complete, status FROM orders WHERE status <> 'cancelled' ORDER BY id",
    )
    .fetch_all(&pool)
    .await;
    match rows {
        Ok(rows) => Json(rows.iter().map(order_of).collect::<Vec<_>>()).into_response(),
        Err(_) => error(StatusCode::SERVICE_UNAVAILABLE, "service_unavailable"),
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PageOrder {
    #[serde(flatten)]
    order: Order,
    status: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OrderPage {
    items: Vec<PageOrder>,
    next_cursor: Option<String>,
}

async fn list_page(State(pool): State<SqlitePool>, headers: HeaderMap, RawQuery(query): RawQuery) -> Response {
    if !authorized(&pool, &headers).await {
        return error(StatusCode::UNAUTHORIZED, "unauthorized");
    }
    let (mut limit, mut after) = (100i64, i64::MIN);
    for (name, value) in form_urlencoded::parse(query.unwrap_or_default().as_bytes()) {
        let parsed = value.parse::<i64>();
        match (name.as_ref(), parsed) {
            ("limit", Ok(v)) if (1..=1000).contains(&v) => limit = v,
            ("cursor", Ok(v)) => after = v,
            _ => return error(StatusCode::BAD_REQUEST, "invalid_parameter"),
        }
    }
    let rows = sqlx::query(
        "SELECT id, pet_id, quantity, ship_date, complete, status FROM orders \
         WHERE status <> 'cancelled' AND id > ? ORDER BY id LIMIT ?",
    )
    .bind(after)
    .bind(limit + 1)
    .fetch_all(&pool)
    .await;
    let Ok(mut rows) = rows else {
        return error(StatusCode::SERVICE_UNAVAILABLE, "service_unavailable");
    };
    let more = rows.len() as i64 > limit;
    rows.truncate(limit as usize);
    let items: Vec<PageOrder> = rows
        .iter()
        .map(|r| PageOrder {
            order: order_of(r),
            status: r.get("status"),
        })
        .collect();
    let next_cursor = items.last().filter(|_| more).map(|o| o.order.id.to_string());
    Json(OrderPage { items, next_cursor }).into_response()
}

fn order_of(r: &sqlx::sqlite::SqliteRow) -> Order {
    Order {
        id: r.get("id"),
        pet_id: r.get("pet_id"),
        quantity: r.get("quantity"),
        ship_date: r.get("ship_date"),
        complete: r.get::<Option<i64>, _>("complete").map(|c| c != 0),
    }
}

async fn cancel_order(State(pool): State<SqlitePool>, headers: HeaderMap, Path(id): Path<i64>) -> Response {
    if !authorized(&pool, &headers).await {
        return error(StatusCode::UNAUTHORIZED, "unauthorized");
    }
    let now = "2026-01-01T00:00:00.000000Z";
    let done =
        sqlx::query("UPDATE orders SET status = 'cancelled', updated_at = ? WHERE id = ? AND status = 'pending'")
            .bind(now)
            .bind(id)
            .execute(&pool)
            .await;
    match done {
        Ok(d) if d.rows_affected() == 1 => StatusCode::NO_CONTENT.into_response(),
        Ok(_) => {
            let status: Option<String> = sqlx::query_scalar("SELECT status FROM orders WHERE id = ?")
                .bind(id)
                .fetch_optional(&pool)
                .await
                .ok()
                .flatten();
            match status.as_deref() {
                Some("shipped") => error(StatusCode::CONFLICT, "order_already_shipped"),
                _ => error(StatusCode::NOT_FOUND, "order_not_found"),
            }
        }
        Err(_) => error(StatusCode::SERVICE_UNAVAILABLE, "service_unavailable"),
    }
}

#[tokio::main]
async fn main() {
    let args = petstore_bench::args();
    let options = SqliteConnectOptions::from_str(&format!("sqlite://{}", args.database))
        .expect("a database path")
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Full)
        .foreign_keys(true);
    let pool = SqlitePoolOptions::new()
        .max_connections(8)
        .connect_with(options)
        .await
        .expect("the database");
    let app = Router::new()
        .route("/v1/store/orders", get(list_orders))
        .route("/v1/store/orders/{id}", delete(cancel_order))
        .route("/v2/store/orders", get(list_page))
        .with_state(pool);
    let listener = petstore_bench::listen(args.bind).await;
    axum::serve(listener, app).await.expect("serve");
}
