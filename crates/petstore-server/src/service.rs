//! The contract's handlers: what each operation means, over [`Storage`].

use petstore_api::runtime::serving::{Served, Serving};
use petstore_api::runtime::{AuthError, Authenticator, Credential, JsonArrayWriter, Problem};
use petstore_api::{CancelOrderResponse, GetPetByIdResponse, ListOrdersResponse, PetStoreHandlers, types};
use slog::Logger;

use crate::key_cache::{KeyCache, KnownKeys};
use crate::keys;
use crate::order_list::{ListError, OrderList, OrderListCache};
use crate::page_cache::PageCache;
use crate::page_cursor::{self, CursorSigner};
use crate::storage::{CancelOutcome, OrderRecord, OrdersVersion, Storage, StorageError, Versions};
use crate::verified_keys::{SecretTags, Verified};
use crate::versions::SharedVersionReads;

/// The service: storage, what it caches and a logger. Shared by every
/// request.
pub struct Service<S> {
    storage: S,
    /// The change counters, read once for all requests waiting for them.
    versions: SharedVersionReads,
    keys: KeyCache,
    /// Tags the secrets that matched (`verified_keys.rs`). `None` where
    /// the OS gives no randomness: every request hashes.
    secret_tags: Option<SecretTags>,
    order_list: OrderListCache,
    /// Signs version 2's page cursors, with the key the database holds.
    cursors: tokio::sync::OnceCell<CursorSigner>,
    /// Version 2's pages, per orders version.
    pages: PageCache,
    /// The requests in flight, the drain, and readiness: the database
    /// answers (`Storage::ready`).
    serving: Serving,
    log: Logger,
}

impl<S: Storage> Service<S> {
    pub fn new(storage: S, log: Logger) -> Self {
        let ready_storage = storage.clone();
        Service {
            storage,
            versions: SharedVersionReads::default(),
            keys: KeyCache::default(),
            secret_tags: SecretTags::new().ok(),
            order_list: OrderListCache::default(),
            cursors: tokio::sync::OnceCell::new(),
            pages: PageCache::default(),
            serving: Serving::default().ready_when(Box::new(move || {
                let storage = ready_storage.clone();
                Box::pin(async move { storage.ready().await.map_err(|e| format!("the database: {e}")) })
            })),
            log,
        }
    }

    pub fn storage(&self) -> &S {
        &self.storage
    }

    /// Version 2's pages, kept per orders version.
    pub fn pages(&self) -> &PageCache {
        &self.pages
    }

    /// The orders' version, then the list serialized row by row (never
    /// held as values). The version is read first: a change committed in
    /// between leaves a newer list under an older version, which the next
    /// request reads again, never an older list under a newer version.
    async fn read_order_list(&self, size_hint: usize) -> Result<(OrdersVersion, OrderList), StorageError> {
        let version = self.storage.versions().await?.orders;
        let mut writer = JsonArrayWriter::with_capacity(size_hint + size_hint / 16);
        self.storage
            .for_each_order(|record| {
                writer
                    .push(&to_order(record))
                    .map_err(|e| StorageError::Internal(format!("serializing an order: {e}")))
            })
            .await?;
        Ok((version, writer.finish()))
    }

    /// The signer of page cursors, its key read (or made) at first use.
    pub(crate) async fn cursor_signer(&self) -> Result<&CursorSigner, StorageError> {
        if let Some(signer) = self.cursors.get() {
            return Ok(signer);
        }
        // Boxed: read once, and every later request's future would carry it.
        Box::pin(self.cursors.get_or_try_init(|| async {
            let mut fresh = [0u8; 32];
            getrandom::fill(&mut fresh)
                .map_err(|e| StorageError::Internal(format!("no randomness for the cursor key: {e}")))?;
            let key = self.storage.shared_secret(page_cursor::SECRET_NAME, &fresh).await?;
            Ok(CursorSigner::new(&key))
        }))
        .await
    }

