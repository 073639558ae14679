//! `cargo xtask soak`: mixed listOrders and cancelOrder load from a separate
//! load-generator process against a real server, bounded in time, with the
//! server's memory watched. Fails on any 5xx, any connection error, or RSS
//! growing more than 10 % after warm-up.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::load::server_process::{ServerProcess, check, seed_database};

pub struct SoakOptions {
    pub seconds: u64,
    pub warmup_seconds: u64,
    pub connections: usize,
    /// Use the dev build (as the tests do) instead of release.
    pub debug: bool,
}

impl SoakOptions {
    pub fn parse(args: &[String]) -> Result<SoakOptions, String> {
        let mut options = SoakOptions {
            seconds: 60,
            warmup_seconds: 10,
            connections: 64,
            debug: false,
        };
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let mut number = || -> Result<u64, String> {
                let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
                value.parse().map_err(|e| format!("{flag} {value}: {e}"))
            };
            match flag.as_str() {
                "--seconds" => options.seconds = number()?,
                "--warmup" => options.warmup_seconds = number()?,
                "--connections" => options.connections = number()? as usize,
                "--debug" => options.debug = true,
                other => return Err(format!("unknown soak option {other}")),
            }
        }
        Ok(options)
    }
}

/// Orders in the database: a list of 2,000 (160 KB of JSON) at the start.
/// Cancels take distinct orders, so the list shrinks a little during the
/// run; the load stays of one shape, which RSS must be compared under.
const ORDERS: i64 = 2_000;

pub fn run(root: &Path, options: &SoakOptions) -> Result<(), String> {
    let profile = if options.debug { "debug" } else { "release" };
    let mut build = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    build.current_dir(root).args([
        "build",
        "--quiet",
        "-p",
        "petstore-server",
        "-p",
        "petstore-bench",
        "--bin",
        "petstore-server",
        "--bin",
        "petstore-load",
    ]);
    if !options.debug {
        build.arg("--release");
    }
    check(build.status(), "cargo build")?;
    let bin = root.join("target").join(profile);

    let work = std::env::temp_dir().join(format!("petstore-soak-{}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    let result = soak(&bin, &work, options);
    let _ = std::fs::remove_dir_all(&work);
    result
}

fn soak(bin: &Path, work: &Path, options: &SoakOptions) -> Result<(), String> {
    let database = work.join("soak.db").display().to_string();
    let server_bin = bin.join("petstore-server");
    let orders: Vec<String> = (1..=ORDERS)
        .map(|id| {
            format!(
                r#"{{"id":{id},"petId":{},"quantity":1,"status":"pending"}}"#,
                id % 10 + 1
            )
        })
        .collect();
    let pets: Vec<String> = (1..=10)
        .map(|id| format!(r#"{{"id":{id},"name":"pet {id}"}}"#))
        .collect();
    let data = work.join("data.json");
    std::fs::write(
        &data,
        format!(r#"{{"pets":[{}],"orders":[{}]}}"#, pets.join(","), orders.join(",")),
    )
    .map_err(|e| e.to_string())?;
    let key = seed_database(&server_bin, &database, &data, "soak", Stdio::inherit())?;

    let mut server = ServerProcess::start(
        &server_bin,
        &[
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--log-level",
            "warn",
            "--database",
            &database,
        ],
    )?;
    println!(
        "soak: server {} (pid {}), {} connections, 90% listOrders / 10% cancelOrder",
        server.url,
        server.pid(),
        options.connections
    );

    // Runs the load generator, sampling the server's RSS every second while
    // the load runs (an idle server has handed memory back, so samples are
    // only comparable under the same load).
    let load = |seconds: u64, first_id: i64| -> Result<(serde_json::Value, Vec<u64>), String> {
        let child = Command::new(bin.join("petstore-load"))
            .args(["--url", &server.url, "--seconds", &seconds.to_string()])
            .args([
                "--connections",
                &options.connections.to_string(),
                "--first-id",
                &first_id.to_string(),
            ])
            .env("PETSTORE_API_KEY", &key)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("petstore-load: {e}"))?;
        let mut samples = Vec::new();
        let started = std::time::Instant::now();
        let output = std::thread::scope(|scope| {
            let waiter = scope.spawn(|| child.wait_with_output());
            while !waiter.is_finished() {
                std::thread::sleep(std::time::Duration::from_millis(250));
                if started.elapsed().as_secs() > samples.len() as u64 {
                    samples.push(server.memory_kib("VmRSS").unwrap_or_default());
                }
            }
            waiter.join().expect("the waiter thread")
        })
        .map_err(|e| format!("petstore-load: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "petstore-load failed: {}",
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        let figures = serde_json::from_slice(&output.stdout).map_err(|e| format!("petstore-load output: {e}"))?;
        Ok((figures, samples))
    };

    // One run: the first `warmup_seconds` warm the server up, the rest is
    // measured against the RSS at the end of the warm-up.
    let (figures, samples) = load(options.warmup_seconds + options.seconds, 1)?;
    let at = |second: u64| samples.get(second.saturating_sub(1) as usize).copied();
    let (Some(rss_warm), Some(rss_end)) = (at(options.warmup_seconds), samples.last().copied()) else {
        return Err(format!("too few RSS samples: {samples:?}"));
    };
    let growth = (rss_end as f64 - rss_warm as f64) / rss_warm as f64 * 100.0;
    println!(
        "soak: {}s ({}s warm-up): {}",
        options.warmup_seconds + options.seconds,
        options.warmup_seconds,
        summary(&figures)
    );
    let every_five: Vec<u64> = samples.iter().step_by(5).copied().collect();
    println!("soak: RSS every 5 s (KiB): {every_five:?}");
    println!("soak: RSS after warm-up {rss_warm} KiB, at the end {rss_end} KiB ({growth:+.1} %)");

    let stopped = server.stop()?;
    let mut problems = Vec::new();
    if figures["server_errors"].as_u64() != Some(0) {
        problems.push(format!("{} responses were 5xx", figures["server_errors"]));
    }
    if figures["connection_errors"].as_u64() != Some(0) {
        problems.push(format!("{} connection errors", figures["connection_errors"]));
    }
    if growth > 10.0 {
        problems.push(format!("RSS grew {growth:.1} % after warm-up (limit 10 %)"));
    }
    if !stopped {
        problems.push("the server did not exit cleanly on SIGTERM".into());
    }
    if problems.is_empty() {
        println!("soak: passed");
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

fn summary(figures: &serde_json::Value) -> String {
    format!(
        "{} requests ({:.0}/s), statuses {}, 5xx {}, connection errors {}",
        figures["requests"],
        figures["requests_per_second"].as_f64().unwrap_or_default(),
        figures["statuses"],
        figures["server_errors"],
        figures["connection_errors"]
    )
}
