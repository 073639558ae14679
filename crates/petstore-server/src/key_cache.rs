//! Active API keys' hashes, kept while the keys' version does not change.
//!
//! A request reads the keys' version (shared, see [`crate::versions`])
//! after it arrived; a cached hash read at that version or later is what a
//! lookup would find now. Any change to any key (create, revoke, by this
//! process, another instance or the CLI) bumps the version, so a revoked
//! key stops working for every request that arrives after the revocation
//! committed. Only active keys are kept: an unknown or revoked id is read
//! each time, so bad requests cannot grow the cache.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::storage::KeysVersion;

#[derive(Default)]
pub struct KeyCache {
    keys: Mutex<HashMap<i64, CachedKey>>,
}

struct CachedKey {
    hash: Vec<u8>,
    /// The keys' version the hash was read at.
    read_at: KeysVersion,
}

impl KeyCache {
    /// Key `id`'s hash, if it was read at version `seen` or later.
    pub fn get(&self, id: i64, seen: KeysVersion) -> Option<Vec<u8>> {
        let keys = self.keys.lock().expect("not poisoned");
        keys.get(&id)
            .filter(|key| key.read_at >= seen)
            .map(|key| key.hash.clone())
    }

    /// Records what a lookup at `read_at` found: an active key's hash, or
    /// none (revoked or unknown: forgotten).
    pub fn put(&self, id: i64, hash: Option<&[u8]>, read_at: KeysVersion) {
        let mut keys = self.keys.lock().expect("not poisoned");
        match hash {
            Some(hash) => {
                // Never replace a newer reading with an older one.
                if keys.get(&id).is_none_or(|key| key.read_at <= read_at) {
                    keys.insert(
                        id,
                        CachedKey {
                            hash: hash.to_vec(),
                            read_at,
                        },
                    );
                }
            }
            None => {
                keys.remove(&id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_holds_until_the_keys_change() {
        let cache = KeyCache::default();
        assert_eq!(cache.get(1, KeysVersion(0)), None);
        cache.put(1, Some(&[1, 2]), KeysVersion(3));
        assert_eq!(cache.get(1, KeysVersion(3)), Some(vec![1, 2]));
        assert_eq!(cache.get(1, KeysVersion(2)), Some(vec![1, 2]));
        assert_eq!(cache.get(1, KeysVersion(4)), None, "a key changed since");
        cache.put(1, Some(&[9]), KeysVersion(2));
        assert_eq!(
            cache.get(1, KeysVersion(3)),
            Some(vec![1, 2]),
            "an older reading is ignored"
        );
        cache.put(1, None, KeysVersion(5));
        assert_eq!(cache.get(1, KeysVersion(0)), None, "revoked: forgotten");
    }
}
