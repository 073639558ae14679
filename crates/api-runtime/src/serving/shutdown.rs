//! Stopping the service: signals, the listening socket, and a shutdown
//! that ends within a deadline whatever the clients do.
//!
//! dropshot's `HttpServer::close` stops its accept loop but keeps the
//! listening socket open until every connection has ended: meanwhile the
//! kernel still completes new clients' handshakes, and they wait for an
//! answer that never comes. And every connection includes an idle HTTP/2
//! one whose client never answers, or a request whose head never finishes
//! arriving. So the shutdown here (1) shuts the listening socket down, so
//! that new clients are refused at once; (2) waits for the requests being
//! answered ([`super::in_flight`]), up to the deadline; (3) gives dropshot a
//! moment to write their responses and close idle connections; and then
//! returns, so that the database is closed and the process exits, closing
//! whatever connections are left.

use std::net::SocketAddr;
use std::os::fd::RawFd;
use std::time::Duration;

use nix::sys::socket::Shutdown;
use slog::Logger;
use tokio::signal::unix::{Signal, SignalKind, signal};
use tokio::time::{Instant, timeout_at};

use super::in_flight::InFlight;
use super::sockets;

/// After the requests in flight are answered, at most this long for their
/// responses to be written and for connections to close on their own.
const WRITE_GRACE: Duration = Duration::from_secs(1);

/// SIGINT and SIGTERM, which stop the service, and SIGHUP (a closed
/// terminal, a log rotation script), which is logged and otherwise
/// ignored: it never stops the service or its requests.
///
/// The handlers are installed when this is made, before the service says
/// where it listens: a SIGTERM sent as soon as it is up (a supervisor, a
/// test) is then a graceful stop, never the default action that kills the
/// process on the spot.
pub struct StopSignals {
    /// SIGINT, SIGTERM, SIGHUP; `None` when they cannot be installed.
    signals: Option<(Signal, Signal, Signal)>,
}

impl StopSignals {
    pub fn install(log: &Logger) -> StopSignals {
        let installed = (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
            signal(SignalKind::hangup()),
        );
        let signals = match installed {
            (Ok(interrupt), Ok(term), Ok(hangup)) => Some((interrupt, term, hangup)),
            _ => {
                slog::warn!(log, "cannot install signal handlers; stop the service with SIGKILL");
                None
            }
        };
        StopSignals { signals }
    }

    /// Resolves on SIGINT or SIGTERM, with the signal's name.
    pub async fn next(&mut self, log: &Logger) -> &'static str {
        let Some((interrupt, term, hangup)) = self.signals.as_mut() else {
            return std::future::pending().await;
        };
        loop {
            tokio::select! {
                _ = interrupt.recv() => return "SIGINT",
                _ = term.recv() => return "SIGTERM",
                _ = hangup.recv() => slog::info!(log, "SIGHUP ignored; SIGTERM or SIGINT stops the service"),
            }
        }
    }
}

/// The socket dropshot listens on, found by its address: the one socket of
/// this process bound to `address` with no peer.
pub struct ListeningSocket {
    fd: RawFd,
    address: SocketAddr,
}

impl ListeningSocket {
    /// Looks for it among this process's sockets. Call it right after the
    /// server started.
    pub fn find(address: SocketAddr) -> Option<ListeningSocket> {
        sockets::bound_to(address)
            .into_iter()
            .find(|socket| socket.peer.is_none())
            .map(|socket| ListeningSocket { fd: socket.fd, address })
    }

    /// Stops accepting: connections waiting to be accepted are reset, and
    /// new ones are refused. The descriptor stays open (dropshot owns it);
    /// it is checked again first, in case it was closed and its number
    /// reused.
    pub fn stop(&self) -> nix::Result<()> {
        if !sockets::is_bound_to(self.fd, self.address) || sockets::peer_of(self.fd).is_some() {
            return Ok(());
        }
        nix::sys::socket::shutdown(self.fd, Shutdown::Both)
    }
}

/// The shutdown after a signal: see the module's documentation. `close` is
/// dropshot's close; it is started first, so that its accept loop ends
/// before the socket is shut down. Returns by `deadline`.
pub async fn stop_serving<F>(
    close: F,
    listener: Option<&ListeningSocket>,
    in_flight: &InFlight,
    deadline: Instant,
    log: &Logger,
) where
    F: Future<Output = Result<(), String>> + Send + 'static,
{
    let closing = tokio::spawn(close);
    // Let dropshot's accept loop see the close signal first: shut down
    // under it, its accept would fail and be retried, with a warning.
    tokio::time::sleep(Duration::from_millis(20)).await;
    match listener.map(ListeningSocket::stop) {
        Some(Ok(())) => {}
        Some(Err(e)) => slog::warn!(log, "cannot stop the listening socket"; "error" => %e),
        None => slog::warn!(
            log,
            "listening socket not found; new clients wait until the process exits"
        ),
    }
    let requests = in_flight.count();
    slog::info!(log, "finishing requests in flight"; "requests" => requests);
    if timeout_at(deadline, in_flight.drained()).await.is_err() {
        slog::warn!(log, "shutdown deadline reached with requests in flight"; "requests" => in_flight.count());
        return;
    }
    let grace = deadline.min(Instant::now() + WRITE_GRACE);
    match timeout_at(grace, closing).await {
        Ok(Ok(Ok(()))) => {}
        Ok(Ok(Err(e))) => slog::warn!(log, "server close failed"; "error" => e),
        Ok(Err(e)) => slog::warn!(log, "server close failed"; "error" => %e),
        Err(_) => slog::info!(log, "closing connections that are idle or unfinished"),
    }
}
