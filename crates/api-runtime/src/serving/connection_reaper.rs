//! Closes client connections that hold a descriptor without using it.
//!
//! dropshot accepts its own connections and gives no hook for a read
//! timeout: a connection that never sends a byte stays open for good, and
//! enough of them exhaust the open-files limit, after which nobody is
//! served. So a thread beside the server looks at the service's
//! connections once a second, as the kernel sees them (sock_diag over
//! netlink, the interface `ss` uses: bytes received, time since the last
//! data either way), and shuts down:
//! - a connection that has sent nothing for `silent` (10 s by default);
//! - beyond `silent_per_client` (100) such connections from one address,
//!   the newest, once they are a second old: one client cannot hold the
//!   descriptors others need;
//! - a connection on which nothing moved, either way, for `idle` (60 s;
//!   longer than any database wait, so never a request being answered).
//!
//! Shutting a socket down (`shutdown(2)` on the descriptor whose peer is
//! the connection's) makes hyper see the end of the connection and drop
//! it, which closes the descriptor. The sweep runs off the request path: what
//! it costs is one netlink dump per second (measured in BENCHMARKS.md).

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use netlink_packet_core::{NLM_F_DUMP, NLM_F_REQUEST, NetlinkHeader, NetlinkMessage, NetlinkPayload};
use netlink_packet_sock_diag::SockDiagMessage;
use netlink_packet_sock_diag::constants::{AF_INET, AF_INET6, IPPROTO_TCP};
use netlink_packet_sock_diag::inet::nlas::Nla;
use netlink_packet_sock_diag::inet::{ExtensionFlags, InetRequest, InetResponse, SocketId, StateFlags};
use netlink_sys::Socket;
use netlink_sys::protocols::NETLINK_SOCK_DIAG;
use nix::sys::socket::Shutdown;
use slog::Logger;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;

use super::process_limits::open_files_limit;
use super::sockets;

/// When connections are closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReaperLimits {
    /// A connection that has sent nothing at all, this long after it opened.
    pub silent: Duration,
    /// Connections from one address that have sent nothing, past a second.
    pub silent_per_client: usize,
    /// A connection on which nothing was sent or received for this long.
    pub idle: Duration,
}

/// A connection to the service, as sock_diag reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Connection {
    pub peer: SocketAddr,
    pub inode: u32,
    pub bytes_received: u64,
    /// Since data last arrived (for a silent connection: since it opened).
    pub since_received: Duration,
    pub since_sent: Duration,
}

/// Which of `connections` to close, and why. Under `pressure` (descriptors
/// running out), a client's silent connections beyond its share are closed
/// however young.
pub fn to_close(connections: &[Connection], limits: &ReaperLimits, pressure: bool) -> Vec<(u32, &'static str)> {
    let young = if pressure {
        Duration::ZERO
    } else {
        Duration::from_secs(1)
    };
    let mut close = Vec::new();
    let mut silent_by_client: HashMap<IpAddr, Vec<&Connection>> = HashMap::new();
    for conn in connections {
        let silent = conn.bytes_received == 0;
        if silent && conn.since_received >= limits.silent {
            close.push((conn.inode, "silent"));
        } else if conn.since_received >= limits.idle && conn.since_sent >= limits.idle {
            close.push((conn.inode, "idle"));
        } else if silent && conn.since_received >= young {
            silent_by_client.entry(conn.peer.ip()).or_default().push(conn);
        }
    }
    for (_, mut silent) in silent_by_client {
        if silent.len() > limits.silent_per_client {
            // Keep the oldest: they were there first.
            silent.sort_by_key(|conn| std::cmp::Reverse(conn.since_received));
            close.extend(
                silent[limits.silent_per_client..]
                    .iter()
                    .map(|c| (c.inode, "over the per-client cap")),
            );
        }
    }
    close
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Reason {
    reason: &'static str,
}

/// `http_connections_closed_total{reason}`, registered on first use.
fn closed_connections() -> &'static Family<Reason, Counter> {
    static CLOSED: std::sync::OnceLock<Family<Reason, Counter>> = std::sync::OnceLock::new();
    CLOSED.get_or_init(|| {
        let closed = Family::default();
        crate::metrics::registry()
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .register(
                "http_connections_closed",
                "Client connections the reaper closed, by reason",
                closed.clone(),
            );
        closed
    })
}

