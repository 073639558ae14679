//! A service's binary run as a process, as an operator runs it: stdout's
//! first line says where it serves, stderr is kept for the test to read.

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

pub struct ServedProcess {
    pub child: Child,
    /// `http://127.0.0.1:PORT/base`, from `Serving <URL>`.
    pub base_url: String,
    stdout_lines: mpsc::Receiver<String>,
    stderr_text: Arc<Mutex<String>>,
    /// Set by [`ServedProcess::spawn_with_stderr_unread`]: sending on it
    /// starts reading stderr.
    stderr_gate: Option<mpsc::Sender<()>>,
}

impl ServedProcess {
    /// Runs `command` and waits for its `Serving <URL>` line.
    pub fn spawn(command: Command) -> ServedProcess {
        Self::spawn_reading(command, None)
    }

    /// As [`ServedProcess::spawn`], but nothing reads its stderr until
    /// [`ServedProcess::read_stderr`]: a log no one reads, as a pipe to a
    /// stuck collector would be.
    pub fn spawn_with_stderr_unread(command: Command) -> ServedProcess {
        let (gate, opened) = mpsc::channel();
        let mut process = Self::spawn_reading(command, Some(opened));
        process.stderr_gate = Some(gate);
        process
    }

    /// Starts reading stderr (see [`ServedProcess::spawn_with_stderr_unread`]).
    pub fn read_stderr(&self) {
        if let Some(gate) = &self.stderr_gate {
            let _ = gate.send(());
        }
    }

    fn spawn_reading(mut command: Command, gate: Option<mpsc::Receiver<()>>) -> ServedProcess {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"));
        let (tx, stdout_lines) = mpsc::channel();
        let out = child.stdout.take().expect("piped stdout");
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr_text = Arc::new(Mutex::new(String::new()));
        let (sink, mut err) = (stderr_text.clone(), child.stderr.take().expect("piped stderr"));
        std::thread::spawn(move || {
            if let Some(gate) = gate {
                let _ = gate.recv();
            }
            let mut buf = [0u8; 8192];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let text = String::from_utf8_lossy(&buf[..n]).into_owned();
                sink.lock().unwrap_or_else(|p| p.into_inner()).push_str(&text);
            }
        });
        let mut process = ServedProcess {
            child,
            base_url: String::new(),
            stdout_lines,
            stderr_text,
            stderr_gate: None,
        };
        let first = process
            .next_line()
            .unwrap_or_else(|| panic!("the service printed nothing: {}", process.logs()));
        process.base_url = first
            .strip_prefix("Serving ")
            .unwrap_or_else(|| panic!("the first line is not `Serving URL`: {first}"))
            .trim()
            .to_string();
        process
    }

    /// The next line of stdout, waiting up to 10 s.
    pub fn next_line(&self) -> Option<String> {
        self.stdout_lines.recv_timeout(Duration::from_secs(10)).ok()
    }

    /// The address it listens on.
    pub fn address(&self) -> SocketAddr {
        let rest = self.base_url.strip_prefix("http://").expect("an http URL");
        let end = rest.find('/').unwrap_or(rest.len());
        rest[..end].parse().expect("an address")
    }

    /// Everything written to stderr so far.
    pub fn logs(&self) -> String {
        self.stderr_text.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Whether stderr says `needle`, waiting up to 5 s for it (stderr is
    /// read on a thread of its own, a moment behind the process).
    pub fn logged(&self, needle: &str) -> bool {
        let deadline = Instant::now() + Duration::from_secs(5);
        while !self.logs().contains(needle) {
            if Instant::now() > deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        true
    }

    /// Sends `signal` (`TERM`, `INT`, `HUP`, `KILL`).
    pub fn signal(&self, signal: &str) {
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &self.child.id().to_string()])
            .status();
        assert!(sent.is_ok_and(|s| s.success()), "kill -{signal} failed");
    }

    /// Sends `signal` and waits for the exit: its status and how long it
    /// took.
    pub fn signal_and_wait(&mut self, signal: &str) -> (ExitStatus, Duration) {
        let started = Instant::now();
        self.signal(signal);
        let status = self.child.wait().expect("the service's exit");
        (status, started.elapsed())
    }

    /// Whether it has exited.
    pub fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }
}

impl Drop for ServedProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
