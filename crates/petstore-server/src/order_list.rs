//! listOrders' body, serialized once per change of the orders.
//!
//! Listing is the hot read and the list changes rarely, so the service
//! keeps the serialized body with the orders' version read before its rows.
//! A request may use it when the version read for it (after it arrived,
//! so after every change whose response was already sent; see
//! [`crate::versions`]) is not newer: a cancel's 204 goes out after its
//! commit has bumped the version,
//! so no list requested after that 204 can come from an older body,
//! whoever made the change (this process, another instance, the CLI).
//!
//! One rebuild runs at a time: requests that find the body stale while a
//! rebuild runs wait for it rather than read the rows again, so a burst of
//! lists after a change costs one read, and memory holds one body (shared
//! by every response being sent) plus the one being built.

use std::future::Future;
use std::sync::Mutex;
use std::time::Duration;

use petstore_api::runtime::Json;
use petstore_api::types;

use crate::storage::{OrdersVersion, StorageError};

/// The body of a listOrders response.
pub type OrderListBody = Json<Vec<types::Order>>;

/// How long a request waits for another's rebuild before giving up (503),
/// the same bound as the wait for a database connection.
const REBUILD_WAIT: Duration = Duration::from_secs(5);

#[derive(Default)]
pub struct OrderListCache {
    current: Mutex<Option<Cached>>,
    rebuild: tokio::sync::Mutex<()>,
}

struct Cached {
    version: OrdersVersion,
    body: OrderListBody,
}

#[derive(Debug)]
pub enum ListError {
    Storage(StorageError),
    /// Waited too long for another request's rebuild.
    Busy,
}

impl OrderListCache {
    /// The body for a request that read `seen`; `load` reads the version
    /// and then the list (given the last body's size, to size its buffer)
    /// when the cached body is older than `seen`.
    pub async fn get<F, Fut>(&self, seen: OrdersVersion, load: F) -> Result<OrderListBody, ListError>
    where
        F: FnOnce(usize) -> Fut,
        Fut: Future<Output = Result<(OrdersVersion, OrderListBody), StorageError>>,
    {
        if let Some(body) = self.current_since(seen) {
            return Ok(body);
        }
        let _rebuilding = tokio::time::timeout(REBUILD_WAIT, self.rebuild.lock())
            .await
            .map_err(|_| ListError::Busy)?;
        // Another request may have rebuilt it while this one waited.
        if let Some(body) = self.current_since(seen) {
            return Ok(body);
        }
        let (version, body) = load(self.last_size()).await.map_err(ListError::Storage)?;
        *self.current.lock().expect("not poisoned") = Some(Cached {
            version,
            body: body.clone(),
        });
        Ok(body)
    }

    fn current_since(&self, seen: OrdersVersion) -> Option<OrderListBody> {
        let current = self.current.lock().expect("not poisoned");
        current
            .as_ref()
            .filter(|cached| cached.version >= seen)
            .map(|cached| cached.body.clone())
    }

    fn last_size(&self) -> usize {
        let current = self.current.lock().expect("not poisoned");
        current
            .as_ref()
            .and_then(|cached| cached.body.serialized_len())
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    fn body(ids: &[i64]) -> OrderListBody {
        let orders: Vec<types::Order> = ids
            .iter()
            .map(|&id| types::Order {
                id: Some(id),
                ..Default::default()
            })
            .collect();
        Json::serialized(&orders).unwrap()
    }

    fn bytes(body: &OrderListBody) -> Vec<u8> {
        body.to_bytes().unwrap().to_vec()
    }

    #[tokio::test]
    async fn a_newer_version_is_read_again_and_an_older_one_is_not() {
        let cache = OrderListCache::default();
        let loads = AtomicUsize::new(0);
        let load = |version: i64, ids: &'static [i64]| {
            let loads = &loads;
            move |_| async move {
                loads.fetch_add(1, Ordering::SeqCst);
                Ok((OrdersVersion(version), body(ids)))
            }
        };
        let first = cache.get(OrdersVersion(1), load(1, &[1, 2])).await.unwrap();
        assert_eq!(bytes(&first), bytes(&body(&[1, 2])));
        // Same or older version: the cached body, no read.
        for seen in [0, 1] {
            let again = cache.get(OrdersVersion(seen), load(9, &[9])).await.unwrap();
            assert_eq!(bytes(&again), bytes(&body(&[1, 2])));
        }
        assert_eq!(loads.load(Ordering::SeqCst), 1);
        // A change since: read again.
        let changed = cache.get(OrdersVersion(2), load(2, &[2])).await.unwrap();
        assert_eq!(bytes(&changed), bytes(&body(&[2])));
        assert_eq!(loads.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn concurrent_stale_requests_share_one_read() {
        let cache = Arc::new(OrderListCache::default());
        let loads = Arc::new(AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for _ in 0..16 {
            let (cache, loads) = (cache.clone(), loads.clone());
            tasks.push(tokio::spawn(async move {
                cache
                    .get(OrdersVersion(5), |_| async move {
                        loads.fetch_add(1, Ordering::SeqCst);
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        Ok((OrdersVersion(5), body(&[1])))
                    })
                    .await
                    .map(|b| bytes(&b))
            }));
        }
        for task in tasks {
            assert_eq!(task.await.unwrap().unwrap(), bytes(&body(&[1])));
        }
        assert_eq!(loads.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_failed_read_is_not_cached() {
        let cache = OrderListCache::default();
        let failed = cache
            .get(OrdersVersion(1), |_| async {
                Err(StorageError::Unavailable("down".into()))
            })
            .await;
        assert!(matches!(failed, Err(ListError::Storage(StorageError::Unavailable(_)))));
        let body = cache
            .get(OrdersVersion(1), |_| async { Ok((OrdersVersion(1), body(&[3]))) })
            .await
            .unwrap();
        assert_eq!(bytes(&body), bytes(&super::tests::body(&[3])));
    }
}
