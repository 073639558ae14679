//! API keys: `psk_<id>_<secret>`, where the secret is 32 random bytes in
//! hex. Only SHA-256 of the secret is stored. A fast hash is enough because
//! the secret has 256 bits of entropy: there is nothing to brute-force.
//! The id lets the server find the one row to compare against, and the
//! comparison is constant-time.

use sha2::{Digest, Sha256};

use crate::storage::Storage;
use subtle::ConstantTimeEq;

const PREFIX: &str = "psk_";
const SECRET_BYTES: usize = 32;

/// A freshly made key: shown to its owner once, then only its hash is kept.
pub struct NewKey {
    pub secret: String,
    pub hash: Vec<u8>,
}

/// Makes a new random secret. The full key needs the row id, which the
/// database assigns: see [`format_key`].
pub fn new_secret() -> Result<NewKey, getrandom::Error> {
    let mut bytes = [0u8; SECRET_BYTES];
    getrandom::fill(&mut bytes)?;
    let secret: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let hash = hash(&secret);
    Ok(NewKey { secret, hash })
}

/// The key as the client sends it.
pub fn format_key(id: i64, secret: &str) -> String {
    format!("{PREFIX}{id}_{secret}")
}

/// Splits a presented key into its id and secret; `None` if it is not in
/// the one canonical form that [`format_key`] writes: `psk_`, the id in
/// decimal without sign or leading zeros, `_`, and 64 lowercase hex digits.
/// (Then it cannot be valid, and no lookup is needed.) Variants such as
/// `psk_01_…` or `psk_+1_…` are refused, not read as key 1.
pub fn parse_key(key: &str) -> Option<(i64, &str)> {
    let rest = key.strip_prefix(PREFIX)?;
    let (id, secret) = rest.split_once('_')?;
    let canonical_id = id.starts_with(|c: char| matches!(c, '1'..='9')) && id.bytes().all(|b| b.is_ascii_digit());
    // Every byte looked at, not up to the first bad one: such a loop
    // vectorizes, and every request with a key runs it.
    let canonical_secret = secret.len() == SECRET_BYTES * 2
        && secret
            .bytes()
            .fold(true, |all, b| all & (b.is_ascii_digit() | (b'a'..=b'f').contains(&b)));
    if !(canonical_id && canonical_secret) {
        return None;
    }
    // Too large for an id: not one of ours.
    Some((id.parse::<i64>().ok()?, secret))
}

pub fn hash(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}

/// Whether `secret` matches the stored hash, in time independent of where
/// they differ.
pub fn verify(secret: &str, stored_hash: &[u8]) -> bool {
    hash(secret).ct_eq(stored_hash).into()
}

/// Creates a key named `name` and gives its id and the full key: the only
/// time the key is available.
pub async fn issue(storage: &impl Storage, name: &str) -> anyhow::Result<(i64, String)> {
    if name.trim().is_empty() {
        anyhow::bail!("a key's name must not be empty");
    }
    let new = new_secret().map_err(|e| anyhow::anyhow!("no randomness available: {e}"))?;
    let id = storage.create_api_key(name, &new.hash).await?;
    Ok((id, format_key(id, &new.secret)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_key_round_trips() {
        let key = new_secret().unwrap();
        let full = format_key(12, &key.secret);
        let (id, secret) = parse_key(&full).unwrap();
        assert_eq!(id, 12);
        assert!(verify(secret, &key.hash));
        assert!(!verify(&secret.replace(&secret[..1], "x"), &key.hash));
    }

    #[test]
    fn secrets_differ() {
        assert_ne!(new_secret().unwrap().secret, new_secret().unwrap().secret);
    }

    #[test]
    fn malformed_keys_are_not_parsed() {
        let secret = "a".repeat(64);
        for key in [
            "",
            "psk_",
            "psk_1",
            "psk_x_".to_string().as_str(),
            &format!("psk_0_{secret}"),
            &format!("psk_01_{secret}"),
            &format!("psk_+1_{secret}"),
            &format!("psk_-1_{secret}"),
            &format!("psk_ 1_{secret}"),
            &format!("psk_1_{}", secret.to_uppercase()),
            &format!("psk_1_{}g", &secret[1..]),
            // The bytes either side of the digits and of `a`-`f`.
            &format!("psk_1_{}/", &secret[1..]),
            &format!("psk_1_:{}", &secret[1..]),
            &format!("psk_1_{}`", &secret[1..]),
            &format!("psk_99999999999999999999_{secret}"),
            &format!("psk_1_{}", &secret[1..]),
            &format!("xyz_1_{secret}"),
        ] {
            assert!(parse_key(key).is_none(), "{key}");
        }
    }
}
