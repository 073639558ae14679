//! `cargo xtask bench [--quick | --costs | --check | --link-order]`: every figure is a ratio against baselines
//! measured in the same run, because these machines are shared and noisy.
//!
//! Four servers answer the same workloads on copies of the same database:
//! ours (`petstore-server`), the limit (pre-serialized bytes over bare
//! hyper), the dropshot floor (the same bytes through dropshot, to show
//! what the framework itself costs) and hand-written (axum, same SQL, same
//! durability), the last three in `crates/petstore-bench`. The load comes
//! from a separate process on loopback: oha (pinned, installed into
//! `.tools/oha`) for listOrders, and our `petstore-load` where cancels must
//! hit distinct orders (and for everything under `--quick`, which checks
//! that the bench runs rather than measures: in CI, on the dev profile the
//! tests built already, not a release build of its own). [`pages`] measures version 2's pages; [`validation`] prices the generated layer's request
//! checks on the kitchen sink; [`generators`] run the load; [`report`] writes the
//! results; [`cost_table`] counts what each part of a request costs
//! (`--costs` alone); [`release_check`] is CI's check in release (`--check`);
//! [`link_order`] writes the list of functions the linker places together
//! in our server (`--link-order`).

use std::path::{Path, PathBuf};
use std::process::Command;

mod callgrind_profile;
mod cost_table;
mod databases;
mod figures;
mod generators;
mod harness;
mod instructions;
mod link_order;
mod pages;
mod postgres;
mod release_check;
mod report;
mod rounds;
mod validation;

use crate::load::server_process::{ServerProcess, check};
use figures::{Figures, Kind, Replay, Row};
use harness::{Bench, CONNECTIONS};

/// What `cargo xtask bench` was asked for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Every workload, in release, written to BENCHMARKS.md.
    Full,
    /// Every row for a second, on the dev profile: the harness runs.
    Quick,
    /// The cost table alone, in release: a few minutes, nothing written.
    Costs,
    /// CI's release check ([`release_check`]).
    Check,
    /// The server's link order, measured and written ([`link_order`]).
    LinkOrder,
}

pub fn run(root: &Path, args: &[String]) -> Result<(), String> {
    let mode = match args {
        [] => Mode::Full,
        [flag] if flag == "--quick" => Mode::Quick,
        [flag] if flag == "--costs" => Mode::Costs,
        [flag] if flag == "--check" => Mode::Check,
        [flag] if flag == "--link-order" => Mode::LinkOrder,
        _ => return Err("usage: cargo xtask bench [--quick | --costs | --check | --link-order]".into()),
    };
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // `--quick` checks the harness: the dev profile, whose dependencies
    // the tests have built, spares CI a release build of minutes.
    let profile = match mode {
        Mode::Quick => "--profile=dev",
        _ => "--release",
    };
    check(
        Command::new(&cargo)
            .current_dir(root)
            .args(["build", profile, "--quiet"])
            .args(binaries(mode))
            .status(),
        &format!("cargo build {profile}"),
    )?;
    let oha = match mode {
        Mode::Full | Mode::Costs => Some(generators::install_oha(root, &cargo)?),
        Mode::Quick | Mode::Check | Mode::LinkOrder => None,
    };
    let work = std::env::temp_dir().join(format!("petstore-bench-{}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    let mut bench = Bench {
        work: work.clone(),
        binaries: root.join(match mode {
            Mode::Quick => "target/debug",
            _ => "target/release",
        }),
        oha,
        // `--quick` checks that every row runs: a second a row does.
        seconds: match mode {
            Mode::Quick => 1,
            Mode::Check => release_check::SECONDS,
            Mode::Full | Mode::Costs | Mode::LinkOrder => 10,
        },
        key: String::new(),
        databases: Default::default(),
        rows: Vec::new(),
        list_rounds: None,
        reaper: (0.0, 0.0),
        log_line: (0.0, 0.0),
        log_instructions: None,
        metrics: (0.0, 0.0),
        metrics_instructions: None,
        costs: None,
    };
    let result = match mode {
        Mode::Costs => bench
            .cost_table()
            .map(|(table, of_floor, checks)| {
                println!(
                    "{table}\nlistOrders/100: {of_floor:.2}× the floor's instructions; quoteOrder's checks: {:.1} % of its",
                    checks * 100.0
                );
            })
            .ok_or_else(|| "no cost table: valgrind did not run".to_string()),
        Mode::Check => bench
            .link_order_check(root, &bench.binaries.join("petstore-server"))
            .and_then(|()| bench.release_check()),
        Mode::LinkOrder => bench.link_order(root),
        Mode::Full | Mode::Quick => bench.all().and_then(|(table, goals)| {
            if mode == Mode::Quick {
                println!(
                    "(--quick: the dev profile, 1 s a row, at most {} connections: the figures show the bench runs, not the service's speed)",
                    generators::QUICK_CONNECTIONS
                );
            }
            println!("{table}\n{goals}");
            let loop_figures = report::designer_loop(root, &cargo)?;
            println!("{loop_figures}");
            if mode == Mode::Full {
                let document = report::benchmarks_md(&table, &goals, &loop_figures);
                std::fs::write(root.join("BENCHMARKS.md"), document).map_err(|e| e.to_string())?;
                println!("wrote BENCHMARKS.md");
            }
            Ok(())
        }),
    };
    match mode {
        // Kept for `callgrind_annotate`: where a part's instructions go.
        Mode::Costs => println!("callgrind's files: {}", work.display()),
        _ => {
            let _ = std::fs::remove_dir_all(&work);
        }
    }
    result
}

/// What `mode` builds. The check needs our server and the floor only (wrk
/// loads them): neither the other baselines nor the kitchen sink, which
/// only bench-typed-body needs (`.ci/run` builds the same, beside other
/// phases).
fn binaries(mode: Mode) -> &'static [&'static str] {
    match mode {
        Mode::Check => &[
            "-p",
            "petstore-server",
            "-p",
            "petstore-bench",
            "--no-default-features",
            "--bin",
            "petstore-server",
            "--bin",
            "bench-dropshot",
        ],
        Mode::LinkOrder => &["-p", "petstore-server", "--bin", "petstore-server"],
        _ => &[
            "-p",
            "petstore-server",
            "-p",
            "petstore-bench",
            "-p",
            "kitchen-sink",
            "--bins",
        ],
    }
}

