//! Instructions counted by callgrind, beside the req/s of the alternated
//! runs: on these machines wall clock moves by more than the request
//! metrics cost.
//!
//! The server runs under valgrind and counts only inside dropshot's request
//! handler (`--toggle-collect`): the process's timers (the file watcher,
//! the reaper), which fire more often the slower valgrind makes a run,
//! stay out of the count. One run sends `WARM` cached listOrders/100,
//! another `WARM + MEASURED`; the difference over `MEASURED` is a request.

use std::path::Path;
use std::process::{Command, Stdio};

use super::Bench;
use crate::load::server_process::ServerProcess;

const WARM: usize = 50;
const MEASURED: usize = 400;
/// dropshot's per-request function, and what it calls: the generated
/// layer, the handler, the reply.
const HANDLER: &str = "--toggle-collect=*http_request_handle_wrap*";

impl Bench {
    /// Instructions per cached listOrders/100 in the request handler, with
    /// the metrics on and off; `None` (and the reason printed) where
    /// valgrind is not installed or a run fails: a count is a measurement
    /// for the table, never a reason for the bench to stop.
    pub(super) fn metrics_instructions(&mut self) -> Option<(f64, f64)> {
        if Command::new("valgrind").arg("--version").output().is_err() {
            println!("bench: skipped (valgrind): not installed; the metrics' cost is priced by req/s only");
            return None;
        }
        let counted = |bench: &mut Self| -> Result<(f64, f64), String> {
            let db = bench.database(100)?;
            Ok((bench.per_request(&db, "on")?, bench.per_request(&db, "off")?))
        };
        match counted(self) {
            Ok(figures) => Some(figures),
            Err(e) => {
                println!("bench: skipped (valgrind): {e}");
                None
            }
        }
    }

    fn per_request(&self, db: &Path, metrics: &str) -> Result<f64, String> {
        let few = self.handler_instructions(db, metrics, WARM)?;
        let more = self.handler_instructions(db, metrics, WARM + MEASURED)?;
        Ok(more.saturating_sub(few) as f64 / MEASURED as f64)
    }

    /// The handler's instructions over `requests` requests on one connection.
    fn handler_instructions(&self, db: &Path, metrics: &str, requests: usize) -> Result<u64, String> {
        let out = self.work.join(format!("callgrind-{metrics}-{requests}.out"));
        let out_arg = format!("--callgrind-out-file={}", out.display());
        let server = self.binaries.join("petstore-server");
        let (server, db) = (server.display().to_string(), db.display().to_string());
        let args = [
            "--tool=callgrind",
            &out_arg,
            HANDLER,
            &server,
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--log-level",
            "error",
            "--metrics",
            metrics,
            "--database",
            &db,
        ];
        let mut process = ServerProcess::start_logging_to(Path::new("valgrind"), &args, Stdio::null())?;
        let oha = self.oha.as_ref().ok_or("oha is not installed (--quick)")?;
        let sent = Command::new(oha)
            .args(["--no-tui", "-n", &requests.to_string(), "-c", "1", "-H"])
            .arg(format!("Authorization: Bearer {}", self.key))
            .arg(format!("{}/store/orders", process.url))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| format!("oha: {e}"))?;
        let stopped = process.stop()?;
        if !sent.success() || !stopped {
            return Err(format!("the run of {requests} requests under callgrind failed"));
        }
        let text = std::fs::read_to_string(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        text.lines()
            .find_map(|line| line.strip_prefix("totals:").or_else(|| line.strip_prefix("summary:")))
            .and_then(|count| count.split_whitespace().next()?.parse().ok())
            .ok_or_else(|| format!("no total in {}", out.display()))
    }
}
