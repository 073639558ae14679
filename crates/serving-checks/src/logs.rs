//! The log at its default level (`info`: a line per request), written in
//! batches by `runtime::serving::log_writer`: every line reaches stderr by
//! a clean stop; a stderr no one reads never holds a request, and the
//! lines it cannot take are counted.

use std::time::{Duration, Instant};

use crate::checks::Service;
use crate::raw_http::{Request, pipelined, send};

/// The `request completed` lines of the served request in `logs`.
fn completed(logs: &str, served: &Request) -> usize {
    logs.lines()
        .filter(|line| line.contains("request completed") && line.contains(served.path.as_str()))
        .count()
}

/// The value of `log_lines_dropped_total` at `/metrics`.
fn dropped_at_metrics(service: &crate::ServedProcess) -> u64 {
    let (_, metrics) = send(service.address(), &Request::get("/metrics", &[]).bytes(&[])).expect("/metrics");
    metrics
        .lines()
        .find_map(|line| line.strip_prefix("log_lines_dropped_total ")?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no log_lines_dropped_total: {metrics}"))
}

/// 2,000 requests, then SIGTERM as soon as the last is answered: each has
/// its line in the log, and nothing was dropped.
pub fn every_line_is_written_by_a_clean_stop(service: &Service) {
    const REQUESTS: usize = 2000;
    let mut process = service.start(&[]);
    assert_eq!(pipelined(process.address(), &service.served, REQUESTS), REQUESTS);
    let (status, _) = process.signal_and_wait("TERM");
    assert!(status.success(), "{status}\n{}", process.logs());
    assert!(process.logged("stopped"), "{}", process.logs());
    let logs = process.logs();
    assert_eq!(completed(&logs, &service.served), REQUESTS, "lines were lost");
    assert!(!logs.contains("log lines dropped"), "lines were dropped");
}

/// stderr a pipe no one reads: requests are answered all the same, the
/// lines that do not fit are dropped and counted at `/metrics`; once it
/// is read again, the log says how many, and every line is either written
/// or counted.
pub fn a_log_no_one_reads_holds_no_request_and_counts_what_it_drops(service: &Service) {
    const BATCH: usize = 2000;
    let mut process = service.start_with_stderr_unread(&[]);
    let started = Instant::now();
    let mut sent = 0;
    while dropped_at_metrics(&process) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "nothing dropped after {sent} requests with stderr unread"
        );
        assert_eq!(
            pipelined(process.address(), &service.served, BATCH),
            BATCH,
            "a request was not answered while stderr was not read"
        );
        sent += BATCH;
    }
    process.read_stderr();
    assert!(process.logged("log lines dropped"), "{}", process.logs());
    // The notices are written with the batches they follow: wait for the
    // log to be written up to this moment before adding them up.
    send(process.address(), &service.served.bytes(&[])).expect("an answer");
    sent += 1;
    let dropped = dropped_at_metrics(&process);
    assert!(
        wait_for(|| completed(&process.logs(), &service.served) as u64 + dropped >= sent as u64),
        "{} lines written and {dropped} dropped of {sent}",
        completed(&process.logs(), &service.served)
    );
    let (status, _) = process.signal_and_wait("TERM");
    assert!(status.success(), "{status}");
    assert!(process.logged("stopped"));
    let logs = process.logs();
    let told: u64 = logs
        .lines()
        .filter(|line| line.contains("log lines dropped"))
        .map(|line| {
            let count = line.rsplit("dropped: ").next().unwrap_or_default();
            count
                .trim()
                .parse::<u64>()
                .unwrap_or_else(|_| panic!("no count: {line}"))
        })
        .sum();
    assert_eq!(told, dropped, "the log tells of what /metrics counts");
    let written = completed(&logs, &service.served);
    assert!(
        written < sent && written as u64 + dropped >= sent as u64,
        "{written} + {dropped} of {sent}"
    );
}

/// Whether `condition` holds within 10 s.
fn wait_for(condition: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !condition() {
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    true
}
