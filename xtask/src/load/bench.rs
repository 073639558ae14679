//! `cargo xtask bench [--quick]`: every figure is a ratio against baselines
//! measured in the same run, because these machines are shared and noisy.
//!
//! Four servers answer the same workloads on copies of the same database:
//! ours (`petstore-server`), the limit (pre-serialized bytes over bare
//! hyper), the dropshot floor (the same bytes through dropshot, to show
//! what the framework itself costs) and hand-written (axum, same SQL, same
//! durability), the last three in `crates/petstore-bench`. The load comes from a separate process on
//! loopback: oha (pinned, installed into `.tools/oha`) for listOrders, and
//! our `petstore-load` where cancels must hit distinct orders.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::load::server_process::{ServerProcess, check, seed_database};

const OHA_VERSION: &str = "1.16.0";
const CONNECTIONS: usize = 64;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Ours,
    /// Ours with `--keep-silent-connections`: what the connection reaper
    /// costs.
    OursWithoutReaper,
    HandWritten,
    /// The same bytes as the limit, through dropshot: the framework's own
    /// ceiling.
    DropshotFloor,
    Limit,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Ours => "ours",
            Kind::OursWithoutReaper => "ours, no reaper",
            Kind::HandWritten => "hand-written",
            Kind::DropshotFloor => "dropshot floor",
            Kind::Limit => "limit",
        }
    }
}

/// One oha run's figures.
#[derive(Clone, Debug, Default)]
struct Figures {
    requests_per_second: f64,
    /// Requests per second that were answered without a 5xx or a
    /// connection error: what the ratios compare.
    served_per_second: f64,
    p50_ms: f64,
    p99_ms: f64,
    p999_ms: f64,
    errors: u64,
    statuses: String,
    peak_rss_kib: u64,
}

struct Row {
    workload: String,
    kind: Kind,
    figures: Figures,
}

struct Bench {
    work: PathBuf,
    release: PathBuf,
    oha: PathBuf,
    seconds: u64,
    /// The key of the database in use.
    key: String,
    /// Databases made so far: size → (file, its key).
    databases: std::collections::BTreeMap<i64, (PathBuf, String)>,
    rows: Vec<Row>,
    /// listOrders/100 with and without the connection reaper, alternated:
    /// the best served req/s of each.
    reaper: (f64, f64),
}

