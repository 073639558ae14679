//! Version 2's pages out of 100,000 orders, on ours (keyset on the
//! primary key, signed cursors, the page cache), hand-written (axum, the
//! same keyset SQL, an unsigned cursor, no cache) and the limit (a page's
//! bytes replayed):
//!
//! - the first page, asked for again and again (a hot page: ours serves it
//!   from its page cache);
//! - 800 distinct pages starting after ids 1 to 800, and 800 starting after
//!   ids 99,001 to 99,800 (each load cycles through more pages than the
//!   cache holds, so ours reads nearly every one): early against late pages
//!   shows whether a page's cost depends on where it is;
//!
//! and our peak memory serving the first page of a store ten times smaller,
//! to show that it follows the page, not the store. Where a PostgreSQL
//! server is named, ours also reads the early and late pages from it.

use std::path::Path;

use std::process::Stdio;

use super::figures::{Figures, Kind, Row};
use super::harness::{Bench, CONNECTIONS};
use super::postgres::PostgresDatabase;
use crate::load::server_process::seed_database;

pub(super) const FIRST: &str = "v2 listOrders, the first page of 100 again and again, 100000 orders";
pub(super) const EARLY: &str = "v2 listOrders, 800 distinct pages of 100 after ids 1-800, 100000 orders";
pub(super) const LATE: &str = "v2 listOrders, 800 distinct pages of 100 after ids 99001-99800, 100000 orders";
const SMALL_STORE: &str = "v2 listOrders, the first page of 100 again and again, 10000 orders";
/// Distinct pages per load: more than the page cache holds.
const DISTINCT: usize = 800;

/// What the goals need beyond the table's rows: our peak RSS serving
/// first pages of the 10,000- and the 100,000-order stores.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PageMemory {
    pub small_store_kib: u64,
    pub large_store_kib: u64,
}

/// The pages a load asks for: each server's queries, and a page's bytes
/// for the limit to replay.
struct Pages {
    label: &'static str,
    tag: &'static str,
    ours: Vec<String>,
    hand_written: Vec<String>,
    body: String,
}

impl Bench {
    pub(super) fn v2_pages(&mut self) -> Result<PageMemory, String> {
        let db = self.database(100_000)?;
        let loads = self.v2_page_loads(&db.display().to_string())?;
        for pages in &loads {
            for kind in [Kind::Ours, Kind::HandWritten, Kind::Limit] {
                let queries = match kind {
                    Kind::HandWritten => &pages.hand_written,
                    _ => &pages.ours,
                };
                let figures = self.measure(kind, &db, Path::new(&pages.body), pages.tag, |bench, url| {
                    bench.oha_pages(url, pages.tag, kind, queries)
                })?;
                self.push_pages(pages.label, kind, figures)?;
            }
        }
        let large_store_kib = self
            .figures(FIRST, Kind::Ours)
            .map(|f| f.peak_rss_kib)
            .unwrap_or_default();
        let small = self.database(10_000)?;
        let first = &loads[0];
        let figures: Figures = self.measure(Kind::Ours, &small, Path::new(&first.body), "v2small", |bench, url| {
            bench.oha_pages(url, "v2small", Kind::Ours, &first.ours)
        })?;
        let small_store_kib = figures.peak_rss_kib;
        self.rows.push(Row {
            workload: SMALL_STORE.to_string(),
            kind: Kind::Ours,
            figures,
        });
        self.v2_read_pages_on_postgres()?;
        Ok(PageMemory {
            small_store_kib,
            large_store_kib,
        })
    }

    /// Ours on PostgreSQL, the two loads of read pages, where a server is
    /// named: the same 100,000 orders, cursors found by a walk of their
    /// own (the signing key is the database's).
    fn v2_read_pages_on_postgres(&mut self) -> Result<(), String> {
        let database = match PostgresDatabase::create() {
            Ok(database) => database,
            Err(why) => {
                println!("bench: no PostgreSQL rows: {why}");
                return Ok(());
            }
        };
        let data = self.work.join("orders-100000.json");
        let key = seed_database(
            &self.binaries.join("petstore-server"),
            &database.url,
            &data,
            "bench",
            Stdio::null(),
        )?;
        let sqlite_key = std::mem::replace(&mut self.key, key);
        let measured = self.read_pages_on(&database.url);
        self.key = sqlite_key;
        measured
    }

    fn read_pages_on(&mut self, database: &str) -> Result<(), String> {
        let [_, early, late] = self.v2_page_loads(database)?;
        for pages in [early, late] {
            let server = self.start_ours(database, &[])?;
            let kind = Kind::OursOnPostgres;
            let figures = self.measure_server(kind, server, pages.tag, |bench, url| {
                bench.oha_pages(url, pages.tag, kind, &pages.ours)
            })?;
            self.push_pages(pages.label, kind, figures)?;
        }
        Ok(())
    }

