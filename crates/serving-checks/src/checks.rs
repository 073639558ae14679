//! The checks, each on a process of its own started with the options it
//! needs. Each states its bound as the README does, and runs a client
//! beside the hostile one that must be answered throughout.

use std::io::Write;
use std::net::TcpStream;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::process::ServedProcess;
use crate::raw_http::{Request, send, time_until_closed};

/// A service's binary and what it must be told to serve (its keys, ...).
pub struct Service {
    pub binary: String,
    pub args: Vec<String>,
    /// A request it answers with a 2xx.
    pub served: Request,
}

impl Service {
    /// Its process, with `options` (the ones every service takes) beside
    /// its own arguments, on a free port.
    pub fn start(&self, options: &[&str]) -> ServedProcess {
        ServedProcess::spawn(self.command(options))
    }

    /// As [`Service::start`], with stderr left unread until
    /// [`ServedProcess::read_stderr`].
    pub fn start_with_stderr_unread(&self, options: &[&str]) -> ServedProcess {
        ServedProcess::spawn_with_stderr_unread(self.command(options))
    }

    fn command(&self, options: &[&str]) -> Command {
        let mut command = Command::new(&self.binary);
        command.args(&self.args).args(["--bind", "127.0.0.1:0"]).args(options);
        command
    }
}

/// The served request, sent every 100 ms until stopped, on a thread: the
/// statuses when joined (`None` for no answer).
struct Bystander {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Vec<Option<u16>>>,
}

impl Bystander {
    fn start(process: &ServedProcess, served: &Request) -> Bystander {
        let (address, request) = (process.address(), served.bytes(&[]));
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut statuses = Vec::new();
            while !stopped.load(Ordering::Relaxed) {
                statuses.push(send(address, &request).map(|(status, _)| status));
                std::thread::sleep(Duration::from_millis(100));
            }
            statuses
        });
        Bystander { stop, thread }
    }

    /// Stops it and asserts every one of its requests was answered 2xx.
    fn assert_answered_throughout(self, process: &ServedProcess) {
        self.stop.store(true, Ordering::Relaxed);
        let statuses = self.thread.join().expect("the bystander's thread");
        assert!(!statuses.is_empty(), "no request was sent beside the check");
        assert!(
            statuses.iter().all(|s| s.is_some_and(|s| (200..300).contains(&s))),
            "another client was not answered throughout: {statuses:?}\n{}",
            process.logs()
        );
    }
}

/// A JSON body shorter than its `Content-Length` holds a connection only
/// until `--idle-timeout` (60 s by default; 2 s here): then it is closed.
/// `body_request` is a request of an operation that takes a JSON body.
pub fn a_short_body_is_closed_by_the_idle_timeout(service: &Service, body_request: &Request) {
    let process = service.start(&["--idle-timeout", "2"]);
    let bystander = Bystander::start(&process, &service.served);
    let mut conn = TcpStream::connect(process.address()).expect("connect");
    let head = body_request.bytes(&["Content-Type: application/json", "Content-Length: 100"]);
    conn.write_all(&head)
        .and_then(|()| conn.write_all(b"{\"short\":"))
        .expect("write");
    let held = time_until_closed(&mut conn, Duration::from_secs(15));
    bystander.assert_answered_throughout(&process);
    assert!(
        held >= Duration::from_millis(1500) && held < Duration::from_secs(6),
        "a short body was held {held:?} (bound: --idle-timeout 2)\n{}",
        process.logs()
    );
    assert!(process.logged("closed connections"), "{}", process.logs());
}

/// A request head sent a byte a second is closed once the head has taken
/// 30 s (hyper's bound, which dropshot keeps): the reaper sees it active.
pub fn a_slow_request_head_is_closed_at_30_seconds(service: &Service) {
    let process = service.start(&[]);
    let bystander = Bystander::start(&process, &service.served);
    let mut conn = TcpStream::connect(process.address()).expect("connect");
    let started = Instant::now();
    let head = service.served.bytes(&[]);
    let trickle = {
        let mut conn = conn.try_clone().expect("a second handle");
        std::thread::spawn(move || {
            // Never the last byte: the head never ends.
            for byte in head.iter().take(head.len() - 1).cycle().take(90) {
                if conn.write_all(&[*byte]).is_err() {
                    return;
                }
                std::thread::sleep(Duration::from_secs(1));
            }
        })
    };
    time_until_closed(&mut conn, Duration::from_secs(60));
    let held = started.elapsed();
    bystander.assert_answered_throughout(&process);
    let _ = trickle.join();
    assert!(
        held >= Duration::from_secs(20) && held < Duration::from_secs(45),
        "a slow request head was held {held:?} (bound: 30 s)\n{}",
        process.logs()
    );
}

