//! Demo data for `serve --demo`: a few pets, and orders both pending and
//! shipped, so every response of the API can be tried at once.

use chrono::{TimeZone, Utc};

use crate::storage::{ImportData, ImportOrder, ImportPet, ImportStatus};

pub fn data() -> ImportData {
    let pets = ["Rex", "Whiskers", "Bubbles", "Polly"]
        .iter()
        .zip(1..)
        .map(|(name, id)| ImportPet {
            id,
            name: name.to_string(),
        })
        .collect();
    let orders = (1..=6)
        .map(|id: i64| {
            let shipped = id % 3 == 0;
            ImportOrder {
                id,
                pet_id: Some((id - 1) % 4 + 1),
                quantity: Some(id % 2 + 1),
                ship_date: Utc.with_ymd_and_hms(2026, 12, id as u32, 9, 0, 0).single(),
                complete: Some(shipped),
                status: if shipped {
                    ImportStatus::Shipped
                } else {
                    ImportStatus::Pending
                },
            }
        })
        .collect();
    ImportData { pets, orders }
}
