//! The contract's handlers: what each operation means, over [`Storage`].

use petstore_api::runtime::{AuthError, Authenticator, BearerToken, Problem};
use petstore_api::{CancelOrderResponse, GetPetByIdResponse, ListOrdersResponse, PetStoreHandlers, types};
use slog::Logger;

use crate::keys;
use crate::storage::{CancelOutcome, OrderRecord, Storage, StorageError};

/// The service: storage plus a logger. Cheap to share across requests.
pub struct Service<S> {
    storage: S,
    log: Logger,
}

impl<S: Storage> Service<S> {
    pub fn new(storage: S, log: Logger) -> Self {
        Service { storage, log }
    }

    pub fn storage(&self) -> &S {
        &self.storage
    }

    /// The problem to send for a storage failure, logged here because the
    /// client gets only a generic message.
    fn storage_problem(&self, operation: &str, error: StorageError) -> ServerProblem {
        slog::error!(self.log, "storage failure"; "operation" => operation, "error" => %error);
        match error {
            StorageError::Unavailable(_) => ServerProblem::Unavailable(Problem::new(
                "service_unavailable",
                "storage is unavailable; retry later",
            )),
            StorageError::Invalid(_) | StorageError::Internal(_) => {
                ServerProblem::Internal(Problem::new("internal_error", "internal error"))
            }
        }
    }
}

/// A 5xx problem, before it is put in an operation's response enum.
enum ServerProblem {
    Unavailable(Problem),
    Internal(Problem),
}

/// The authenticated caller: the id of the key it used (never the key).
#[derive(Debug, Clone, Copy)]
pub struct Caller {
    pub key_id: i64,
}

impl<S: Storage> Authenticator for Service<S> {
    type Principal = Caller;

    async fn authenticate(&self, token: BearerToken) -> Result<Caller, AuthError> {
        let Some((id, secret)) = keys::parse_key(token.secret()) else {
            return Err(AuthError::InvalidKey);
        };
        match self.storage.active_api_key(id).await {
            Ok(Some(record)) if keys::verify(secret, &record.key_hash) => Ok(Caller { key_id: record.id }),
            Ok(_) => Err(AuthError::InvalidKey),
            Err(error) => Err(match self.storage_problem("authenticate", error) {
                ServerProblem::Unavailable(p) => AuthError::Unavailable(p),
                ServerProblem::Internal(p) => AuthError::Internal(p),
            }),
        }
    }
}

// An optional field added to Order in the spec must not break the build
// (it is compatible), hence the `Default` base even while every field is set.
#[allow(clippy::needless_update)]
fn to_order(record: OrderRecord) -> types::Order {
    types::Order {
        id: Some(record.id),
        pet_id: record.pet_id,
        quantity: record.quantity,
        ship_date: record.ship_date,
        complete: record.complete,
        ..Default::default()
    }
}

impl<S: Storage> PetStoreHandlers for Service<S> {
    async fn list_orders(&self, _caller: &Caller) -> ListOrdersResponse {
        match self.storage.list_orders().await {
            Ok(orders) => ListOrdersResponse::Ok(orders.into_iter().map(to_order).collect()),
            Err(error) => match self.storage_problem("listOrders", error) {
                ServerProblem::Unavailable(p) => ListOrdersResponse::ServiceUnavailable(p),
                ServerProblem::Internal(p) => ListOrdersResponse::InternalServerError(p),
            },
        }
    }

    async fn cancel_order(&self, caller: &Caller, order_id: i64) -> CancelOrderResponse {
        match self.storage.cancel_order(order_id).await {
            Ok(CancelOutcome::Cancelled) => {
                slog::info!(self.log, "order cancelled"; "order_id" => order_id, "key_id" => caller.key_id);
                CancelOrderResponse::NoContent
            }
            Ok(CancelOutcome::NotFound) => {
                CancelOrderResponse::NotFound(Problem::new("order_not_found", format!("order {order_id} not found")))
            }
            Ok(CancelOutcome::Shipped) => CancelOrderResponse::Conflict(Problem::new(
                "order_already_shipped",
                format!("order {order_id} has already shipped and cannot be cancelled"),
            )),
            Err(error) => match self.storage_problem("cancelOrder", error) {
                ServerProblem::Unavailable(p) => CancelOrderResponse::ServiceUnavailable(p),
                ServerProblem::Internal(p) => CancelOrderResponse::InternalServerError(p),
            },
        }
    }

    async fn get_pet_by_id(&self, _caller: &Caller, pet_id: i64) -> GetPetByIdResponse {
        match self.storage.get_pet(pet_id).await {
            Ok(Some(pet)) => GetPetByIdResponse::Ok(types::Pet {
                id: pet.id,
                name: pet.name,
            }),
            Ok(None) => GetPetByIdResponse::NotFound(Problem::new("pet_not_found", format!("pet {pet_id} not found"))),
            Err(error) => match self.storage_problem("getPetById", error) {
                ServerProblem::Unavailable(p) => GetPetByIdResponse::ServiceUnavailable(p),
                ServerProblem::Internal(p) => GetPetByIdResponse::InternalServerError(p),
            },
        }
    }
}