/// Starts the sweeping thread for the server listening on `local`.
pub fn start(local: SocketAddr, limits: ReaperLimits, log: Logger) {
    let interval = (limits.silent / 4).clamp(Duration::from_millis(250), Duration::from_secs(1));
    // The netlink socket is opened now, once: when the flood it is there
    // for has taken every descriptor, a new one could not be.
    let mut diag = match SockDiag::open() {
        Ok(diag) => diag,
        Err(e) => {
            slog::error!(log, "cannot watch connections (sock_diag); silent connections will not be closed"; "error" => %e);
            return;
        }
    };
    let thread_log = log.clone();
    let spawned = std::thread::Builder::new()
        .name("connection-reaper".into())
        .spawn(move || {
            let log = thread_log;
            let mut last_error = None;
            let mut pause = interval;
            loop {
                std::thread::sleep(pause);
                pause = match sweep(&mut diag, local, &limits, &log) {
                    Ok(closed) => {
                        last_error = None;
                        // Something had to be closed: a flood may be on, look again soon.
                        if closed > 0 {
                            Duration::from_millis(100)
                        } else {
                            interval
                        }
                    }
                    Err(e) => {
                        // Logged once, not once a sweep, until it changes.
                        if last_error.as_ref() != Some(&e.to_string()) {
                            slog::error!(log, "cannot list connections; will retry"; "error" => %e);
                            last_error = Some(e.to_string());
                        }
                        interval
                    }
                };
            }
        });
    if let Err(e) = spawned {
        slog::error!(log, "cannot start the connection reaper"; "error" => %e);
    }
}

/// One look at the connections; how many were closed.
fn sweep(diag: &mut SockDiag, local: SocketAddr, limits: &ReaperLimits, log: &Logger) -> std::io::Result<usize> {
    let connections = diag.connections_to(local)?;
    let limit = open_files_limit();
    let pressure = connections.len() as u64 * 10 >= limit * 8;
    let close = to_close(&connections, limits, pressure);
    if close.is_empty() {
        return Ok(0);
    }
    let peers: HashMap<u32, SocketAddr> = connections.iter().map(|c| (c.inode, c.peer)).collect();
    let close: HashMap<SocketAddr, &'static str> = close
        .into_iter()
        .filter_map(|(inode, why)| Some((*peers.get(&inode)?, why)))
        .collect();
    let mut closed: HashMap<&'static str, usize> = HashMap::new();
    for socket in sockets::bound_to(local) {
        if let Some(why) = socket.peer.and_then(|peer| close.get(&peer))
            && nix::sys::socket::shutdown(socket.fd, Shutdown::Both).is_ok()
        {
            *closed.entry(why).or_default() += 1;
        }
    }
    for (why, count) in &closed {
        slog::warn!(log, "closed connections"; "reason" => *why, "count" => count);
        closed_connections()
            .get_or_create(&Reason { reason: why })
            .inc_by(*count as u64);
    }
    Ok(closed.values().sum())
}

/// A netlink socket for sock_diag, kept open between sweeps.
struct SockDiag {
    socket: Socket,
    sequence: u32,
}

impl SockDiag {
    fn open() -> std::io::Result<SockDiag> {
        let mut socket = Socket::new(NETLINK_SOCK_DIAG)?;
        socket.bind_auto()?;
        socket.connect(&netlink_sys::SocketAddr::new(0, 0))?;
        Ok(SockDiag { socket, sequence: 0 })
    }

