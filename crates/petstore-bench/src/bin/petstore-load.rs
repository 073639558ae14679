//! A load generator for the soak test and the benchmarks:
//! `--connections` workers send requests for `--seconds`, then print one
//! JSON line of figures, latency percentiles included. Two loads:
//!
//! - `--url BASE`: listOrders and cancelOrder (on distinct ids, which oha
//!   cannot do: its URL lists are sampled with replacement), the key from
//!   `PETSTORE_API_KEY`, so that it is not visible in the process list;
//! - `--target URL` (repeatable) or `--targets-from-file FILE`: `--method`
//!   (GET by default) to each in turn, with `--body FILE` as JSON, and the
//!   key of `PETSTORE_API_KEY` when it is set: what `cargo xtask bench
//!   --quick` runs instead of oha, which a clean clone would first build
//!   from source for minutes.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

struct Args {
    url: String,
    seconds: u64,
    connections: usize,
    cancel_percent: u64,
    first_id: i64,
    /// The URLs of a `--target` load, sent in turn.
    targets: Vec<String>,
    method: reqwest::Method,
    body: Option<Vec<u8>>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        url: String::new(),
        seconds: 10,
        connections: 64,
        cancel_percent: 10,
        first_id: 1,
        targets: Vec::new(),
        method: reqwest::Method::GET,
        body: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || value.parse::<u64>().map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--url" => args.url = value.clone(),
            "--seconds" => args.seconds = number()?,
            "--connections" => args.connections = number()? as usize,
            "--cancel-percent" => args.cancel_percent = number()?.min(100),
            "--first-id" => args.first_id = number()? as i64,
            "--target" => args.targets.push(value.clone()),
            "--targets-from-file" => {
                let text = std::fs::read_to_string(&value).map_err(|e| format!("{value}: {e}"))?;
                args.targets
                    .extend(text.lines().filter(|l| !l.is_empty()).map(str::to_string));
            }
            "--method" => args.method = value.parse().map_err(|e| format!("{flag}: {e}"))?,
            "--body" => args.body = Some(std::fs::read(&value).map_err(|e| format!("{value}: {e}"))?),
            other => return Err(format!("unknown flag {other}")),
        }
    }
    if args.url.is_empty() == args.targets.is_empty() {
        return Err(
            "usage: petstore-load (--url BASE_URL [--cancel-percent P] [--first-id ID] | \
             (--target URL)... | --targets-from-file FILE [--method M] [--body FILE]) [--seconds N] [--connections N]"
                .into(),
        );
    }
    Ok(args)
}

#[derive(Default)]
struct Tally {
    statuses: BTreeMap<u16, u64>,
    connection_errors: u64,
    /// Every request's latency, in microseconds.
    latencies: Vec<u32>,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let key = std::env::var("PETSTORE_API_KEY").ok();
    if key.is_none() && args.targets.is_empty() {
        eprintln!("error: set PETSTORE_API_KEY");
        return std::process::ExitCode::FAILURE;
    }
    let targets = Arc::new(args.targets.clone());
    let body = args.body.clone().map(bytes::Bytes::from);
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(args.connections)
        .timeout(Duration::from_secs(30))
        .build()
        .expect("an HTTP client");
    let next_id = Arc::new(AtomicI64::new(args.first_id));
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let started = Instant::now();
    let workers: Vec<_> = (0..args.connections)
        .map(|worker| {
            let (client, key, url, next_id) = (client.clone(), key.clone(), args.url.clone(), next_id.clone());
            let (targets, method, body) = (targets.clone(), args.method.clone(), body.clone());
            let cancel_percent = args.cancel_percent;
            tokio::spawn(async move {
                let mut tally = Tally::default();
                let mut n: u64 = worker as u64;
                while Instant::now() < deadline {
                    n += 1;
                    let mut request = if !targets.is_empty() {
                        let target = &targets[n as usize % targets.len()];
                        let request = client.request(method.clone(), target);
                        match &body {
                            Some(body) => request.header("content-type", "application/json").body(body.clone()),
                            None => request,
                        }
                    } else if n % 100 < cancel_percent {
                        let id = next_id.fetch_add(1, Ordering::Relaxed);
                        client.delete(format!("{url}/store/orders/{id}"))
                    } else {
                        client.get(format!("{url}/store/orders"))
                    };
                    if let Some(key) = &key {
                        request = request.bearer_auth(key);
                    }
                    let sent = Instant::now();
                    let result = request.send().await;
                    match result {
                        Ok(response) => {
                            let status = response.status().as_u16();
                            // Read the body so the connection is reused.
                            let _ = response.bytes().await;
                            *tally.statuses.entry(status).or_default() += 1;
                            tally
                                .latencies
                                .push(sent.elapsed().as_micros().min(u32::MAX as u128) as u32);
                        }
                        Err(_) => tally.connection_errors += 1,
                    }
                }
                tally
            })
        })
        .collect();
    let mut total = Tally::default();
    for worker in workers {
        let tally = worker.await.expect("a worker");
        for (status, count) in tally.statuses {
            *total.statuses.entry(status).or_default() += count;
        }
        total.connection_errors += tally.connection_errors;
        total.latencies.extend(tally.latencies);
    }
    total.latencies.sort_unstable();
    let percentile_ms = |p: f64| {
        let i = ((p / 100.0) * total.latencies.len() as f64) as usize;
        total
            .latencies
            .get(i.min(total.latencies.len().saturating_sub(1)))
            .map(|us| *us as f64 / 1000.0)
            .unwrap_or(f64::NAN)
    };
    let elapsed = started.elapsed().as_secs_f64();
    let requests: u64 = total.statuses.values().sum();
    let server_errors: u64 = total.statuses.iter().filter(|(s, _)| **s >= 500).map(|(_, c)| c).sum();
    let figures = serde_json::json!({
        "requests": requests,
        "seconds": elapsed,
        "requests_per_second": requests as f64 / elapsed,
        "statuses": total.statuses.iter().map(|(s, c)| (s.to_string(), c)).collect::<BTreeMap<_, _>>(),
        "server_errors": server_errors,
        "connection_errors": total.connection_errors,
        "next_id": next_id.load(Ordering::Relaxed),
        "p50_ms": percentile_ms(50.0),
        "p99_ms": percentile_ms(99.0),
        "p999_ms": percentile_ms(99.9),
    });
    println!("{figures}");
    std::process::ExitCode::SUCCESS
}
