//! The pool's SQLite connections, as opened.

use super::SqlStorage;

/// The pool's connections, each of which may read the whole list,
/// cache few pages (see `PAGE_CACHE_KIB`; the request threads' are
/// tested in `thread_reads.rs`).
#[tokio::test]
async fn every_pooled_sqlite_connection_caches_at_most_page_cache_kib() {
    let dir = tempfile::tempdir().unwrap();
    let storage = SqlStorage::open(dir.path().join("t.db").to_str().unwrap())
        .await
        .unwrap();
    // Held together, so that each is a different connection.
    let mut held = Vec::new();
    for _ in 0..crate::storage::backend::SQLITE_CONNECTIONS {
        held.push(storage.pool.acquire().await.unwrap());
    }
    for conn in &mut held {
        let size: i64 = sqlx::query_scalar("PRAGMA cache_size")
            .fetch_one(&mut **conn)
            .await
            .unwrap();
        assert_eq!(size, -i64::from(crate::storage::backend::PAGE_CACHE_KIB));
    }
}
