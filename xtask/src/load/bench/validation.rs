//! What the generated layer's checks cost: the kitchen sink's `quoteOrder`
//! (a JSON body of about 1 KB, valid, checked against the spec's NewOrder
//! schema before the handler runs) against the same endpoint on dropshot's
//! `TypedBody` alone (`bench-typed-body`: the same types, configuration and
//! answer), alternated in the same run.

use std::path::{Path, PathBuf};

use super::figures::{Figures, Kind, Row};
use super::harness::Bench;
use crate::load::server_process::ServerProcess;

/// The body every request sends: valid, about 1 KB.
const QUOTE: &str = include_str!("quote.json");

pub(super) const WORKLOAD: &str = "quoteOrder, 1 KB JSON body";

impl Bench {
    /// The 1 KB quote every quoteOrder run sends, as a file in the run's
    /// folder.
    pub(super) fn quote_body(&self) -> Result<PathBuf, String> {
        let body = self.work.join("quote.json");
        std::fs::write(&body, QUOTE).map_err(|e| e.to_string())?;
        Ok(body)
    }

    /// Two rounds of each server, alternated, so that drift in the
    /// machine's speed falls on both; the best of each is compared.
    pub(super) fn validation_cost(&mut self) -> Result<(), String> {
        let body = self.quote_body()?;
        let mut best = [
            (Kind::Generated, Figures::default()),
            (Kind::TypedBody, Figures::default()),
        ];
        for _ in 0..2 {
            for (kind, figures) in best.iter_mut() {
                let measured = self.quote(*kind, &body)?;
                if measured.served_per_second > figures.served_per_second {
                    *figures = measured;
                }
            }
        }
        for (kind, figures) in best {
            self.rows.push(Row {
                workload: WORKLOAD.into(),
                kind,
                figures,
            });
        }
        Ok(())
    }

    fn quote(&self, kind: Kind, body: &Path) -> Result<Figures, String> {
        let server = match kind {
            Kind::Generated => ServerProcess::start(
                &self.binaries.join("kitchen-sink-server"),
                &["--bind", "127.0.0.1:0", "--key", "bench", "--log-level", "error"],
            )?,
            _ => ServerProcess::start(&self.binaries.join("bench-typed-body"), &["--bind", "127.0.0.1:0"])?,
        };
        let mut figures = self.oha_post(&format!("{}/quotes", server.url), body)?;
        figures.peak_rss_kib = server.memory_kib("VmHWM").unwrap_or_default();
        if figures.statuses != format!("200:{}", figures.answered) {
            return Err(format!(
                "{}: not every quote was answered 200: {}",
                kind.name(),
                figures.statuses
            ));
        }
        println!(
            "bench: {:>10} {:<12} {:>9.0} req/s  p50 {:>8.2} ms  p99 {:>8.2} ms",
            "quote",
            kind.name(),
            figures.requests_per_second,
            figures.p50_ms,
            figures.p99_ms
        );
        Ok(figures)
    }
}