/// Hundreds of connections that send nothing: those beyond
/// `--silent-per-client` (100) are closed after their first second, the
/// rest after `--silent-timeout` (10 s by default; 2 s here); counted at
/// `/metrics`.
pub fn hundreds_of_silent_connections_are_closed(service: &Service) {
    let process = service.start(&["--silent-timeout", "2"]);
    let bystander = Bystander::start(&process, &service.served);
    let mut silent: Vec<TcpStream> = (0..300)
        .map(|_| TcpStream::connect(process.address()).expect("connect"))
        .collect();
    let started = Instant::now();
    for conn in &mut silent {
        time_until_closed(conn, Duration::from_secs(15).saturating_sub(started.elapsed()));
    }
    let all_closed = started.elapsed();
    bystander.assert_answered_throughout(&process);
    assert!(
        all_closed < Duration::from_secs(6),
        "300 silent connections were all closed only after {all_closed:?} (bound: --silent-timeout 2)\n{}",
        process.logs()
    );
    let metrics_at = format!("http://{}/metrics", process.address());
    let (_, metrics) = send(process.address(), &Request::get("/metrics", &[]).bytes(&[])).expect("/metrics");
    for reason in ["silent", "over the per-client cap"] {
        let series = format!("http_connections_closed_total{{reason=\"{reason}\"}} ");
        let count: Option<u64> = metrics
            .lines()
            .find_map(|line| line.strip_prefix(series.as_str())?.trim().parse().ok());
        assert!(count.is_some_and(|n| n >= 1), "{reason} at {metrics_at}: {metrics}");
    }
}

/// SIGTERM with a silent connection open: the service stops at once
/// (nothing is in flight), well within `--shutdown-timeout`, and exits 0.
/// SIGHUP before it changes nothing.
pub fn sigterm_with_a_silent_connection_open_stops_promptly(service: &Service) {
    let mut process = service.start(&["--shutdown-timeout", "10"]);
    let _silent = TcpStream::connect(process.address()).expect("connect");
    process.signal("HUP");
    assert!(process.logged("SIGHUP ignored"), "{}", process.logs());
    let answer = send(process.address(), &service.served.bytes(&[]));
    assert!(
        answer.is_some_and(|(s, _)| (200..300).contains(&s)),
        "served after SIGHUP"
    );
    let (status, took) = process.signal_and_wait("TERM");
    assert!(status.success(), "{status}\n{}", process.logs());
    assert!(
        took < Duration::from_secs(3),
        "the stop took {took:?}\n{}",
        process.logs()
    );
}

/// `/healthz` and `/readyz` answer 200; after SIGTERM with
/// `--drain-seconds`, `/readyz` answers 503 while everything else is
/// served, and then the service stops.
pub fn the_probes_answer_and_a_drain_precedes_the_stop(service: &Service) {
    let mut process = service.start(&["--drain-seconds", "2"]);
    let probe = |path: &str| send(process.address(), &Request::get(path, &[]).bytes(&[]));
    assert_eq!(probe("/healthz").map(|a| a.0), Some(200));
    assert_eq!(probe("/readyz").map(|a| a.0), Some(200));
    let started = Instant::now();
    process.signal("TERM");
    assert!(process.logged("draining"), "{}", process.logs());
    let (status, text) = probe("/readyz").expect("/readyz while draining");
    assert!(status == 503 && text.contains("draining"), "{text}");
    let served = send(process.address(), &service.served.bytes(&[]));
    assert!(
        served.is_some_and(|(s, _)| (200..300).contains(&s)),
        "served while draining"
    );
    while !process.exited() {
        assert!(started.elapsed() < Duration::from_secs(8), "{}", process.logs());
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        started.elapsed() >= Duration::from_millis(1900),
        "stopped before the drain ended"
    );
    assert!(process.logged("stopped"), "{}", process.logs());
}
