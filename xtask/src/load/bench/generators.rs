//! The load generators: oha (installed at a pinned version) for requests
//! it can send, and our `petstore-load` where cancels must hit distinct
//! orders; each run's output read into figures.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::figures::Figures;
use super::harness::{Bench, CONNECTIONS, OHA_VERSION};
use crate::load::server_process::check;

/// oha at the pinned version, installed from crates.io on first use.
pub(super) fn install_oha(root: &Path, cargo: &str) -> Result<PathBuf, String> {
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

/// The most connections a row loads with under `--quick`.
pub(super) const QUICK_CONNECTIONS: usize = 8;

impl Bench {
    /// Cancels of distinct pending orders (`cancel_percent` 100), or the
    /// 90/10 mix, from our load generator: oha samples its URL lists with
    /// replacement, so it would cancel some orders twice.
    pub(super) fn load(&self, url: &str, cancel_percent: u32) -> Result<Figures, String> {
        let mut command = Command::new(self.binaries.join("petstore-load"));
        command
            .args([
                "--url",
                url,
                "--seconds",
                &self.seconds.to_string(),
                "--connections",
                &CONNECTIONS.to_string(),
            ])
            .args(["--cancel-percent", &cancel_percent.to_string()])
            .env("PETSTORE_API_KEY", &self.key);
        run_load(command)
    }

    /// `petstore-load` in place of oha (`--quick`): `method` to `urls`
    /// (one, or `--urls-from-file FILE`) with `connections` workers, with
    /// the key, or without it and with the JSON in `body`.
    fn load_targets(
        &self,
        urls: &[&str],
        connections: usize,
        method: &str,
        body: Option<&Path>,
    ) -> Result<Figures, String> {
        // Every row's requests in flight at the deadline are waited for: in
        // the dev profile a list of 100,000 orders takes a second or more
        // each, and 64 of them on two cores took the hand-written server
        // half a minute. A few connections show the row runs as well.
        let connections = connections.min(QUICK_CONNECTIONS);
        let mut command = Command::new(self.binaries.join("petstore-load"));
        command.args([
            "--seconds",
            &self.seconds.to_string(),
            "--connections",
            &connections.to_string(),
            "--method",
            method,
        ]);
        match urls {
            ["--urls-from-file", file] => command.args(["--targets-from-file", file]),
            urls => command.args(urls.iter().flat_map(|url| ["--target", url])),
        };
        match body {
            Some(body) => command.arg("--body").arg(body).env_remove("PETSTORE_API_KEY"),
            None => command.env("PETSTORE_API_KEY", &self.key),
        };
        run_load(command)
    }

    /// POSTs the JSON in `body` to `url` from oha, without a key.
    pub(super) fn oha_post(&self, url: &str, body: &Path) -> Result<Figures, String> {
        if self.oha.is_none() {
            return self.load_targets(&[url], CONNECTIONS, "POST", Some(body));
        }
        let connections = CONNECTIONS.to_string();
        let mut args = vec!["-c", &connections, "-m", "POST", "-T", "application/json", "-D"];
        let body = body.display().to_string();
        args.extend([body.as_str(), url]);
        self.run_oha(&args)
    }

    /// Runs oha against `urls` (one, or a file of them with `@path`).
    pub(super) fn oha(&self, urls: &[&str], connections: usize, method: &str) -> Result<Figures, String> {
        if self.oha.is_none() {
            return self.load_targets(urls, connections, method, None);
        }
        let connections = connections.to_string();
        let authorization = format!("Authorization: Bearer {}", self.key);
        let mut args = vec!["-c", &connections, "-m", method, "-H", &authorization];
        args.extend_from_slice(urls);
        self.run_oha(&args)
    }

    /// oha for `self.seconds`, with `args`, its JSON read into figures.
    fn run_oha(&self, args: &[&str]) -> Result<Figures, String> {
        let oha = self.oha.as_ref().ok_or("oha is not installed")?;
        let output = Command::new(oha)
            // -w: requests in flight at the deadline finish and count.
            .args([
                "--no-tui",
                "--output-format",
                "json",
                "-w",
                "-z",
                &format!("{}s", self.seconds),
            ])
            .args(args)
            .output()
            .map_err(|e| format!("oha: {e}"))?;
        if !output.status.success() {
            return Err(format!("oha failed: {}", String::from_utf8_lossy(&output.stderr)));
        }
        parse_oha(&output.stdout)
    }
}

/// Runs `petstore-load`, its JSON line read into figures.
fn run_load(mut command: Command) -> Result<Figures, String> {
    let output = command.output().map_err(|e| format!("petstore-load: {e}"))?;
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
        // As oha's are read (`200:1234 503:2`), whichever generator ran.
        statuses: value["statuses"]
            .as_object()
            .map(|m| m.iter().map(|(k, v)| format!("{k}:{v}")).collect::<Vec<_>>().join(" "))
            .unwrap_or_default(),
        answered: requests as u64,
        cancelled: value["statuses"]["204"].as_u64().unwrap_or_default(),
        peak_rss_kib: 0,
    })
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
        answered,
        // oha's loads send no cancels.
        cancelled: 0,
        peak_rss_kib: 0,
    })
}