impl Bench {
    fn all(&mut self) -> Result<(String, String), String> {
        for size in [100, 10_000, 100_000] {
            self.workload(
                size,
                &format!("listOrders, {size} orders"),
                &format!("list{size}"),
                Replay::OursFirstList,
                |bench, url| bench.oha(&[&format!("{url}/store/orders")], CONNECTIONS, "GET"),
            )?;
        }
        self.list_rounds = Some(self.list_rounds()?);
        // What the connection reaper and the per-request log line cost.
        self.reaper = self.alternated(Kind::OursWithoutReaper)?;
        self.log_line = self.alternated(Kind::OursLoggingErrorsOnly)?;
        self.log_instructions = self.logging_instructions();
        self.metrics = self.alternated(Kind::OursWithoutMetrics)?;
        self.metrics_instructions = self.metrics_instructions();
        // Cancels of distinct pending orders, each durable: more orders
        // than a run can cancel (40,000 a second, above what any server
        // here answers), so that every cancel finds a pending order rather
        // than a 404.
        self.workload(
            40_000 * self.seconds as i64,
            "cancelOrder, distinct pending orders",
            "cancel",
            Replay::OursFirstList,
            |bench, url| bench.load(url, 100),
        )?;
        // 90/10 by requests, cancels on distinct orders: 10,000 orders, so
        // that the cancels do not run out and the list keeps its size.
        self.workload(
            10_000,
            "90/10 listOrders/cancelOrder, 10000 orders",
            "mix",
            Replay::OursMeanList,
            |bench, url| bench.load(url, 10),
        )?;
        let pages = self.v2_pages()?;
        let memory = self.memory_with_large_lists()?;
        self.validation_cost()?;
        self.costs = self.cost_table();
        Ok((self.table(), self.goals(&memory, &pages)))
    }

    /// Runs one workload against each server, on a fresh copy of the
    /// database of `size` orders; the floor and the limit replay the list
    /// as `replay` says.
    fn workload(
        &mut self,
        size: i64,
        label: &str,
        tag: &str,
        replay: Replay,
        load: impl Fn(&Self, &str) -> Result<Figures, String>,
    ) -> Result<(), String> {
        let db = self.database(size)?;
        let mut body = self.list_body(&db)?;
        for kind in [Kind::Ours, Kind::HandWritten, Kind::DropshotFloor, Kind::Limit] {
            if kind == Kind::DropshotFloor && replay == Replay::OursMeanList {
                let ours = self.figures(label, Kind::Ours).ok_or("ours ran first")?;
                let mean = (size as u64).saturating_sub(ours.cancelled / 2);
                println!(
                    "bench: {tag:>10} ours cancelled {} orders: the floor and the limit replay a list of {mean}",
                    ours.cancelled
                );
                body = self.first_orders(&body, mean as usize)?;
            }
            let figures = self.measure(kind, &db, &body, tag, &load)?;
            self.rows.push(Row {
                workload: label.to_string(),
                kind,
                figures,
            });
        }
        Ok(())
    }

