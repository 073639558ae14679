//! Secrets already verified, remembered so that a known key's next request
//! skips SHA-256.
//!
//! Checking a key hashes its secret with SHA-256 (`keys.rs`), on every
//! request: on a CPU without SHA extensions, the largest user-space cost of
//! a cached list. Once a secret has matched, what is remembered is its
//! SipHash-1-3 (128 bits) under a key drawn at start and never stored: not
//! the secret, and nothing that leads back to it without that key. A
//! request whose secret has the remembered tag, for a key whose stored hash
//! is still the one it matched, is the same key.
//!
//! What does not change:
//! - a revoked key stops at once: the caller passes the hash from the
//!   active keys it has just read, and a revoked key has none;
//! - a wrong secret costs what it cost: a tag that differs sends the
//!   request to SHA-256 as before, as does an unknown id, so timing tells
//!   nothing about which ids exist;
//! - a stored hash that changed for an id (a database restored with other
//!   keys) is not the one remembered, so that id is verified again.

use std::collections::HashMap;
use std::hash::Hasher;
use std::sync::RwLock;

use siphasher::sip128::{Hasher128, SipHasher13};
use subtle::ConstantTimeEq;

/// Entries kept beyond the active keys (revoked ones) before pruning.
const SLACK: usize = 16;

pub struct VerifiedKeys {
    /// The SipHash key, from the OS's randomness at start.
    tag_key: [u8; 16],
    /// Key id → the stored hash it matched, and the secret's tag.
    seen: RwLock<HashMap<i64, Verified>>,
}

struct Verified {
    stored_hash: Vec<u8>,
    tag: [u8; 16],
}

impl VerifiedKeys {
    pub fn new() -> Result<VerifiedKeys, getrandom::Error> {
        let mut tag_key = [0u8; 16];
        getrandom::fill(&mut tag_key)?;
        Ok(VerifiedKeys {
            tag_key,
            seen: RwLock::default(),
        })
    }

    /// Whether `secret` matched `stored_hash`, the key `id`'s hash now, at
    /// an earlier request. False only means "not known": verify it.
    pub fn remembers(&self, id: i64, secret: &str, stored_hash: &[u8]) -> bool {
        let tag = self.tag(secret);
        let seen = self.seen.read().unwrap_or_else(|p| p.into_inner());
        seen.get(&id)
            .is_some_and(|known| known.stored_hash == stored_hash && bool::from(known.tag.ct_eq(&tag)))
    }

    /// Remembers that `secret` matched `stored_hash` for key `id`, one of
    /// `active` keys: those whose ids are no longer active are dropped when
    /// the entries outgrow them.
    pub fn remember(&self, id: i64, secret: &str, stored_hash: &[u8], active: &HashMap<i64, Vec<u8>>) {
        let verified = Verified {
            stored_hash: stored_hash.to_vec(),
            tag: self.tag(secret),
        };
        let mut seen = self.seen.write().unwrap_or_else(|p| p.into_inner());
        if seen.len() >= active.len() + SLACK {
            seen.retain(|id, known| active.get(id) == Some(&known.stored_hash));
        }
        seen.insert(id, verified);
    }

    fn tag(&self, secret: &str) -> [u8; 16] {
        let mut hasher = SipHasher13::new_with_key(&self.tag_key);
        hasher.write(secret.as_bytes());
        hasher.finish128().as_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_secret_that_matched_that_hash_is_remembered() {
        let verified = VerifiedKeys::new().unwrap();
        let active = HashMap::from([(1, vec![1u8; 32])]);
        assert!(!verified.remembers(1, "secret", &active[&1]));
        verified.remember(1, "secret", &active[&1], &active);
        assert!(verified.remembers(1, "secret", &active[&1]));
        assert!(!verified.remembers(1, "secreT", &active[&1]), "another secret");
        assert!(!verified.remembers(2, "secret", &active[&1]), "another id");
        assert!(!verified.remembers(1, "secret", &[2u8; 32]), "the id's hash changed");
    }

    #[test]
    fn keys_no_longer_active_are_dropped_as_entries_grow() {
        let verified = VerifiedKeys::new().unwrap();
        let hash = vec![7u8; 32];
        let all: HashMap<i64, Vec<u8>> = (0..100).map(|id| (id, hash.clone())).collect();
        for id in 0..100 {
            verified.remember(id, "s", &hash, &all);
        }
        let one = HashMap::from([(5, hash.clone())]);
        verified.remember(5, "s", &hash, &one);
        verified.remember(6, "s", &hash, &one);
        assert!(verified.seen.read().unwrap().len() <= one.len() + SLACK);
        assert!(verified.remembers(5, "s", &hash));
    }

    #[test]
    fn tags_are_keyed_per_process() {
        let (a, b) = (VerifiedKeys::new().unwrap(), VerifiedKeys::new().unwrap());
        assert_ne!(a.tag("secret"), b.tag("secret"));
    }
}