    /// Cancels an order, for either version: what happened, as a problem
    /// for every outcome but success.
    pub(crate) async fn cancel(&self, caller: &Caller, order_id: i64) -> Result<(), CancelProblem> {
        match self.storage.cancel_order(order_id).await {
            Ok(CancelOutcome::Cancelled) => {
                slog::info!(self.log, "order cancelled"; "order_id" => order_id, "key_id" => caller.key_id);
                Ok(())
            }
            Ok(CancelOutcome::NotFound) => Err(CancelProblem::NotFound(Problem::new(
                "order_not_found",
                format!("order {order_id} not found"),
            ))),
            Ok(CancelOutcome::Shipped) => Err(CancelProblem::Conflict(Problem::new(
                "order_already_shipped",
                format!("order {order_id} has already shipped and cannot be cancelled"),
            ))),
            Err(error) => Err(CancelProblem::Server(self.storage_problem("cancelOrder", error))),
        }
    }

    /// The problem to send for a storage failure, logged here because the
    /// client gets only a generic message.
    pub(crate) fn storage_problem(&self, operation: &str, error: StorageError) -> ServerProblem {
        slog::error!(self.log, "storage failure"; "operation" => operation, "error" => %error);
        match error {
            StorageError::Unavailable(_) => ServerProblem::Unavailable(Problem::new(
                "service_unavailable",
                "storage is unavailable; retry later",
            )),
            StorageError::Invalid(_) | StorageError::Internal(_) | StorageError::Missing(_) => {
                ServerProblem::Internal(Problem::new("internal_error", "internal error"))
            }
        }
    }
}

/// A cancel's outcome as a version's `CancelOrderResponse`: each version
/// has a type of its own, with the same variants.
macro_rules! cancel_order_response {
    ($outcome:expr, $response:ident) => {
        match $outcome {
            Ok(()) => $response::NoContent,
            Err($crate::service::CancelProblem::NotFound(p)) => $response::NotFound(p),
            Err($crate::service::CancelProblem::Conflict(p)) => $response::Conflict(p),
            Err($crate::service::CancelProblem::Server($crate::service::ServerProblem::Unavailable(p))) => {
                $response::ServiceUnavailable(p)
            }
            Err($crate::service::CancelProblem::Server($crate::service::ServerProblem::Internal(p))) => {
                $response::InternalServerError(p)
            }
        }
    };
}
pub(crate) use cancel_order_response;

/// Why a cancel did not happen, before it is put in a version's response
/// enum.
pub(crate) enum CancelProblem {
    NotFound(Problem),
    Conflict(Problem),
    Server(ServerProblem),
}

/// A 5xx problem, before it is put in an operation's response enum.
pub(crate) enum ServerProblem {
    Unavailable(Problem),
    Internal(Problem),
}

/// Compared against when a key's id is not active: SHA-256 gives all
/// zeros for no known input.
const NO_KEY_HASH: [u8; 32] = [0; 32];

/// Where an unknown or revoked id's tag is looked for: never filled.
static NEVER_VERIFIED: Verified = Verified::new();

/// The authenticated caller: the id of the key it used (never the key),
/// and the orders' version read for the request after it arrived.
#[derive(Debug)]
pub struct Caller {
    pub key_id: i64,
    pub orders_version: OrdersVersion,
}

impl<S: Storage> Authenticator for Service<S> {
    type Principal = Caller;

    /// The check of nearly every request: the versions read from SQLite's
    /// shared memory and the active keys kept, so nothing to wait for.
    fn authenticate_now(&self, credential: &Credential<'_>) -> Option<Result<Caller, AuthError>> {
        // A token that is not a key is refused before anything is read,
        // as `authenticate` does (storage down or not).
        let Some((id, secret)) = key_of(credential) else {
            return Some(Err(AuthError::InvalidKey));
        };
        let versions = match self.storage.versions_now()? {
            Ok(versions) => versions,
            // Said by the full check, with its problem.
            Err(_) => return None,
        };
        self.keys
            .with_kept(versions.keys, |active| self.check(id, secret, versions, active))
    }

