//! Instructions counted by callgrind, beside the req/s of the alternated
//! runs: on these machines wall clock moves by more than the request
//! metrics or the log line cost.
//!
//! One run sends `WARM` cached listOrders/100, another `WARM + MEASURED`;
//! the difference over `MEASURED` is a request. The metrics are counted
//! only inside dropshot's request handler (`--toggle-collect`): the
//! process's timers (the file watcher, the reaper), which fire more often
//! the slower valgrind makes a run, stay out of the count. The log line is
//! counted in the whole process, every thread: where a line is formatted
//! and written (the request's thread or the log's writer) is the design
//! being measured.

use std::path::Path;
use std::process::{Command, Stdio};

use super::harness::Bench;
use crate::load::server_process::ServerProcess;

pub(super) const WARM: usize = 50;
pub(super) const MEASURED: usize = 400;
/// dropshot's per-request function, and what it calls: the generated
/// layer, the handler, the reply.
const HANDLER: &str = "--toggle-collect=*http_request_handle_wrap*";

/// Where callgrind counts.
#[derive(Clone, Copy)]
pub(super) enum Counted {
    /// In the request handler only.
    Handler,
    /// In every thread of the process.
    Process,
}

impl Bench {
    /// Instructions per cached listOrders/100 in the request handler, with
    /// the metrics on and off; `None` (and the reason printed) where
    /// valgrind is not installed or a run fails: a count is a measurement
    /// for the table, never a reason for the bench to stop.
    pub(super) fn metrics_instructions(&mut self) -> Option<(f64, f64)> {
        self.counted_pair("the metrics' cost", |bench, db| {
            let quiet = ["--log-level", "error"];
            Ok((
                bench.per_request(db, &[&quiet[..], &["--metrics", "on"]].concat(), Counted::Handler)?,
                bench.per_request(db, &[&quiet[..], &["--metrics", "off"]].concat(), Counted::Handler)?,
            ))
        })
    }

    /// Instructions per cached listOrders/100 in the whole process, at
    /// `--log-level info` (the default: a line per request, written to a
    /// file) and at `error`.
    pub(super) fn logging_instructions(&mut self) -> Option<(f64, f64)> {
        self.counted_pair("the log line's cost", |bench, db| {
            Ok((
                bench.per_request(db, &["--log-level", "info"], Counted::Process)?,
                bench.per_request(db, &["--log-level", "error"], Counted::Process)?,
            ))
        })
    }

    fn counted_pair(
        &mut self,
        what: &str,
        count: impl Fn(&Self, &Path) -> Result<(f64, f64), String>,
    ) -> Option<(f64, f64)> {
        if Command::new("valgrind").arg("--version").output().is_err() {
            println!("bench: skipped (valgrind): not installed; {what} is priced by req/s only");
            return None;
        }
        let counted = |bench: &mut Self| -> Result<(f64, f64), String> {
            let db = bench.database(100)?;
            count(bench, &db)
        };
        match counted(self) {
            Ok(figures) => Some(figures),
            Err(e) => {
                println!("bench: skipped (valgrind): {e}");
                None
            }
        }
    }

    fn per_request(&self, db: &Path, options: &[&str], counted: Counted) -> Result<f64, String> {
        let few = self.instructions(db, options, counted, WARM)?;
        let more = self.instructions(db, options, counted, WARM + MEASURED)?;
        Ok(more.saturating_sub(few) as f64 / MEASURED as f64)
    }

    /// The instructions counted over `requests` requests on one connection.
    fn instructions(&self, db: &Path, options: &[&str], counted: Counted, requests: usize) -> Result<u64, String> {
        let tag = format!("{}-{requests}", options.join("").replace('-', ""));
        let server = self.binaries.join("petstore-server");
        let db = db.display().to_string();
        let mut args = vec!["serve", "--bind", "127.0.0.1:0", "--database", &db];
        args.extend(options);
        let list = Load::Get("/store/orders");
        let text = self.callgrind(&tag, &server, &args, &list, counted, requests)?;
        total(&text).ok_or_else(|| format!("no total in callgrind's output for {tag}"))
    }

    /// Runs `program` with `args` under callgrind, sends it `requests` of
    /// `load` on one connection, stops it, and gives callgrind's output.
    pub(super) fn callgrind(
        &self,
        tag: &str,
        program: &Path,
        args: &[&str],
        load: &Load,
        counted: Counted,
        requests: usize,
    ) -> Result<String, String> {
        let out = self.work.join(format!("callgrind-{tag}.out"));
        let log = std::fs::File::create(self.work.join(format!("callgrind-{tag}.log"))).map_err(|e| e.to_string())?;
        let out_arg = format!("--callgrind-out-file={}", out.display());
        let program = program.display().to_string();
        let mut valgrind = vec!["--tool=callgrind", &out_arg];
        if let Counted::Handler = counted {
            valgrind.push(HANDLER);
        }
        valgrind.push(&program);
        valgrind.extend(args);
        let mut process = ServerProcess::start_logging_to(Path::new("valgrind"), &valgrind, log.into())?;
        let oha = self.oha.as_ref().ok_or("oha is not installed (--quick)")?;
        let mut command = Command::new(oha);
        command.args(["--no-tui", "-n", &requests.to_string(), "-c", "1"]);
        match load {
            Load::Get(path) => command
                .arg("-H")
                .arg(format!("Authorization: Bearer {}", self.key))
                .arg(format!("{}{path}", process.url)),
            Load::Post(path, body) => command
                .args(["-m", "POST", "-T", "application/json", "-D"])
                .arg(body)
                .arg(format!("{}{path}", process.url)),
        };
        let sent = command
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| format!("oha: {e}"))?;
        let stopped = process.stop()?;
        // A server without a handler for SIGTERM (the floor) ends by it:
        // callgrind still writes its counts.
        if !sent.success() || (!stopped && !out.exists()) {
            return Err(format!("the run of {requests} requests under callgrind failed ({tag})"));
        }
        std::fs::read_to_string(&out).map_err(|e| format!("{}: {e}", out.display()))
    }
}

/// What a counted run sends: a GET with the key, or a POST of a JSON file
/// without one; the path after the server's URL.
pub(super) enum Load<'a> {
    Get(&'a str),
    Post(&'a str, &'a Path),
}

/// The whole run's count in callgrind's output.
pub(super) fn total(text: &str) -> Option<u64> {
    text.lines()
        .find_map(|line| line.strip_prefix("totals:").or_else(|| line.strip_prefix("summary:")))
        .and_then(|count| count.split_whitespace().next()?.parse().ok())
}