pub fn run(root: &Path, args: &[String]) -> Result<(), String> {
    let quick = match args {
        [] => false,
        [flag] if flag == "--quick" => true,
        _ => return Err("usage: cargo xtask bench [--quick]".into()),
    };
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    check(
        Command::new(&cargo)
            .current_dir(root)
            .args([
                "build",
                "--release",
                "--quiet",
                "-p",
                "petstore-server",
                "-p",
                "petstore-bench",
                "-p",
                "petstore-tests",
                "--bins",
            ])
            .status(),
        "cargo build --release",
    )?;
    let oha = install_oha(root, &cargo)?;
    let work = std::env::temp_dir().join(format!("petstore-bench-{}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    let mut bench = Bench {
        work: work.clone(),
        release: root.join("target/release"),
        oha,
        seconds: if quick { 3 } else { 10 },
        key: String::new(),
        databases: Default::default(),
        rows: Vec::new(),
        reaper: (0.0, 0.0),
    };
    let result = bench.all();
    let _ = std::fs::remove_dir_all(&work);
    let (table, goals) = result?;
    println!("{table}\n{goals}");
    let loop_figures = designer_loop(root, &cargo)?;
    println!("{loop_figures}");
    if !quick {
        let document = benchmarks_md(&table, &goals, &loop_figures);
        std::fs::write(root.join("BENCHMARKS.md"), document).map_err(|e| e.to_string())?;
        println!("wrote BENCHMARKS.md");
    }
    Ok(())
}

/// oha at the pinned version, installed from crates.io on first use.
fn install_oha(root: &Path, cargo: &str) -> Result<PathBuf, String> {
    let tools = root.join(".tools/oha");
    let oha = tools.join("bin/oha");
    let version = Command::new(&oha)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
    if version.is_some_and(|v| v.contains(OHA_VERSION)) {
        return Ok(oha);
    }
    println!("installing oha {OHA_VERSION} into .tools/oha (once)");
    check(
        Command::new(cargo)
            .args(["install", "oha", "--version", OHA_VERSION, "--locked", "--root"])
            .arg(&tools)
            .status(),
        "cargo install oha",
    )?;
    Ok(oha)
}

impl Bench {
    fn all(&mut self) -> Result<(String, String), String> {
        for size in [100, 10_000, 100_000] {
            self.workload(
                size,
                &format!("listOrders, {size} orders"),
                &format!("list{size}"),
                |bench, url| bench.oha(&[&format!("{url}/store/orders")], CONNECTIONS, "GET"),
            )?;
        }
        self.reaper_cost()?;
        // Cancels of distinct pending orders, each durable.
        self.workload(
            100_000,
            "cancelOrder, distinct pending orders",
            "cancel",
            |bench, url| bench.load(url, 100),
        )?;
        // 90/10 by requests, cancels on distinct orders: 10,000 orders, so
        // that the cancels do not run out and the list keeps its size.
        self.workload(
            10_000,
            "90/10 listOrders/cancelOrder, 10000 orders",
            "mix",
            |bench, url| bench.load(url, 10),
        )?;
        let memory = self.memory_with_large_lists()?;
        Ok((self.table(), self.goals(&memory)))
    }

    /// Runs one workload against each server, on a fresh copy of the
    /// database of `size` orders.
    fn workload(
        &mut self,
        size: i64,
        label: &str,
        tag: &str,
        load: impl Fn(&Self, &str) -> Result<Figures, String>,
    ) -> Result<(), String> {
        let db = self.database(size)?;
        let body = self.list_body(&db)?;
        for kind in [Kind::Ours, Kind::HandWritten, Kind::DropshotFloor, Kind::Limit] {
            let figures = self.measure(kind, &db, &body, tag, &load)?;
            self.rows.push(Row {
                workload: label.to_string(),
                kind,
                figures,
            });
        }
        Ok(())
    }

    /// A database of `size` pending orders (and a key), made with our CLI
    /// on first use; its key becomes the one the load sends.
    fn database(&mut self, size: i64) -> Result<PathBuf, String> {
        if let Some((db, key)) = self.databases.get(&size) {
            self.key = key.clone();
            return Ok(db.clone());
        }
        let db = self.work.join(format!("orders-{size}.db"));
        let pets: Vec<String> = (1..=10)
            .map(|id| format!(r#"{{"id":{id},"name":"pet {id}"}}"#))
            .collect();
        let orders: Vec<String> = (1..=size)
            .map(|id| {
                format!(
                    r#"{{"id":{id},"petId":{},"quantity":{},"shipDate":"2026-12-01T09:00:00Z","complete":false,"status":"pending"}}"#,
                    id % 10 + 1,
                    id % 3 + 1
                )
            })
            .collect();
        let data = self.work.join(format!("orders-{size}.json"));
        std::fs::write(
            &data,
            format!(r#"{{"pets":[{}],"orders":[{}]}}"#, pets.join(","), orders.join(",")),
        )
        .map_err(|e| e.to_string())?;
        let server = self.release.join("petstore-server");
        let db_arg = db.display().to_string();
        self.key = seed_database(&server, &db_arg, &data, "bench", Stdio::null())?;
        self.databases.insert(size, (db.clone(), self.key.clone()));
        Ok(db)
    }

    /// Our server on `database`, quiet but for errors.
    fn start_ours(&self, database: &str, extra: &[&str]) -> Result<ServerProcess, String> {
        let mut args = vec![
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--log-level",
            "error",
            "--database",
            database,
        ];
        args.extend_from_slice(extra);
        ServerProcess::start(&self.release.join("petstore-server"), &args)
    }

    /// listOrders of 100 orders with the connection reaper off and on,
    /// alternated twice so that drift in the machine's speed falls on both:
    /// its cost is the ratio of the best of each.
    fn reaper_cost(&mut self) -> Result<(), String> {
        let db = self.database(100)?;
        let body = self.list_body(&db)?;
        let list = |bench: &Self, url: &str| bench.oha(&[&format!("{url}/store/orders")], CONNECTIONS, "GET");
        let (mut with, mut without) = (0.0f64, 0.0f64);
        for round in 0..2 {
            let off = self.measure(Kind::OursWithoutReaper, &db, &body, "list100", list)?;
            without = without.max(off.served_per_second);
            if round == 0 {
                self.rows.push(Row {
                    workload: "listOrders, 100 orders".into(),
                    kind: Kind::OursWithoutReaper,
                    figures: off,
                });
            }
            let on = self.measure(Kind::Ours, &db, &body, "list100", list)?;
            with = with.max(on.served_per_second);
        }
        self.reaper = (with, without);
        Ok(())
    }

    /// Our listOrders response body, for the limit server to replay.
    fn list_body(&self, db: &Path) -> Result<PathBuf, String> {
        let copy = self.copy(db, "body")?;
        let server = self.start_ours(&copy, &[])?;
        let body = self
            .work
            .join(format!("{}.body.json", db.file_stem().unwrap().to_string_lossy()));
        let output = Command::new("curl")
            .args([
                "-s",
                "-w",
                "%{http_code}",
                "-H",
                &format!("Authorization: Bearer {}", self.key),
                "-o",
            ])
            .arg(&body)
            .arg(format!("{}/store/orders", server.url))
            .output()
            .map_err(|e| format!("curl: {e}"))?;
        let status = String::from_utf8_lossy(&output.stdout).into_owned();
        if status != "200" {
            let text = std::fs::read_to_string(&body).unwrap_or_default();
            return Err(format!(
                "fetching the list body: HTTP {status}: {}",
                text.chars().take(300).collect::<String>()
            ));
        }
        Ok(body)
    }

    fn copy(&self, db: &Path, tag: &str) -> Result<String, String> {
        let copy = self
            .work
            .join(format!("{}-{tag}.db", db.file_stem().unwrap().to_string_lossy()));
        std::fs::copy(db, &copy).map_err(|e| format!("copy {}: {e}", db.display()))?;
        // The last writes may still be in the WAL: copy it along.
        for suffix in ["-wal", "-shm"] {
            let (from, to) = (
                format!("{}{suffix}", db.display()),
                format!("{}{suffix}", copy.display()),
            );
            let _ = std::fs::remove_file(&to);
            if Path::new(&from).exists() {
                std::fs::copy(&from, &to).map_err(|e| format!("copy {from}: {e}"))?;
            }
        }
        Ok(copy.display().to_string())
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
            Kind::Ours => self.start_ours(&copy, &[])?,
            Kind::OursWithoutReaper => self.start_ours(&copy, &["--keep-silent-connections"])?,
            Kind::HandWritten => ServerProcess::start(&self.release.join("bench-handwritten"), &["--database", &copy])?,
            Kind::DropshotFloor => ServerProcess::start(&self.release.join("bench-dropshot"), &["--body-file", &body])?,
            Kind::Limit => ServerProcess::start(&self.release.join("bench-limit"), &["--body-file", &body])?,
        };
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

    /// Runs oha against `urls` (one, or a file of them with `@path`).
    fn oha(&self, urls: &[&str], connections: usize, method: &str) -> Result<Figures, String> {
        let output = Command::new(&self.oha)
            // -w: requests in flight at the deadline finish and count.
            .args([
                "--no-tui",
                "--output-format",
                "json",
                "-w",
                "-z",
                &format!("{}s", self.seconds),
            ])
            .args(["-c", &connections.to_string(), "-m", method])
            .args(["-H", &format!("Authorization: Bearer {}", self.key)])
            .args(urls)
            .output()
            .map_err(|e| format!("oha: {e}"))?;
        if !output.status.success() {
            return Err(format!("oha failed: {}", String::from_utf8_lossy(&output.stderr)));
        }
        parse_oha(&output.stdout)
    }

    /// Cancels of distinct pending orders (`cancel_percent` 100), or the
    /// 90/10 mix, from our load generator: oha samples its URL lists with
    /// replacement, so it would cancel some orders twice.
    fn load(&self, url: &str, cancel_percent: u32) -> Result<Figures, String> {
        let output = Command::new(self.release.join("petstore-load"))
            .args([
                "--url",
                url,
                "--seconds",
                &self.seconds.to_string(),
                "--connections",
                &CONNECTIONS.to_string(),
            ])
            .args(["--cancel-percent", &cancel_percent.to_string()])
            .env("PETSTORE_API_KEY", &self.key)
            .output()
            .map_err(|e| format!("petstore-load: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "petstore-load failed: {}",
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        let value: serde_json::Value = serde_json::from_slice(&output.stdout).map_err(|e| e.to_string())?;
        let number = |key: &str| value[key].as_f64().unwrap_or(f64::NAN);
        let requests = number("requests").max(1.0);
        let failed = (value["connection_errors"].as_u64().unwrap_or_default()
            + value["server_errors"].as_u64().unwrap_or_default()) as f64;
        Ok(Figures {
            requests_per_second: number("requests_per_second"),
            served_per_second: number("requests_per_second") * (requests - failed).max(0.0) / requests,
            p50_ms: number("p50_ms"),
            p99_ms: number("p99_ms"),
            p999_ms: number("p999_ms"),
            errors: value["connection_errors"].as_u64().unwrap_or_default()
                + value["server_errors"].as_u64().unwrap_or_default(),
            statuses: value["statuses"].to_string(),
            peak_rss_kib: 0,
        })
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

    fn table(&self) -> String {
        let mut out = String::from(
            "The ratios compare requests served without a 5xx or a connection error.\n\n\
             | workload | server | req/s | p50 ms | p99 ms | p99.9 ms | errors | peak RSS MiB | ÷ limit | ours ÷ hand-written | ours ÷ dropshot floor |\n\
             |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
        );
        for row in &self.rows {
            let f = &row.figures;
            let ratio = |kind| {
                self.figures(&row.workload, kind)
                    .map(|b| format!("{:.2}×", f.served_per_second / b.served_per_second))
                    .unwrap_or_default()
            };
            let ratios = match row.kind {
                Kind::Ours => format!(
                    "{} | {} | {}",
                    ratio(Kind::Limit),
                    ratio(Kind::HandWritten),
                    ratio(Kind::DropshotFloor)
                ),
                Kind::Limit => " | | ".to_string(),
                _ => format!("{} | | ", ratio(Kind::Limit)),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {:.0} | {:.2} | {:.2} | {:.2} | {} | {:.1} | {ratios} |",
                row.workload,
                row.kind.name(),
                f.requests_per_second,
                f.p50_ms,
                f.p99_ms,
                f.p999_ms,
                f.errors,
                f.peak_rss_kib as f64 / 1024.0
            );
        }
        out
    }

    fn goals(&self, (rss_kib, body_kib): &(u64, u64)) -> String {
        let rps = |workload: &str, kind| self.figures(workload, kind).map(|f| f.served_per_second).unwrap_or(0.0);
        let p50 = |workload: &str, kind| self.figures(workload, kind).map(|f| f.p50_ms).unwrap_or(f64::MAX);
        let verdict = |met: bool| if met { "met" } else { "NOT met" };
        let mut out = String::from("| goal | figure | status |\n|---|---|---|\n");
        let list100 = "listOrders, 100 orders";
        let ratio = rps(list100, Kind::Ours) / rps(list100, Kind::Limit);
        let floor = rps(list100, Kind::DropshotFloor) / rps(list100, Kind::Limit);
        let _ = writeln!(
            out,
            "| listOrders, 100 orders: ≥ 0.8× the limit | {ratio:.2}× (dropshot itself, answering with the same bytes: {floor:.2}×) | {} |",
            verdict(ratio >= 0.8)
        );
        let (with, without) = self.reaper;
        let _ = writeln!(
            out,
            "| the connection reaper's cost on listOrders, 100 orders (no goal; best of two alternated runs each) | {with:.0} req/s with it, {without:.0} req/s without ({:+.1} %) | measured |",
            (with / without - 1.0) * 100.0
        );
        let list100k = "listOrders, 100000 orders";
        let (ours, hand) = (p50(list100k, Kind::Ours), p50(list100k, Kind::HandWritten));
        let _ = writeln!(
            out,
            "| listOrders, 100,000 orders: p50 ≤ hand-written | {ours:.1} ms vs {hand:.1} ms | {} |",
            verdict(ours <= hand)
        );
        let memory_ratio = *rss_kib as f64 / *body_kib as f64;
        let _ = writeln!(
            out,
            "| listOrders, 100,000 orders, 8 at once: peak RSS < 3× body | {:.1} MiB vs body {:.1} MiB ({memory_ratio:.1}×) | {} |",
            *rss_kib as f64 / 1024.0,
            *body_kib as f64 / 1024.0,
            verdict(memory_ratio < 3.0)
        );
        let cancel = "cancelOrder, distinct pending orders";
        let ratio = rps(cancel, Kind::Ours) / rps(cancel, Kind::HandWritten);
        let _ = writeln!(
            out,
            "| cancelOrder: ≥ 1.0× hand-written | {ratio:.2}× | {} |",
            verdict(ratio >= 1.0)
        );
        let workloads: Vec<&str> = {
            let mut w: Vec<&str> = self.rows.iter().map(|r| r.workload.as_str()).collect();
            w.dedup();
            w
        };
        let worst = workloads
            .iter()
            .map(|w| (w, rps(w, Kind::Ours) / rps(w, Kind::HandWritten)))
            .fold((&"", f64::MAX), |a, b| if b.1 < a.1 { b } else { a });
        let _ = writeln!(
            out,
            "| every workload: ≥ 1.0× hand-written | worst {:.2}× ({}) | {} |",
            worst.1,
            worst.0,
            verdict(worst.1 >= 1.0)
        );
        out
    }
}

fn parse_oha(json: &[u8]) -> Result<Figures, String> {
    let value: serde_json::Value = serde_json::from_slice(json).map_err(|e| format!("oha output: {e}"))?;
    let seconds = |pointer: &str| {
        value
            .pointer(pointer)
            .and_then(serde_json::Value::as_f64)
            .unwrap_or(f64::NAN)
    };
    let statuses = value
        .get("statusCodeDistribution")
        .and_then(serde_json::Value::as_object)
        .map(|m| m.iter().map(|(k, v)| format!("{k}:{v}")).collect::<Vec<_>>().join(" "))
        .unwrap_or_default();
    // Connection errors, and 5xx answers: both are failures to serve.
    let connection_errors: u64 = value
        .get("errorDistribution")
        .and_then(serde_json::Value::as_object)
        .map(|m| m.values().filter_map(serde_json::Value::as_u64).sum())
        .unwrap_or_default();
    let server_errors: u64 = value
        .get("statusCodeDistribution")
        .and_then(serde_json::Value::as_object)
        .map(|m| {
            m.iter()
                .filter(|(k, _)| k.starts_with('5'))
                .filter_map(|(_, v)| v.as_u64())
                .sum()
        })
        .unwrap_or_default();
    let errors = connection_errors + server_errors;
    let answered: u64 = value
        .get("statusCodeDistribution")
        .and_then(serde_json::Value::as_object)
        .map(|m| m.values().filter_map(serde_json::Value::as_u64).sum())
        .unwrap_or_default();
    let total = (answered + connection_errors).max(1) as f64;
    let served_fraction = (answered - server_errors) as f64 / total;
    Ok(Figures {
        requests_per_second: seconds("/summary/requestsPerSec"),
        served_per_second: seconds("/summary/requestsPerSec") * served_fraction,
        p50_ms: seconds("/latencyPercentiles/p50") * 1000.0,
        p99_ms: seconds("/latencyPercentiles/p99") * 1000.0,
        p999_ms: seconds("/latencyPercentiles/p99.9") * 1000.0,
        errors,
        statuses,
        peak_rss_kib: 0,
    })
}

/// The designer's loop: a warm `cargo xtask generate`, and rebuilding the
/// server after adding one optional field to Order.
fn designer_loop(root: &Path, cargo: &str) -> Result<String, String> {
    let xtask = |args: &[&str]| {
        Command::new(cargo)
            .current_dir(root)
            .args(["xtask"])
            .args(args)
            .stdout(Stdio::null())
            .status()
    };
    check(xtask(&["generate"]), "cargo xtask generate")?;
    let started = Instant::now();
    check(xtask(&["generate"]), "cargo xtask generate")?;
    let generate = started.elapsed();

    let spec_path = root.join(crate::codegen::SPEC_PATH);
    let original = std::fs::read_to_string(&spec_path).map_err(|e| e.to_string())?;
    let edited = original.replacen(
        "        complete:\n",
        "        giftWrap:\n          type: boolean\n          description: Whether to gift-wrap.\n        complete:\n",
        1,
    );
    let build = |what| {
        check(
            Command::new(cargo)
                .current_dir(root)
                .args(["build", "--quiet", "-p", "petstore-server"])
                .status(),
            what,
        )
    };
    build("cargo build")?;
    std::fs::write(&spec_path, &edited).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let rebuilt = check(xtask(&["generate"]), "generate").and_then(|()| build("cargo build after the edit"));
    let rebuild = started.elapsed();
    // Put everything back, whatever happened.
    std::fs::write(&spec_path, &original).map_err(|e| e.to_string())?;
    check(xtask(&["generate"]), "cargo xtask generate")?;
    rebuilt?;
    Ok(format!(
        "| designer's loop | wall time |\n|---|---|\n| warm `cargo xtask generate` | {:.2} s (goal < 0.5 s: {}) |\n| one optional Order field: generate + rebuild the server (dev profile) | {:.1} s |\n",
        generate.as_secs_f64(),
        if generate < Duration::from_millis(500) {
            "met"
        } else {
            "NOT met"
        },
        rebuild.as_secs_f64()
    ))
}

fn benchmarks_md(table: &str, goals: &str, loop_figures: &str) -> String {
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0);
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines().find_map(|l| {
                l.strip_prefix("model name")
                    .map(|m| m.trim_start_matches([' ', '\t', ':']).to_string())
            })
        })
        .unwrap_or_default();
    format!(
        "# Benchmarks\n\nWritten by `cargo xtask bench` (a full run). Every server ran on copies of the same SQLite \
         database, in the release profile, with load from a separate process on loopback \
         (oha {OHA_VERSION} for listOrders; petstore-load where cancels must hit distinct orders), \
         {CONNECTIONS} connections unless stated. Errors count connection errors and 5xx answers. Compare the ratios, not the absolute figures: the machine is shared.\n\n\
         Machine: {cores} cores ({cpu}), Linux {}, build profile release.\n\n## Results\n\n{table}\n## Goals\n\n{goals}\n{loop_figures}\n{}",
        kernel.trim(),
        include_str!("bench_notes.md")
    )
}
