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
//!
//! When the only changes since the cached body are this process's cancels
//! ([`crate::storage::Storage::cancelled_since`]), the new body is the
//! cached one without the cancelled orders: a copy of the others' bytes,
//! with no row read and no order serialized again. Under a mix of lists and
//! cancels, that is what keeps a cancel from costing a whole rebuild.

use std::future::Future;
use std::sync::Mutex;
use std::time::Duration;

use petstore_api::runtime::{Json, JsonArray};
use petstore_api::types;

use crate::storage::{OrdersVersion, StorageError};

/// The body of a listOrders response.
pub type OrderListBody = Json<Vec<types::Order>>;

/// The list serialized, with where each order lies in it (orders in
/// ascending id).
pub type OrderList = JsonArray<types::Order>;

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
    list: OrderList,
}

#[derive(Debug)]
pub enum ListError {
    Storage(StorageError),
    /// Waited too long for another request's rebuild.
    Busy,
}

impl OrderListCache {
    /// The body for a request that read `seen`. When the cached body is
    /// older than `seen`: `cancelled_since` gives the orders cancelled since
    /// the cached version and the version that leaves, if that is `seen` or
    /// later (see [`crate::storage::Storage::cancelled_since`]); failing
    /// that, `load` reads the version and then the list (given the last
    /// body's size, to size its buffer).
    pub async fn get<P, PFut, F, Fut>(
        &self,
        seen: OrdersVersion,
        cancelled_since: P,
        load: F,
    ) -> Result<OrderListBody, ListError>
    where
        P: FnOnce(OrdersVersion, OrdersVersion) -> PFut,
        PFut: Future<Output = Option<(OrdersVersion, Vec<i64>)>>,
        F: FnOnce(usize) -> Fut,
        Fut: Future<Output = Result<(OrdersVersion, OrderList), StorageError>>,
    {
        if let Some(body) = self.current_since(seen) {
            crate::metrics::service().list_hit.inc();
            return Ok(body);
        }
        // The rebuild, one at a time. Boxed: its future (the wait, the
        // read) is most of this one's size, and every request's future is
        // moved whole when it starts; a hit should not carry it.
        Box::pin(async move {
            let metrics = crate::metrics::service();
            let _rebuilding = tokio::time::timeout(REBUILD_WAIT, self.rebuild.lock())
                .await
                .map_err(|_| ListError::Busy)?;
            // Another request may have rebuilt it while this one waited.
            if let Some(body) = self.current_since(seen) {
                metrics.list_hit.inc();
                return Ok(body);
            }
            let (version, list) = match self.patched(seen, cancelled_since).await {
                Some(patched) => {
                    metrics.list_patched.inc();
                    patched
                }
                None => {
                    metrics.list_miss.inc();
                    load(self.last_size()).await.map_err(ListError::Storage)?
                }
            };
            let body = list.body();
            *self.current.lock().expect("not poisoned") = Some(Cached { version, list });
            Ok(body)
        })
        .await
    }

    fn current_since(&self, seen: OrdersVersion) -> Option<OrderListBody> {
        let current = self.current.lock().expect("not poisoned");
        current
            .as_ref()
            .filter(|cached| cached.version >= seen)
            .map(|cached| cached.list.body())
    }

    /// The cached list without the orders cancelled since, if that makes it
    /// the list at `seen` or later. Runs under the rebuild lock, so the
    /// cached list cannot change meanwhile.
    async fn patched<P, PFut>(&self, seen: OrdersVersion, cancelled_since: P) -> Option<(OrdersVersion, OrderList)>
    where
        P: FnOnce(OrdersVersion, OrdersVersion) -> PFut,
        PFut: Future<Output = Option<(OrdersVersion, Vec<i64>)>>,
    {
        let cached_version = self.current.lock().expect("not poisoned").as_ref()?.version;
        let (version, cancelled) = cancelled_since(cached_version, seen)
            .await
            .filter(|(version, _)| *version >= seen)?;
        let current = self.current.lock().expect("not poisoned");
        let cached = current.as_ref()?;
        let keys: Vec<Option<i64>> = cancelled.into_iter().map(Some).collect();
        // An order that does not read back is a bug of ours: read the
        // rows instead.
        let list = cached.list.without(&keys, |order| order.id).ok()?;
        Some((version, list))
    }