    /// A row of pages. A page refused (a cursor that does not open) would
    /// be measured as cheap: only pages count.
    fn push_pages(&mut self, label: &str, kind: Kind, figures: Figures) -> Result<(), String> {
        if figures.statuses.split_whitespace().any(|s| !s.starts_with("200:")) {
            return Err(format!(
                "{label} on {}: not every answer was a page: {}",
                kind.name(),
                figures.statuses
            ));
        }
        self.rows.push(Row {
            workload: label.to_string(),
            kind,
            figures,
        });
        Ok(())
    }

    /// oha for `queries` on the server at `url`: one URL, or a file of them.
    fn oha_pages(&self, url: &str, tag: &str, kind: Kind, queries: &[String]) -> Result<Figures, String> {
        if let [query] = queries {
            return self.oha(&[&v2_orders(url, query)], CONNECTIONS, "GET");
        }
        let file = self.work.join(format!("{tag}-{}.urls", kind.name().replace(' ', "-")));
        let urls: Vec<String> = queries.iter().map(|query| v2_orders(url, query)).collect();
        std::fs::write(&file, urls.join("\n") + "\n").map_err(|e| e.to_string())?;
        let file = file.display().to_string();
        self.oha(&["--urls-from-file", &file], CONNECTIONS, "GET")
    }

    /// The three loads, found with our server on `database` by following
    /// `nextCursor` as a client would: the cursors after ids 1 to 800 and
    /// after 99,001 to 99,800, and the first and a late page's bytes.
    fn v2_page_loads(&self, database: &str) -> Result<[Pages; 3], String> {
        // On the database itself, not a copy: the first page stores the
        // cursors' signing key in it, and every copy made after carries it,
        // so the cursors found here open on every copy.
        let mut server = self.start_ours(database, &[])?;
        let walk = self.work.join("v2-walk.json");
        let first = self.work.join("v2-first.json");
        let late = self.work.join("v2-late.json");
        let page = |query: &str, file: &Path| self.get(&v2_orders(&server.url, query), file);
        let next = |page: &serde_json::Value| {
            page["nextCursor"].as_str().map(String::from).ok_or_else(|| {
                format!(
                    "the walk ended early: {}",
                    page["items"].to_string().chars().take(100).collect::<String>()
                )
            })
        };
        page("limit=100", &first)?;
        // Cursors after ids 1..=800, a page of one at a time.
        let mut early = vec![next(&page("limit=1", &walk)?)?];
        while early.len() < DISTINCT {
            let cursor = early.last().expect("one at least");
            early.push(next(&page(&format!("limit=1&cursor={cursor}"), &walk)?)?);
        }
        // After id 99,000 by pages of 1,000, then one at a time.
        let mut cursor = next(&page("limit=1000", &walk)?)?;
        for _ in 1..99 {
            cursor = next(&page(&format!("limit=1000&cursor={cursor}"), &walk)?)?;
        }
        let mut late_cursors = Vec::new();
        while late_cursors.len() < DISTINCT {
            cursor = next(&page(&format!("limit=1&cursor={cursor}"), &walk)?)?;
            late_cursors.push(cursor.clone());
        }
        let late_page = page(&format!("limit=100&cursor={cursor}"), &late)?;
        if late_page["items"][0]["id"].as_i64() != Some(99_801) {
            return Err(format!("the late page starts at {}", late_page["items"][0]["id"]));
        }
        // Stopped as a user would (SIGTERM): the database is closed before
        // it is copied.
        server.stop()?;
        let queries = |cursors: &[String]| {
            cursors
                .iter()
                .map(|c| format!("limit=100&cursor={c}"))
                .collect::<Vec<_>>()
        };
        // The hand-written server's cursor is the last id, in the clear.
        let hand_written = |from: i64| {
            (from..from + DISTINCT as i64)
                .map(|id| format!("limit=100&cursor={id}"))
                .collect::<Vec<_>>()
        };
        let (first, late) = (first.display().to_string(), late.display().to_string());
        Ok([
            Pages {
                label: FIRST,
                tag: "v2first",
                ours: vec!["limit=100".into()],
                hand_written: vec!["limit=100".into()],
                body: first.clone(),
            },
            Pages {
                label: EARLY,
                tag: "v2early",
                ours: queries(&early),
                hand_written: hand_written(1),
                body: first,
            },
            Pages {
                label: LATE,
                tag: "v2late",
                ours: queries(&late_cursors),
                hand_written: hand_written(99_001),
                body: late,
            },
        ])
    }
}

/// Version 2's listOrders on the server at `url` (which names `/v1`, as
/// every server's first line does).
fn v2_orders(url: &str, query: &str) -> String {
    format!("{}/v2/store/orders?{query}", url.trim_end_matches("/v1"))
}
