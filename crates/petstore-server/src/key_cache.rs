//! Every active API key's hash, kept while the keys' version does not
//! change.
//!
//! A request reads the keys' version (shared, see [`crate::versions`])
//! after it arrived; a set of keys read at that version or later is what a
//! lookup would find now. Any change to any key (create, revoke, by this
//! process, another instance or the CLI) bumps the version, so a revoked
//! key stops working for every request that arrives after the revocation
//! committed.
//!
//! The whole set is kept, not the keys seen so far, so that a request for
//! an unknown or revoked id does exactly the work of one for a known id
//! with a wrong secret: one map lookup and one hash comparison, no
//! database read. Timing then tells an attacker nothing about which ids
//! exist. The set's size is the number of active keys, which no request
//! can grow; hence a fast hasher for its ids (foldhash, seeded per
//! process) rather than SipHash, which resists a flood of inserted keys
//! this map never takes. Each key also keeps the tag of the secret that
//! matched it (`verified_keys.rs`), which a new set starts without.

use std::future::Future;
use std::sync::Arc;

use crate::read_mostly::ReadMostly;
use crate::storage::{ActiveKeys, KeysVersion, Result};
use crate::verified_keys::Verified;

#[derive(Default)]
pub struct KeyCache {
    /// Read by every request: see `read_mostly`.
    keys: ReadMostly<KnownKeys>,
    /// One reload at a time: requests that see a new version together
    /// share the reload.
    reloading: tokio::sync::Mutex<()>,
}

/// The active keys at one keys version.
#[derive(Debug)]
pub struct KnownKeys {
    pub keys_version: KeysVersion,
    keys: hashbrown::HashMap<i64, KnownKey>,
}

/// One active key.
#[derive(Debug)]
pub struct KnownKey {
    /// SHA-256 of its secret, as stored.
    pub hash: Vec<u8>,
    pub verified: Verified,
}

impl KnownKeys {
    pub fn get(&self, id: i64) -> Option<&KnownKey> {
        self.keys.get(&id)
    }
}

impl From<ActiveKeys> for KnownKeys {
    fn from(active: ActiveKeys) -> KnownKeys {
        let keys = active.hashes.into_iter().map(|(id, hash)| {
            let verified = Verified::default();
            (id, KnownKey { hash, verified })
        });
        KnownKeys {
            keys_version: active.keys_version,
            keys: keys.collect(),
        }
    }
}

impl KeyCache {
    /// The active keys as of version `seen` or later; `load` reads them
    /// from the database when the kept set is older.
    pub async fn active<F, Fut>(&self, seen: KeysVersion, load: F) -> Result<Arc<KnownKeys>>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<ActiveKeys>>,
    {
        if let Some(keys) = self.kept(seen) {
            return Ok(keys);
        }
        // Boxed, as `OrderListCache::get`'s rebuild: a request whose keys
        // are kept should not carry the reload's future.
        Box::pin(self.reload(seen, load)).await
    }

    /// Reads the keys again, one reload at a time.
    async fn reload<F, Fut>(&self, seen: KeysVersion, load: F) -> Result<Arc<KnownKeys>>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<ActiveKeys>>,
    {
        let _reloading = self.reloading.lock().await;
        if let Some(keys) = self.kept(seen) {
            return Ok(keys);
        }
        let loaded = Arc::new(KnownKeys::from(load().await?));
        self.keys.replace(|kept| {
            // Never replace a newer reading with an older one.
            if kept
                .as_ref()
                .is_none_or(|keys| keys.keys_version <= loaded.keys_version)
            {
                *kept = Some(loaded.clone());
            }
        });
        Ok(loaded)
    }

    /// The kept set, if it is as of `seen` or later.
    pub fn kept(&self, seen: KeysVersion) -> Option<Arc<KnownKeys>> {
        self.keys.get().filter(|keys| keys.keys_version >= seen)
    }

    /// `check` of the kept set, if it is as of `seen` or later: what every
    /// request asks, so without sharing the set (see `read_mostly`).
    pub fn with_kept<R>(&self, seen: KeysVersion, check: impl FnOnce(&KnownKeys) -> R) -> Option<R> {
        self.keys
            .read(|kept| kept.filter(|keys| keys.keys_version >= seen).map(check))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(version: i64, ids: &[i64]) -> ActiveKeys {
        ActiveKeys {
            hashes: ids.iter().map(|id| (*id, vec![*id as u8])).collect(),
            keys_version: KeysVersion(version),
        }
    }

    #[tokio::test]
    async fn the_set_holds_until_the_keys_change() {
        let cache = KeyCache::default();
        let first = cache
            .active(KeysVersion(0), || async { Ok(keys(3, &[1])) })
            .await
            .unwrap();
        assert_eq!(first.keys_version, KeysVersion(3));
        let kept = cache
            .active(KeysVersion(3), || async { panic!("read at version 3 already") })
            .await
            .unwrap();
        assert!(kept.get(1).is_some());
        let newer = cache
            .active(KeysVersion(4), || async { Ok(keys(4, &[2])) })
            .await
            .unwrap();
        assert!(newer.get(1).is_none(), "a key changed since: read again");
        assert!(newer.get(2).is_some());
    }
}