    /// Our server on `database` (a SQLite file or a PostgreSQL URL) at its
    /// defaults (log level info, metrics on, reaper on) but for `extra`,
    /// its log written to a file in the run's folder, as a service's log
    /// would be (not to this terminal).
    fn start_ours(&self, database: &str, extra: &[&str]) -> Result<ServerProcess, String> {
        let path = self.work.join("ours.log");
        let log = std::fs::File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut args = vec!["serve", "--bind", "127.0.0.1:0", "--database", database];
        args.extend_from_slice(extra);
        ServerProcess::start_logging_to(&self.binaries.join("petstore-server"), &args, log.into())
    }

    /// Our listOrders response body, for the limit server to replay.
    fn list_body(&self, db: &Path) -> Result<PathBuf, String> {
        let copy = self.copy(db, "body")?;
        let server = self.start_ours(&copy, &[])?;
        let body = self
            .work
            .join(format!("{}.body.json", db.file_stem().unwrap().to_string_lossy()));
        self.get(&format!("{}/store/orders", server.url), &body)?;
        Ok(body)
    }

    /// GETs `url` with the key into `file`; its JSON, when the answer is 200.
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

    fn measure(
        &mut self,
        kind: Kind,
        db: &Path,
        body: &Path,
        tag: &str,
        load: impl Fn(&Self, &str) -> Result<Figures, String>,
    ) -> Result<Figures, String> {
        let copy = self.copy(db, &format!("{tag}-{}", kind.name()))?;
        let body = body.display().to_string();
        let server = match kind {
            Kind::OursOnPostgres => return Err("ours on PostgreSQL is measured by measure_server".into()),
            Kind::Ours => self.start_ours(&copy, &[])?,
            Kind::OursWithoutReaper => self.start_ours(&copy, &["--keep-silent-connections"])?,
            Kind::OursWithoutMetrics => self.start_ours(&copy, &["--metrics", "off"])?,
            Kind::OursLoggingErrorsOnly => self.start_ours(&copy, &["--log-level", "error"])?,
            Kind::HandWritten => {
                ServerProcess::start(&self.binaries.join("bench-handwritten"), &["--database", &copy])?
            }
            Kind::DropshotFloor => {
                ServerProcess::start(&self.binaries.join("bench-dropshot"), &["--body-file", &body])?
            }
            Kind::Limit => ServerProcess::start(&self.binaries.join("bench-limit"), &["--body-file", &body])?,
            Kind::Generated | Kind::TypedBody => return Err("quoteOrder is measured by validation_cost".into()),
        };
        self.measure_server(kind, server, tag, load)
    }

    /// `load` on `server`, which runs as `kind`: its figures, printed.
    fn measure_server(
        &mut self,
        kind: Kind,
        server: ServerProcess,
        tag: &str,
        load: impl Fn(&Self, &str) -> Result<Figures, String>,
    ) -> Result<Figures, String> {
        let mut figures = load(self, &server.url)?;
        figures.peak_rss_kib = server.memory_kib("VmHWM").unwrap_or_default();
        println!(
            "bench: {tag:>10} {:<12} {:>9.0} req/s  p50 {:>8.2} ms  p99 {:>8.2} ms  errors {}  {}",
            kind.name(),
            figures.requests_per_second,
            figures.p50_ms,
            figures.p99_ms,
            figures.errors,
            figures.statuses
        );
        Ok(figures)
    }

    /// Peak RSS of our server while 8 requests for the 100,000-order list
    /// run at once, against the size of one response.
    fn memory_with_large_lists(&mut self) -> Result<(u64, u64), String> {
        let db = self.database(100_000)?;
        let body = self.list_body(&db)?;
        let body_kib = std::fs::metadata(&body).map_err(|e| e.to_string())?.len() / 1024;
        let figures = self.measure(Kind::Ours, &db, &body, "rss8", |bench, url| {
            bench.oha(&[&format!("{url}/store/orders")], 8, "GET")
        })?;
        Ok((figures.peak_rss_kib, body_kib))
    }

    fn figures(&self, workload: &str, kind: Kind) -> Option<&Figures> {
        self.rows
            .iter()
            .find(|r| r.workload == workload && r.kind == kind)
            .map(|r| &r.figures)
    }
}