    /// The established TCP connections whose local end is `local`.
    fn connections_to(&mut self, local: SocketAddr) -> std::io::Result<Vec<Connection>> {
        self.sequence = self.sequence.wrapping_add(1);
        let mut header = NetlinkHeader::default();
        header.flags = NLM_F_REQUEST | NLM_F_DUMP;
        header.sequence_number = self.sequence;
        let mut request = NetlinkMessage::new(
            header,
            SockDiagMessage::InetRequest(InetRequest {
                family: if local.is_ipv4() { AF_INET } else { AF_INET6 },
                protocol: IPPROTO_TCP,
                extensions: ExtensionFlags::INFO,
                states: StateFlags::ESTABLISHED,
                socket_id: if local.is_ipv4() {
                    SocketId::new_v4()
                } else {
                    SocketId::new_v6()
                },
            })
            .into(),
        );
        request.finalize();
        let mut buf = vec![0; request.buffer_len()];
        request.serialize(&mut buf);
        self.socket.send(&buf, 0)?;

        let mut connections = Vec::new();
        loop {
            let (datagram, _) = self.socket.recv_from_full()?;
            let mut offset = 0;
            while offset < datagram.len() {
                let message = NetlinkMessage::<SockDiagMessage>::deserialize(&datagram[offset..])
                    .map_err(|e| std::io::Error::other(format!("sock_diag: {e}")))?;
                let length = message.header.length as usize;
                // What is left of an earlier, failed sweep's answer.
                let current = message.header.sequence_number == self.sequence;
                match message.payload {
                    NetlinkPayload::InnerMessage(SockDiagMessage::InetResponse(response)) if current => {
                        connections.extend(connection(&response, local));
                    }
                    NetlinkPayload::Done(_) if current => return Ok(connections),
                    NetlinkPayload::Error(e) if current => {
                        return Err(std::io::Error::other(format!("sock_diag: {e:?}")));
                    }
                    _ => {}
                }
                if length == 0 {
                    break;
                }
                offset += length;
            }
        }
    }
}

fn connection(response: &InetResponse, local: SocketAddr) -> Option<Connection> {
    let id = &response.header.socket_id;
    let ours = id.source_port == local.port() && (local.ip().is_unspecified() || id.source_address == local.ip());
    if !ours {
        return None;
    }
    let info = response.nlas.iter().find_map(|nla| match nla {
        Nla::TcpInfo(info) => Some(info),
        _ => None,
    })?;
    Some(Connection {
        peer: SocketAddr::new(id.destination_address, id.destination_port),
        inode: response.header.inode,
        bytes_received: info.bytes_received,
        since_received: Duration::from_millis(info.last_data_recv.into()),
        since_sent: Duration::from_millis(info.last_data_sent.into()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conn(peer: &str, inode: u32, bytes: u64, received_ago: u64, sent_ago: u64) -> Connection {
        Connection {
            peer: peer.parse().unwrap(),
            inode,
            bytes_received: bytes,
            since_received: Duration::from_millis(received_ago),
            since_sent: Duration::from_millis(sent_ago),
        }
    }

    #[test]
    fn silent_idle_and_over_the_cap_are_closed_and_nothing_else() {
        let limits = ReaperLimits {
            silent: Duration::from_secs(10),
            silent_per_client: 2,
            idle: Duration::from_secs(60),
        };
        let connections = [
            conn("10.0.0.1:1", 1, 0, 11_000, 11_000),   // silent too long
            conn("10.0.0.1:2", 2, 500, 61_000, 61_000), // idle
            conn("10.0.0.1:3", 3, 500, 61_000, 100),    // sending a long answer
            conn("10.0.0.1:4", 4, 500, 100, 61_000),    // a request just arrived
            conn("10.0.0.2:1", 5, 0, 5_000, 5_000),     // silent, the oldest three of one client
            conn("10.0.0.2:2", 6, 0, 4_000, 4_000),
            conn("10.0.0.2:3", 7, 0, 3_000, 3_000),
            conn("10.0.0.3:1", 8, 0, 500, 500), // just opened
        ];
        let mut closed = to_close(&connections, &limits, false);
        closed.sort();
        assert_eq!(closed, vec![(1, "silent"), (2, "idle"), (7, "over the per-client cap")]);
        // Running out of descriptors: a second is too long to wait.
        let young = [
            conn("10.0.0.3:1", 1, 0, 0, 0),
            conn("10.0.0.3:2", 2, 0, 0, 0),
            conn("10.0.0.3:3", 3, 0, 0, 0),
        ];
        assert!(to_close(&young, &limits, false).is_empty());
        assert_eq!(to_close(&young, &limits, true).len(), 1);
    }
}
