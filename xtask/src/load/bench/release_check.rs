//! `cargo xtask bench --check`, CI's release check: cached listOrders/100
//! on our server against the dropshot floor, both built in release, in
//! alternated rounds. It fails when ours falls below [`FLOOR_SHARE`] of
//! the floor's throughput in every round.
//!
//! The load is wrk's (Debian's package, which CI installs; oha would be
//! built from source for minutes): a C client light enough that the
//! servers, not it, set the pace. Under our own `petstore-load` both
//! servers ran at the client's pace (ours 0.93–1.02× the floor), which
//! would hide any regression; under wrk the rounds of one binary agree
//! within a few percent.
//!
//! Why every round and not one: on these shared two-core machines one
//! run of the same binary moves by ±15 % (BENCHMARKS.md), so a single
//! round below the line is as likely noise as a regression; a change that
//! costs ours a fifth of its throughput puts every round below it.

use std::process::Command;

use super::harness::{Bench, CONNECTIONS};
use crate::load::server_process::ServerProcess;

/// The share of the floor's throughput below which the check fails.
pub(super) const FLOOR_SHARE: f64 = 0.7;
/// Rounds of floor-then-ours.
const ROUNDS: usize = 5;
/// Seconds of load per server per round.
pub(super) const SECONDS: u64 = 5;

impl Bench {
    pub(super) fn release_check(&mut self) -> Result<(), String> {
        let db = self.database(100)?;
        let body = self.list_body(&db)?;
        let body = body.display().to_string();
        let mut shares = Vec::new();
        for round in 1..=ROUNDS {
            let floor = {
                let server = ServerProcess::start(&self.binaries.join("bench-dropshot"), &["--body-file", &body])?;
                self.wrk(&server.url)?
            };
            let ours = {
                let server = self.start_ours(&self.copy(&db, &format!("check-{round}"))?, &[])?;
                self.wrk(&server.url)?
            };
            let share = ours / floor;
            println!(
                "bench --check: round {round}: ours {ours:.0} req/s, the floor {floor:.0} req/s: {share:.2}× the floor"
            );
            shares.push(share);
        }
        let best = shares.iter().copied().fold(0.0, f64::max);
        match best >= FLOOR_SHARE {
            true => {
                println!("bench --check: passed: the best round {best:.2}× the floor (the line: {FLOOR_SHARE}×)");
                Ok(())
            }
            false => Err(format!(
                "listOrders/100 fell below {FLOOR_SHARE}× the dropshot floor in every round \
                 (best {best:.2}×): the release path got slower; `cargo xtask bench --costs` counts \
                 where a request's instructions go"
            )),
        }
    }
}

impl Bench {
    /// wrk's requests a second on `url`'s listOrders, with the key; an
    /// error when a request failed or was answered other than 2xx.
    fn wrk(&self, url: &str) -> Result<f64, String> {
        let output = Command::new("wrk")
            .args([
                "-t",
                "2",
                "-c",
                &CONNECTIONS.to_string(),
                "-d",
                &format!("{}s", self.seconds),
            ])
            .args(["-H", &format!("Authorization: Bearer {}", self.key)])
            .arg(format!("{url}/store/orders"))
            .output()
            .map_err(|e| format!("wrk (Debian's package wrk; CI installs it): {e}"))?;
        let text = String::from_utf8_lossy(&output.stdout);
        if !output.status.success() || text.contains("Non-2xx") || text.contains("Socket errors") {
            return Err(format!(
                "wrk on {url}: {text}{}",
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        text.lines()
            .find_map(|line| line.trim().strip_prefix("Requests/sec:"))
            .and_then(|rate| rate.trim().parse().ok())
            .ok_or_else(|| format!("wrk printed no rate: {text}"))
    }
}
