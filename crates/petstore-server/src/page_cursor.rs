//! Version 2's page cursors: opaque to clients, tamper-evident, and bound
//! to the filters they were issued for.
//!
//! A cursor is the id of the last order of a page, signed with
//! HMAC-SHA-256 over that id and the page's filters, in base64url:
//! `format (1 byte) ‖ id (8 bytes, big-endian) ‖ tag (16 bytes)`. The key is
//! a secret stored in the database ([`crate::storage::Storage::shared_secret`]),
//! so that a cursor one instance issued is good on every other. Keyset
//! pagination needs nothing else: the next page is the orders after that id
//! that match the same filters, however many were cancelled or added since.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::storage::OrderFilters;

/// The name of the signing key among the database's secrets.
pub const SECRET_NAME: &str = "cursor";

/// The first byte of every cursor: another layout would get another one.
const FORMAT: u8 = 1;
const TAG_LEN: usize = 16;
const CURSOR_LEN: usize = 1 + 8 + TAG_LEN;

/// Why a cursor was refused. The client is told only that it is not valid
/// for these filters: which check failed is no help to a forger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CursorError {
    /// Not base64url, or not a cursor's length or format.
    Malformed,
    /// The tag does not match: forged, altered, or issued for other filters
    /// (or by a database with another key).
    NotIssuedForTheseFilters,
}

/// Issues and opens cursors with one key.
#[derive(Clone)]
pub struct CursorSigner {
    mac: Hmac<Sha256>,
}

impl CursorSigner {
    pub fn new(key: &[u8]) -> Self {
        CursorSigner {
            mac: Hmac::new_from_slice(key).expect("HMAC takes a key of any length"),
        }
    }

    /// The cursor of the page that follows the order `last_id`, for
    /// `filters`.
    pub fn issue(&self, last_id: i64, filters: &OrderFilters) -> String {
        let mut bytes = Vec::with_capacity(CURSOR_LEN);
        bytes.push(FORMAT);
        bytes.extend_from_slice(&last_id.to_be_bytes());
        bytes.extend_from_slice(&self.tag(last_id, filters)[..TAG_LEN]);
        URL_SAFE_NO_PAD.encode(bytes)
    }

    /// The id after which the page starts, if this signer issued `cursor`
    /// for `filters`.
    pub fn open(&self, cursor: &str, filters: &OrderFilters) -> Result<i64, CursorError> {
        let bytes = URL_SAFE_NO_PAD.decode(cursor).map_err(|_| CursorError::Malformed)?;
        if bytes.len() != CURSOR_LEN || bytes[0] != FORMAT {
            return Err(CursorError::Malformed);
        }
        let last_id = i64::from_be_bytes(bytes[1..9].try_into().expect("eight bytes"));
        let mut mac = self.mac.clone();
        feed(&mut mac, last_id, filters);
        mac.verify_truncated_left(&bytes[9..])
            .map_err(|_| CursorError::NotIssuedForTheseFilters)?;
        Ok(last_id)
    }

    fn tag(&self, last_id: i64, filters: &OrderFilters) -> Vec<u8> {
        let mut mac = self.mac.clone();
        feed(&mut mac, last_id, filters);
        mac.finalize().into_bytes().to_vec()
    }
}

/// What a tag covers: the format, the id and every filter, each absent
/// filter written as absent, so that no two sets of filters read the same.
fn feed(mac: &mut Hmac<Sha256>, last_id: i64, filters: &OrderFilters) {
    let OrderFilters {
        status,
        pet_id,
        ship_date_from,
        ship_date_to,
        complete,
    } = filters;
    let canonical = format!(
        "petstore/v2/listOrders\n{FORMAT}\n{last_id}\nstatus={}\npetId={}\nshipDateFrom={}\nshipDateTo={}\ncomplete={}\n",
        written(&status.map(|s| s.as_str())),
        written(pet_id),
        written(&ship_date_from.map(|d| d.to_rfc3339_opts(chrono::SecondsFormat::Nanos, true))),
        written(&ship_date_to.map(|d| d.to_rfc3339_opts(chrono::SecondsFormat::Nanos, true))),
        written(complete),
    );
    mac.update(canonical.as_bytes());
}

fn written<T: std::fmt::Display>(value: &Option<T>) -> String {
    value.as_ref().map_or_else(|| "-".to_string(), |v| format!("={v}"))
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};

    use super::*;
    use crate::storage::OrderStatus;

    fn pending_of_pet_3() -> OrderFilters {
        OrderFilters {
            status: Some(OrderStatus::Pending),
            pet_id: Some(3),
            ..Default::default()
        }
    }

    #[test]
    fn a_cursor_opens_with_the_filters_it_was_issued_for() {
        let signer = CursorSigner::new(b"key");
        let cursor = signer.issue(41, &pending_of_pet_3());
        assert_eq!(signer.open(&cursor, &pending_of_pet_3()), Ok(41));
        assert_eq!(
            signer.open(&signer.issue(-5, &OrderFilters::default()), &OrderFilters::default()),
            Ok(-5)
        );
    }

    #[test]
    fn other_filters_are_refused() {
        let signer = CursorSigner::new(b"key");
        let cursor = signer.issue(41, &pending_of_pet_3());
        let others = [
            OrderFilters::default(),
            OrderFilters {
                pet_id: Some(4),
                ..pending_of_pet_3()
            },
            OrderFilters {
                complete: Some(false),
                ..pending_of_pet_3()
            },
            OrderFilters {
                ship_date_from: Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).single(),
                ..pending_of_pet_3()
            },
            OrderFilters {
                ship_date_to: Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).single(),
                ..pending_of_pet_3()
            },
        ];
        for filters in others {
            assert_eq!(
                signer.open(&cursor, &filters),
                Err(CursorError::NotIssuedForTheseFilters),
                "{filters:?}"
            );
        }
    }

    #[test]
    fn an_altered_or_foreign_cursor_is_refused() {
        let signer = CursorSigner::new(b"key");
        let cursor = signer.issue(41, &OrderFilters::default());
        let mut bytes = URL_SAFE_NO_PAD.decode(&cursor).unwrap();
        bytes[8] ^= 1; // id 41 → 40
        let altered = URL_SAFE_NO_PAD.encode(&bytes);
        assert_eq!(
            signer.open(&altered, &OrderFilters::default()),
            Err(CursorError::NotIssuedForTheseFilters)
        );
        let foreign = CursorSigner::new(b"another key").issue(41, &OrderFilters::default());
        assert_eq!(
            signer.open(&foreign, &OrderFilters::default()),
            Err(CursorError::NotIssuedForTheseFilters)
        );
    }

    #[test]
    fn what_is_not_a_cursor_is_malformed() {
        let signer = CursorSigner::new(b"key");
        for text in ["", "not base64!", "AAAA", &URL_SAFE_NO_PAD.encode([2u8; CURSOR_LEN])] {
            assert_eq!(
                signer.open(text, &OrderFilters::default()),
                Err(CursorError::Malformed),
                "{text}"
            );
        }
    }
}