    async fn authenticate(&self, credential: Credential<'_>) -> Result<Caller, AuthError> {
        let Some((id, secret)) = key_of(&credential) else {
            return Err(AuthError::InvalidKey);
        };
        let unavailable = |error| match self.storage_problem("authenticate", error) {
            ServerProblem::Unavailable(p) => AuthError::Unavailable(p),
            ServerProblem::Internal(p) => AuthError::Internal(p),
        };
        let versions = match self.storage.versions_now() {
            Some(versions) => versions,
            // Boxed: the read's future is large and this path is
            // PostgreSQL's (SQLite's versions are read above, without one).
            None => Box::pin(self.versions.current(|| self.storage.versions())).await,
        }
        .map_err(unavailable)?;
        let active = self
            .keys
            .active(versions.keys, || self.storage.active_api_keys())
            .await
            .map_err(unavailable)?;
        self.check(id, secret, versions, &active)
    }
}

/// The key's id and secret: both versions' specs take the key as a bearer
/// token only.
fn key_of<'a>(credential: &'a Credential<'_>) -> Option<(i64, &'a str)> {
    credential.token().and_then(keys::parse_key)
}

impl<S: Storage> Service<S> {
    /// The key check itself, against the active keys as of `versions`.
    fn check(&self, id: i64, secret: &str, versions: Versions, active: &KnownKeys) -> Result<Caller, AuthError> {
        // An unknown or revoked id is compared against a hash no secret has,
        // so that it takes the same work as a wrong secret for a known id.
        let key = active.get(id);
        let hash = key.map_or(&NO_KEY_HASH[..], |key| key.hash.as_slice());
        // Made and compared for an unknown id too (against a tag never
        // remembered), so that it costs what a wrong secret costs.
        let tag = self.secret_tags.as_ref().map(|tags| tags.tag(secret));
        let verified = key.map_or(&NEVER_VERIFIED, |key| &key.verified);
        let remembered = tag.as_ref().is_some_and(|tag| verified.remembers(tag));
        let matches = remembered || keys::verify(secret, hash);
        let known = key.is_some();
        if let Some((key, tag)) = key.zip(tag).filter(|_| matches && !remembered) {
            key.verified.remember(tag);
        }
        match known && matches {
            true => Ok(Caller {
                key_id: id,
                orders_version: versions.orders,
            }),
            false => Err(AuthError::InvalidKey),
        }
    }
}

impl<S: Storage> Served for Service<S> {
    fn serving(&self) -> Option<&Serving> {
        Some(&self.serving)
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
    async fn list_orders(&self, caller: &Caller) -> ListOrdersResponse {
        let list = self
            .order_list
            .get(
                caller.orders_version,
                |since, seen| self.storage.cancelled_since(since, seen),
                |size_hint| self.read_order_list(size_hint),
            )
            .await;
        match list {
            Ok(body) => ListOrdersResponse::Ok(body),
            Err(ListError::Busy) => ListOrdersResponse::ServiceUnavailable(Problem::new(
                "service_unavailable",
                "too many requests are waiting for the order list; retry later",
            )),
            Err(ListError::Storage(error)) => match self.storage_problem("listOrders", error) {
                ServerProblem::Unavailable(p) => ListOrdersResponse::ServiceUnavailable(p),
                ServerProblem::Internal(p) => ListOrdersResponse::InternalServerError(p),
            },
        }
    }

    async fn cancel_order(&self, caller: &Caller, order_id: i64) -> CancelOrderResponse {
        cancel_order_response!(self.cancel(caller, order_id).await, CancelOrderResponse)
    }

    async fn get_pet_by_id(&self, _caller: &Caller, pet_id: i64) -> GetPetByIdResponse {
        match self.storage.get_pet(pet_id).await {
            Ok(Some(pet)) => GetPetByIdResponse::Ok(
                types::Pet {
                    id: pet.id,
                    name: pet.name,
                }
                .into(),
            ),
            Ok(None) => GetPetByIdResponse::NotFound(Problem::new("pet_not_found", format!("pet {pet_id} not found"))),
            Err(error) => match self.storage_problem("getPetById", error) {
                ServerProblem::Unavailable(p) => GetPetByIdResponse::ServiceUnavailable(p),
                ServerProblem::Internal(p) => GetPetByIdResponse::InternalServerError(p),
            },
        }
    }
}
