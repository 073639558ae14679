//! The log's lines, written to stderr in batches by a thread of their own.
//!
//! A request's thread formats its line (`log_lines`) and appends it to a
//! shared buffer: a lock held for a copy, no allocation once the buffers
//! have grown, no wake-up but the first line of a batch. The writer thread
//! gathers a batch for up to [`BATCH`] (a warning or worse is written at
//! once) and writes it in one `write`: one system call for thousands of
//! lines, where a line per call costs a request a third of its speed.
//!
//! Nothing is lost on a clean stop: [`LogFlush`], held by whoever serves,
//! writes what is buffered when it is dropped, and lines logged after go
//! straight to stderr. Where the writer cannot keep up (stderr a pipe no
//! one reads, a full disk), the buffer stops at [`CAPACITY`] and lines
//! past it are dropped, never waited for by a request: counted at
//! `/metrics` (`log_lines_dropped_total`) and told in the log once it
//! writes again. A process killed outright loses at most the last batch.

use std::io::Write as _;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use prometheus_client::metrics::counter::Counter;
use slog::{Drain, OwnedKVList, Record};

use super::log_lines::{self, LogFormat};

/// How long the writer gathers lines before it writes them.
const BATCH: Duration = Duration::from_millis(20);
/// The most bytes waiting to be written; lines beyond are dropped.
const CAPACITY: usize = 4 * 1024 * 1024;
/// How long a clean stop waits for the writer to write what is left.
const FLUSH_WAIT: Duration = Duration::from_secs(5);

/// The drain that queues formatted lines for the writer thread.
pub(super) struct BatchedStderr {
    pub(super) shared: Arc<Shared>,
    pub(super) format: LogFormat,
}

/// Held while serving: dropped, it writes what is left (see the module).
#[must_use = "dropping it flushes the log: hold it until the service stops"]
pub struct LogFlush {
    shared: Arc<Shared>,
}

pub(super) struct Shared {
    pending: Mutex<Pending>,
    /// Wakes the writer: a first line, an urgent one, the stop.
    wake: Condvar,
    /// Tells [`LogFlush`] the writer has written everything and left.
    finished: Condvar,
}

#[derive(Default)]
struct Pending {
    bytes: Vec<u8>,
    lines: u64,
    /// A warning or worse is waiting: write without gathering more.
    urgent: bool,
    /// Lines dropped since the writer last told of it.
    dropped: u64,
    stopping: bool,
    /// The writer has left: lines are written by whoever logs them.
    finished: bool,
}

/// `log_lines_dropped_total`, registered on first use.
fn dropped_lines() -> &'static Counter {
    static DROPPED: OnceLock<Counter> = OnceLock::new();
    DROPPED.get_or_init(|| {
        let counter = Counter::default();
        crate::metrics::registry()
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .register(
                "log_lines_dropped",
                "Log lines dropped because stderr did not take them as fast as they were logged",
                counter.clone(),
            );
        counter
    })
}

/// The drain, and the guard that flushes it; the writer thread started.
pub(super) fn start(format: LogFormat) -> std::io::Result<(BatchedStderr, LogFlush)> {
    let shared = Arc::new(Shared {
        pending: Mutex::new(Pending::default()),
        wake: Condvar::new(),
        finished: Condvar::new(),
    });
    // Declared before the first line, so that a scrape shows 0.
    dropped_lines();
    let writer = shared.clone();
    std::thread::Builder::new()
        .name("log-writer".into())
        .spawn(move || writer.write_until_stopped(format))?;
    Ok((
        BatchedStderr {
            shared: shared.clone(),
            format,
        },
        LogFlush { shared },
    ))
}

thread_local! {
    /// The line being formatted, reused by each record on this thread.
    static LINE: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Drain for BatchedStderr {
    type Ok = ();
    type Err = slog::Never;

    fn log(&self, record: &Record<'_>, values: &OwnedKVList) -> Result<(), slog::Never> {
        let urgent = record.level().is_at_least(slog::Level::Warning);
        self.shared
            .queue_formatted(|line| log_lines::format(self.format, record, values, line), urgent);
        Ok(())
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Pending> {
        self.pending.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Queues the line `format` writes into a buffer of this thread's.
    pub(super) fn queue_formatted(&self, format: impl FnOnce(&mut Vec<u8>), urgent: bool) {
        LINE.with_borrow_mut(|line| {
            line.clear();
            format(line);
            self.queue(line, urgent);
        });
    }

    fn queue(&self, line: &[u8], urgent: bool) {
        let mut pending = self.lock();
        if pending.finished {
            // After the stop: written at once, in order (under the lock).
            if std::io::stderr().write_all(line).is_err() {
                dropped_lines().inc();
            }
            return;
        }
        if pending.bytes.len() + line.len() > CAPACITY {
            pending.dropped += 1;
            dropped_lines().inc();
            return;
        }
        let first = pending.bytes.is_empty();
        pending.bytes.extend_from_slice(line);
        pending.lines += 1;
        pending.urgent |= urgent;
        drop(pending);
        if first || urgent {
            self.wake.notify_one();
        }
    }

    fn write_until_stopped(&self, format: LogFormat) {
        let mut batch = Vec::new();
        loop {
            let mut pending = self.lock();
            while pending.bytes.is_empty() && pending.dropped == 0 && !pending.stopping {
                pending = self.wake.wait(pending).unwrap_or_else(|p| p.into_inner());
            }
            if pending.bytes.is_empty() && pending.dropped == 0 {
                pending.finished = true;
                drop(pending);
                self.finished.notify_all();
                return;
            }
            if !pending.urgent && !pending.stopping {
                pending = self
                    .wake
                    .wait_timeout_while(pending, BATCH, |p| !p.urgent && !p.stopping)
                    .map(|(pending, _)| pending)
                    .unwrap_or_else(|p| p.into_inner().0);
            }
            std::mem::swap(&mut batch, &mut pending.bytes);
            let lines = std::mem::take(&mut pending.lines);
            let dropped = std::mem::take(&mut pending.dropped);
            pending.urgent = false;
            drop(pending);
            if dropped > 0 {
                // The dropped lines came after this batch's last.
                log_lines::format_dropped(format, dropped, &mut batch);
            }
            if std::io::stderr().write_all(&batch).is_err() {
                dropped_lines().inc_by(lines);
            }
            batch.clear();
            if batch.capacity() > CAPACITY {
                batch.shrink_to(CAPACITY / 4);
            }
        }
    }
}

impl Drop for LogFlush {
    fn drop(&mut self) {
        let mut pending = self.shared.lock();
        pending.stopping = true;
        self.shared.wake.notify_one();
        // Bounded: a stderr that takes nothing must not hold the stop.
        let deadline = Instant::now() + FLUSH_WAIT;
        while !pending.finished {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            pending = self
                .shared
                .finished
                .wait_timeout(pending, left)
                .map(|(pending, _)| pending)
                .unwrap_or_else(|p| p.into_inner().0);
        }
    }
}
