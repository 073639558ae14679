//! Version 2's pages, serialized, for requests that ask for the same page
//! again before the orders change: the first page above all, which every
//! walk and every poller asks for.
//!
//! The rule is version 1's ([`crate::order_list`]): a page is kept with
//! the orders' version read before its rows, and a request may use it when
//! the version read for that request (after it arrived) is not newer. A
//! cancel's 204 goes out after its commit has bumped the version, so no page
//! requested after that 204 comes from before it, whoever cancelled.
//!
//! Memory is bounded by the page size: at most [`CAPACITY`] pages (of at
//! most 1,000 orders each), the least recently stored going first, and a
//! page stored for a newer version drops those of older ones.

use std::collections::VecDeque;
use std::sync::Mutex;

use petstore_api::runtime::Json;
use petstore_api::v2::types;

use crate::storage::{OrderFilters, OrdersVersion};

/// How many pages are kept.
pub const CAPACITY: usize = 64;

/// What a page is the answer to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageKey {
    pub filters: OrderFilters,
    pub after: Option<i64>,
    pub limit: u32,
}

/// A page as sent: the body's bytes and the `Link` header.
#[derive(Debug, Clone)]
pub struct CachedPage {
    pub body: Json<types::OrderPage>,
    pub link: Option<String>,
}

struct Entry {
    key: PageKey,
    version: OrdersVersion,
    page: CachedPage,
}

#[derive(Default)]
pub struct PageCache {
    entries: Mutex<VecDeque<Entry>>,
}

impl PageCache {
    /// The page for `key`, if one was stored for a version at least as new
    /// as `seen`.
    pub fn get(&self, key: &PageKey, seen: OrdersVersion) -> Option<CachedPage> {
        let entries = self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let found = entries
            .iter()
            .find(|entry| entry.version >= seen && entry.key == *key)
            .map(|entry| entry.page.clone());
        let metrics = crate::metrics::service();
        match found {
            Some(_) => metrics.page_hit.inc(),
            None => metrics.page_miss.inc(),
        };
        found
    }

    /// Keeps `page` for `key`, read after the orders' version `version`.
    pub fn put(&self, key: PageKey, version: OrdersVersion, page: CachedPage) {
        let mut entries = self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        entries.retain(|entry| entry.version >= version && entry.key != key);
        while entries.len() >= CAPACITY {
            entries.pop_front();
        }
        entries.push_back(Entry { key, version, page });
    }

    /// How many pages are kept now.
    pub fn len(&self) -> usize {
        self.entries
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(after: Option<i64>) -> PageKey {
        PageKey {
            filters: OrderFilters::default(),
            after,
            limit: 100,
        }
    }

    fn page(next: &str) -> CachedPage {
        CachedPage {
            body: Json::from(types::OrderPage {
                items: Vec::new(),
                next_cursor: Some(next.into()),
            }),
            link: None,
        }
    }

    fn next_cursor(page: CachedPage) -> Option<String> {
        let bytes = page.body.to_bytes().unwrap();
        let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        value["nextCursor"].as_str().map(String::from)
    }

    #[test]
    fn a_page_serves_requests_that_saw_its_version_or_an_older_one() {
        let cache = PageCache::default();
        cache.put(key(None), OrdersVersion(5), page("a"));
        assert_eq!(
            cache.get(&key(None), OrdersVersion(5)).map(next_cursor),
            Some(Some("a".into()))
        );
        assert!(cache.get(&key(None), OrdersVersion(4)).is_some());
        // A request that saw a newer version (a change it may have caused)
        // reads again.
        assert!(cache.get(&key(None), OrdersVersion(6)).is_none());
        // Another page is another key.
        assert!(cache.get(&key(Some(7)), OrdersVersion(5)).is_none());
    }

    #[test]
    fn a_newer_version_drops_the_older_pages_and_the_count_is_bounded() {
        let cache = PageCache::default();
        cache.put(key(Some(1)), OrdersVersion(1), page("old"));
        cache.put(key(None), OrdersVersion(2), page("new"));
        assert_eq!(cache.len(), 1, "the page of version 1 cannot serve anyone newer");
        for after in 0..(CAPACITY as i64 + 10) {
            cache.put(key(Some(after)), OrdersVersion(2), page("p"));
        }
        assert_eq!(cache.len(), CAPACITY);
        assert!(
            cache.get(&key(None), OrdersVersion(2)).is_none(),
            "the least recent went first"
        );
    }
}
