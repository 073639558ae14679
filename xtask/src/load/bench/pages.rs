//! Version 2's pages: a first page of 100 and a page near the end of
//! 100,000 orders, on ours (keyset on the primary key, signed cursors),
//! hand-written (axum, the same keyset SQL, an unsigned cursor) and the
//! limit (the same page's bytes replayed); and our peak memory serving pages
//! of a store ten times smaller, to show that it follows the page, not the
//! store.

use std::path::Path;
use std::process::Command;

use super::{Bench, CONNECTIONS, Figures, Kind, Row};

pub(super) const FIRST: &str = "v2 listOrders, first page of 100, 100000 orders";
pub(super) const LATE: &str = "v2 listOrders, page of 100 after id 99800, 100000 orders";
const SMALL_STORE: &str = "v2 listOrders, first page of 100, 10000 orders";

/// What the goals need beyond the table's rows: our peak RSS serving
/// first pages of the 10,000- and the 100,000-order stores.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PageMemory {
    pub small_store_kib: u64,
    pub large_store_kib: u64,
}

impl Bench {
    pub(super) fn v2_pages(&mut self) -> Result<PageMemory, String> {
        let db = self.database(100_000)?;
        let (first_body, late_body, late_cursor) = self.v2_page_bodies(&db)?;
        let first_query = "limit=100".to_string();
        let late_query = format!("limit=100&cursor={late_cursor}");
        // The hand-written server's cursor is the last id, in the clear.
        let hand_late_query = "limit=100&cursor=99800".to_string();
        for (label, tag, body, ours, hand) in [
            (FIRST, "v2first", &first_body, &first_query, &first_query),
            (LATE, "v2late", &late_body, &late_query, &hand_late_query),
        ] {
            for (kind, query) in [(Kind::Ours, ours), (Kind::HandWritten, hand), (Kind::Limit, ours)] {
                let figures = self.measure(kind, &db, Path::new(body), tag, |bench, url| {
                    bench.oha(&[&v2_orders(url, query)], CONNECTIONS, "GET")
                })?;
                // A page refused (a cursor that does not open) would be
                // measured as cheap: only pages count.
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
            }
        }
        let large_store_kib = self
            .figures(FIRST, Kind::Ours)
            .map(|f| f.peak_rss_kib)
            .unwrap_or_default();
        let small = self.database(10_000)?;
        let figures: Figures = self.measure(Kind::Ours, &small, Path::new(&first_body), "v2small", |bench, url| {
            bench.oha(&[&v2_orders(url, &first_query)], CONNECTIONS, "GET")
        })?;
        let small_store_kib = figures.peak_rss_kib;
        self.rows.push(Row {
            workload: SMALL_STORE.to_string(),
            kind: Kind::Ours,
            figures,
        });
        Ok(PageMemory {
            small_store_kib,
            large_store_kib,
        })
    }

    /// From our server on a copy of `db`: the first page's body, the body
    /// of the page after id 99,800 and that page's cursor (reached by
    /// following `nextCursor`, as a client would), for the limit to replay.
    fn v2_page_bodies(&self, db: &Path) -> Result<(String, String, String), String> {
        // On the database itself, not a copy: the first page stores the
        // cursors' signing key in it, and every copy made after carries it,
        // so the cursor found here opens on every copy.
        let mut server = self.start_ours(&db.display().to_string(), &[])?;
        let first = self.work.join("v2-first.json");
        let late = self.work.join("v2-late.json");
        let first_page = self.get(&v2_orders(&server.url, "limit=100"), &first)?;
        // 99 pages of 1,000 and one of 800: the cursor after id 99,800.
        let mut cursor = String::new();
        for limit in std::iter::repeat_n(1000, 99).chain([800]) {
            let query = match cursor.is_empty() {
                true => format!("limit={limit}"),
                false => format!("limit={limit}&cursor={cursor}"),
            };
            let page = self.get(&v2_orders(&server.url, &query), &self.work.join("v2-walk.json"))?;
            cursor = page["nextCursor"]
                .as_str()
                .ok_or_else(|| format!("the walk ended early, at {query}"))?
                .to_string();
        }
        let late_page = self.get(&v2_orders(&server.url, &format!("limit=100&cursor={cursor}")), &late)?;
        let first_id = |page: &serde_json::Value| page["items"][0]["id"].as_i64();
        if first_id(&first_page) != Some(1) || first_id(&late_page) != Some(99_801) {
            return Err(format!(
                "unexpected v2 pages: first starts at {:?}, late at {:?}",
                first_id(&first_page),
                first_id(&late_page)
            ));
        }
        // Stopped as a user would (SIGTERM): the database is closed before
        // it is copied.
        server.stop()?;
        Ok((first.display().to_string(), late.display().to_string(), cursor))
    }

    /// GETs `url` with the key into `file`; its JSON.
    fn get(&self, url: &str, file: &Path) -> Result<serde_json::Value, String> {
        let output = Command::new("curl")
            .args([
                "-s",
                "-w",
                "%{http_code}",
                "-H",
                &format!("Authorization: Bearer {}", self.key),
                "-o",
            ])
            .arg(file)
            .arg(url)
            .output()
            .map_err(|e| format!("curl: {e}"))?;
        let status = String::from_utf8_lossy(&output.stdout).into_owned();
        let text = std::fs::read_to_string(file).unwrap_or_default();
        if status != "200" {
            return Err(format!(
                "GET {url}: HTTP {status}: {}",
                text.chars().take(300).collect::<String>()
            ));
        }
        serde_json::from_str(&text).map_err(|e| format!("GET {url}: {e}"))
    }
}

/// Version 2's listOrders on the server at `url` (which names `/v1`, as
/// every server's first line does).
fn v2_orders(url: &str, query: &str) -> String {
    format!("{}/v2/store/orders?{query}", url.trim_end_matches("/v1"))
}