    fn last_size(&self) -> usize {
        let current = self.current.lock().expect("not poisoned");
        current.as_ref().map_or(0, |cached| cached.list.serialized_len())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use petstore_api::runtime::JsonArrayWriter;

    use super::*;

    fn orders(ids: &[i64]) -> Vec<types::Order> {
        ids.iter()
            .map(|&id| types::Order {
                id: Some(id),
                quantity: Some(id % 7),
                ..Default::default()
            })
            .collect()
    }

    fn body(ids: &[i64]) -> OrderList {
        let mut writer = JsonArrayWriter::with_capacity(0);
        for order in orders(ids) {
            writer.push(&order).unwrap();
        }
        writer.finish()
    }

    fn expected(ids: &[i64]) -> Vec<u8> {
        Json::serialized(&orders(ids)).unwrap().to_bytes().unwrap().to_vec()
    }

    async fn nothing_cancelled(_: OrdersVersion, _: OrdersVersion) -> Option<(OrdersVersion, Vec<i64>)> {
        None
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
        let first = cache
            .get(OrdersVersion(1), nothing_cancelled, load(1, &[1, 2]))
            .await
            .unwrap();
        assert_eq!(bytes(&first), expected(&[1, 2]));
        // Same or older version: the cached body, no read.
        for seen in [0, 1] {
            let again = cache
                .get(OrdersVersion(seen), nothing_cancelled, load(9, &[9]))
                .await
                .unwrap();
            assert_eq!(bytes(&again), expected(&[1, 2]));
        }
        assert_eq!(loads.load(Ordering::SeqCst), 1);
        // A change since: read again.
        let changed = cache
            .get(OrdersVersion(2), nothing_cancelled, load(2, &[2]))
            .await
            .unwrap();
        assert_eq!(bytes(&changed), expected(&[2]));
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
                    .get(OrdersVersion(5), nothing_cancelled, |_| async move {
                        loads.fetch_add(1, Ordering::SeqCst);
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        Ok((OrdersVersion(5), body(&[1])))
                    })
                    .await
                    .map(|b| bytes(&b))
            }));
        }
        for task in tasks {
            assert_eq!(task.await.unwrap().unwrap(), expected(&[1]));
        }
        assert_eq!(loads.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_failed_read_is_not_cached() {
        let cache = OrderListCache::default();
        let failed = cache
            .get(OrdersVersion(1), nothing_cancelled, |_| async {
                Err(StorageError::Unavailable("down".into()))
            })
            .await;
        assert!(matches!(failed, Err(ListError::Storage(StorageError::Unavailable(_)))));
        let body = cache
            .get(OrdersVersion(1), nothing_cancelled, |_| async {
                Ok((OrdersVersion(1), body(&[3])))
            })
            .await
            .unwrap();
        assert_eq!(bytes(&body), expected(&[3]));
    }

    #[tokio::test]
    async fn this_process_s_cancels_patch_the_list_and_anything_else_reads_it_again() {
        let cache = OrderListCache::default();
        let loads = AtomicUsize::new(0);
        let load = |version: i64, ids: &'static [i64]| {
            let loads = &loads;
            move |_| async move {
                loads.fetch_add(1, Ordering::SeqCst);
                Ok((OrdersVersion(version), body(ids)))
            }
        };
        cache
            .get(OrdersVersion(1), nothing_cancelled, load(1, &[1, 2, 3, 4, 5]))
            .await
            .unwrap();
        // Cancels 2 and 4 took the orders from 1 to 3: patched, not read.
        let asked = std::sync::Mutex::new(Vec::new());
        let patched = cache
            .get(
                OrdersVersion(3),
                |since, seen| {
                    asked.lock().unwrap().push((since, seen));
                    std::future::ready(Some((OrdersVersion(3), vec![2, 4])))
                },
                load(3, &[9]),
            )
            .await
            .unwrap();
        assert_eq!(bytes(&patched), expected(&[1, 3, 5]));
        assert_eq!(*asked.lock().unwrap(), [(OrdersVersion(1), OrdersVersion(3))]);
        assert_eq!(loads.load(Ordering::SeqCst), 1);
        // The patched list is cached under the version it is at.
        let again = cache
            .get(OrdersVersion(3), nothing_cancelled, load(9, &[9]))
            .await
            .unwrap();
        assert_eq!(bytes(&again), expected(&[1, 3, 5]));
        // Cancels that leave the list older than the request's version
        // (someone else changed it since): read again.
        let read = cache
            .get(
                OrdersVersion(6),
                |_, _| std::future::ready(Some((OrdersVersion(5), vec![1]))),
                load(6, &[3, 5, 6]),
            )
            .await
            .unwrap();
        assert_eq!(bytes(&read), expected(&[3, 5, 6]));
        assert_eq!(loads.load(Ordering::SeqCst), 2);
    }
}
