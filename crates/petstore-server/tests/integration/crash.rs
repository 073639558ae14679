//! kill -9 during a cancel load, then restart: every cancel that got a 204
//! is still cancelled, no order is in a state nothing asked for, and the
//! SQLite file passes `integrity_check`. 20 cycles on each backend.
//!
//! Why a 204 survives: SQLite runs in WAL mode with `synchronous = FULL`
//! (the WAL is fsync'd at every commit) and PostgreSQL with its defaults
//! (`fsync = on`, `synchronous_commit = on`); the response is sent only
//! after the commit returns.

use crate::support;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::support::ServerProcess;
use petstore_server::storage::sql::SqlStorage;
use petstore_server::storage::{OrderStatus, Storage};
use petstore_server::testing::PostgresTestDatabase;

const CYCLES: usize = 20;
const PENDING: i64 = 4000;
/// Orders PENDING+1..=PENDING+SHIPPED are shipped; cancels aimed at them must
/// change nothing.
const SHIPPED: i64 = 50;
const CLIENTS: usize = 8;

async fn prepare(database: &str) -> String {
    support::seed(database, PENDING, SHIPPED, "crash").await
}

/// One cycle: clients cancel distinct orders (and now and then a shipped
/// one) until the server is killed; gives the ids that got a 204 and all
/// that were asked.
fn load_then_kill(database: &str, key: &str, next: &Arc<AtomicI64>, cycle: usize) -> (BTreeSet<i64>, BTreeSet<i64>) {
    let mut server = ServerProcess::start(database, &[]);
    let acked = Arc::new(Mutex::new(BTreeSet::new()));
    let asked = Arc::new(Mutex::new(BTreeSet::new()));
    let clients: Vec<_> = (0..CLIENTS)
        .map(|client| {
            let (base, key, next) = (server.base_url.clone(), key.to_string(), next.clone());
            let (acked, asked) = (acked.clone(), asked.clone());
            std::thread::spawn(move || {
                for round in 0.. {
                    let id = if round % 10 == client % 10 {
                        PENDING + 1 + (round as i64 % SHIPPED)
                    } else {
                        next.fetch_add(1, Ordering::Relaxed)
                    };
                    if id > PENDING + SHIPPED {
                        return;
                    }
                    asked.lock().unwrap().insert(id);
                    match support::try_http(&format!("{base}/store/orders/{id}"), "DELETE", Some(&key)) {
                        Some((204, _)) => {
                            acked.lock().unwrap().insert(id);
                        }
                        Some((404 | 409, _)) => {}
                        Some((status, body)) => panic!("order {id}: {status} {body}"),
                        // The server died mid-request: no answer, no promise.
                        None => return,
                    }
                }
            })
        })
        .collect();
    // Vary the moment of the kill from cycle to cycle.
    std::thread::sleep(Duration::from_millis(80 + (cycle as u64 * 37) % 250));
    server.signal_and_wait("KILL");
    for client in clients {
        client.join().unwrap();
    }
    let acked = acked.lock().unwrap().clone();
    let asked = asked.lock().unwrap().clone();
    (acked, asked)
}

async fn crash_cycles(database: &str) {
    let key = prepare(database).await;
    let next = Arc::new(AtomicI64::new(1));
    let mut all_acked = BTreeSet::new();
    let mut all_asked = BTreeSet::new();
    // Orders read back cancelled: a cancel is final, so they are not read again.
    let mut seen_cancelled = BTreeSet::new();
    for cycle in 0..CYCLES {
        let (acked, asked) = load_then_kill(database, &key, &next, cycle);
        all_acked.extend(acked);
        all_asked.extend(asked);
        // Restart: open the database as the next server would, and check.
        let storage = SqlStorage::open(database).await.unwrap();
        assert_eq!(storage.integrity_check().await.unwrap(), "ok", "cycle {cycle}");
        // One listing a cycle (the orders not cancelled), and a read of
        // each order that left it since the last cycle: reading all 4,050
        // one by one took most of this test's time.
        let listed: BTreeMap<i64, OrderStatus> = storage
            .list_orders()
            .await
            .unwrap()
            .into_iter()
            .map(|order| (order.id, order.status))
            .collect();
        for id in 1..=PENDING + SHIPPED {
            let status = match listed.get(&id) {
                Some(status) => *status,
                None if seen_cancelled.contains(&id) => OrderStatus::Cancelled,
                None => {
                    let status = storage.get_order(id).await.unwrap().unwrap().status;
                    if status == OrderStatus::Cancelled {
                        seen_cancelled.insert(id);
                    }
                    status
                }
            };
            let expected: &[OrderStatus] = if all_acked.contains(&id) {
                &[OrderStatus::Cancelled]
            } else if id > PENDING {
                &[OrderStatus::Shipped]
            } else if all_asked.contains(&id) {
                // Asked but no answer: either outcome is one somebody asked for.
                &[OrderStatus::Pending, OrderStatus::Cancelled]
            } else {
                &[OrderStatus::Pending]
            };
            assert!(
                expected.contains(&status),
                "cycle {cycle}: order {id} is {status:?}, expected {expected:?}"
            );
        }
        storage.close().await;
    }
    assert!(
        all_acked.len() > CYCLES,
        "the load did cancel orders ({} acknowledged)",
        all_acked.len()
    );
    eprintln!(
        "{} cycles, {} cancels acknowledged, all durable",
        CYCLES,
        all_acked.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_survives_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    crash_cycles(dir.path().join("crash.db").to_str().unwrap()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_survives_kill_9() {
    let Some(db) = PostgresTestDatabase::create("postgres_survives_kill_9").await else {
        return;
    };
    crash_cycles(&db.url).await;
}
