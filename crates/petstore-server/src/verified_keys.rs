//! Secrets already verified, remembered so that a known key's next request
//! skips SHA-256.
//!
//! Checking a key hashes its secret with SHA-256 (`keys.rs`), on every
//! request: on a CPU without SHA extensions, the largest user-space cost of
//! a cached list. Once a secret has matched, what is remembered, beside
//! that key's stored hash in the set of active keys (`key_cache.rs`), is
//! its SipHash-1-3 (128 bits) under a key drawn at start and never stored:
//! not the secret, and nothing that leads back to it without that key. A
//! request whose secret has the remembered tag is the same key.
//!
//! What does not change:
//! - a revoked key stops at once: the caller reads the active keys after
//!   the request arrived, and a revoked key is not among them;
//! - a wrong secret costs what it cost: a tag that differs sends the
//!   request to SHA-256 as before, as does an unknown id, whose tag is
//!   made all the same, so timing tells nothing about which ids exist;
//! - a stored hash that changed for an id (a database restored with other
//!   keys) comes with a new set of active keys, which remembers nothing.

use std::hash::Hasher;
use std::sync::OnceLock;

use siphasher::sip128::{Hasher128, SipHasher13};
use subtle::ConstantTimeEq;

/// Makes the tags: holds the SipHash key.
pub struct SecretTags {
    /// From the OS's randomness at start.
    key: [u8; 16],
}

/// A secret's tag under this process's key, as two words: compared in
/// constant time a word at a time, where sixteen bytes cost ten times as
/// many instructions.
pub struct Tag([u64; 2]);

/// Where one active key remembers the tag of the secret that matched its
/// stored hash: empty until one has.
#[derive(Debug, Default)]
pub struct Verified(OnceLock<[u64; 2]>);

impl SecretTags {
    pub fn new() -> Result<SecretTags, getrandom::Error> {
        let mut key = [0u8; 16];
        getrandom::fill(&mut key)?;
        Ok(SecretTags { key })
    }

    pub fn tag(&self, secret: &str) -> Tag {
        let mut hasher = SipHasher13::new_with_key(&self.key);
        hasher.write(secret.as_bytes());
        let tag = hasher.finish128();
        Tag([tag.h1, tag.h2])
    }
}

impl Verified {
    /// Empty: remembers no tag.
    pub const fn new() -> Verified {
        Verified(OnceLock::new())
    }

    /// Whether a secret with `tag` matched this key's stored hash at an
    /// earlier request. False only means "not known": verify it.
    pub fn remembers(&self, tag: &Tag) -> bool {
        self.0
            .get()
            .is_some_and(|known| (known[0].ct_eq(&tag.0[0]) & known[1].ct_eq(&tag.0[1])).into())
    }

    /// Remembers that the secret with `tag` matched this key's stored hash.
    pub fn remember(&self, tag: Tag) {
        // Only one secret has a given SHA-256: a second caller that
        // verified it at the same time brings the same tag.
        let _ = self.0.set(tag.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_secret_that_matched_is_remembered() {
        let tags = SecretTags::new().unwrap();
        let verified = Verified::default();
        assert!(!verified.remembers(&tags.tag("secret")), "nothing yet");
        verified.remember(tags.tag("secret"));
        assert!(verified.remembers(&tags.tag("secret")));
        assert!(!verified.remembers(&tags.tag("secreT")), "another secret");
        assert!(
            !Verified::default().remembers(&tags.tag("secret")),
            "another key's slot"
        );
    }

    #[test]
    fn tags_are_keyed_per_process() {
        let (a, b) = (SecretTags::new().unwrap(), SecretTags::new().unwrap());
        assert_ne!(a.tag("secret").0, b.tag("secret").0);
    }
}
