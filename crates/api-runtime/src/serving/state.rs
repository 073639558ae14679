//! What a served service shares with the generated layer and the probes:
//! the requests being answered, whether a drain has started, how
//! readiness is told, and which origins may call it (CORS).
//!
//! A service holds one [`Serving`] and gives it through [`Served`] (every
//! generated handlers trait extends it): the generated layer counts each
//! request in it
//! ([`super::Answering`]), so that a shutdown waits for exactly those, and
//! `/readyz` asks its readiness. It belongs to the service, not to the
//! process: tests run several servers in one process.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use futures_util::future::BoxFuture;

use super::in_flight::InFlight;
use super::origins::Cors;
use super::request_lines::RequestLines;

/// How `/readyz` learns whether the service can answer: `Err` says why
/// not (the database is down, read-only, ...).
pub type Readiness = Box<dyn Fn() -> BoxFuture<'static, Result<(), String>> + Send + Sync>;

/// How a service gives the state it is served with: the generated layer
/// counts every request in it, so that a shutdown waits for them, and
/// `/readyz` asks its readiness. Every generated handlers trait extends
/// it, beside `Authenticator`.
pub trait Served: Send + Sync + 'static {
    /// The service's [`Serving`]; `None` (the default) for a service
    /// served otherwise, as by a test's own `ServerBuilder`:
    /// [`super::Running::start`] refuses it.
    fn serving(&self) -> Option<&Serving> {
        None
    }
}

/// A served service's shared state; see the module's documentation.
#[derive(Default)]
pub struct Serving {
    in_flight: InFlight,
    draining: AtomicBool,
    readiness: OnceLock<Readiness>,
    cors: OnceLock<Cors>,
    request_lines: OnceLock<RequestLines>,
}

impl Serving {
    /// Readiness told by `ready` (without it, a service that serves HTTP
    /// is ready).
    pub fn ready_when(self, ready: Readiness) -> Self {
        let _ = self.readiness.set(ready);
        self
    }

    /// Allows cross-origin requests by `cors` (once: `Running::start`
    /// sets it from `--cors-origin`).
    pub fn allow_origins(&self, cors: Cors) -> Result<(), String> {
        self.cors
            .set(cors)
            .map_err(|_| "the allowed origins are set already".to_string())
    }

    /// The origins allowed, if CORS is on.
    pub fn cors(&self) -> Option<&Cors> {
        self.cors.get()
    }

    /// Has the generated layer write each request's line to `lines` (once:
    /// `Running::start` sets it from the log it is given).
    pub fn write_request_lines(&self, lines: RequestLines) {
        let _ = self.request_lines.set(lines);
    }

    /// Where the generated layer writes request lines, if it does.
    pub fn request_lines(&self) -> Option<&RequestLines> {
        self.request_lines.get()
    }

    /// The requests being answered.
    pub fn in_flight(&self) -> &InFlight {
        &self.in_flight
    }

    /// From now on `/readyz` answers 503.
    pub fn start_draining(&self) {
        self.draining.store(true, Ordering::Release);
    }

    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::Acquire)
    }

    /// Whether the service can answer (see [`Readiness`]).
    pub async fn ready(&self) -> Result<(), String> {
        match self.readiness.get() {
            Some(ready) => ready().await,
            None => Ok(()),
        }
    }
}
