//! This process's TCP sockets, found by the address they are bound to.
//!
//! dropshot owns the listening socket and every accepted connection, and
//! hands out neither; the shutdown needs the one, the connection reaper the
//! others. Both are found here by asking each descriptor number below the
//! open-files limit for its addresses, which needs no descriptor of its
//! own: when a flood has taken them all, `/proc/self/fd` could not even be
//! opened.

use std::net::SocketAddr;
use std::os::fd::RawFd;

use nix::sys::socket::{SockaddrStorage, getpeername, getsockname};

use super::process_limits::open_files_limit;

/// A socket of this process bound to the address asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoundSocket {
    pub fd: RawFd,
    /// `None` for a listening socket.
    pub peer: Option<SocketAddr>,
}

/// The sockets bound to `local`: its listener and its accepted
/// connections (whose local address is the interface's own when `local`
/// is unspecified, `0.0.0.0` or `[::]`).
pub fn bound_to(local: SocketAddr) -> Vec<BoundSocket> {
    (0..open_files_limit() as RawFd)
        .filter(|&fd| is_bound_to(fd, local))
        .map(|fd| BoundSocket { fd, peer: peer_of(fd) })
        .collect()
}

/// Whether descriptor `fd` is (still) a socket bound to `local`.
pub fn is_bound_to(fd: RawFd, local: SocketAddr) -> bool {
    let bound = getsockname::<SockaddrStorage>(fd).ok().and_then(|a| address(&a));
    bound.is_some_and(|bound| bound.port() == local.port() && (local.ip().is_unspecified() || bound.ip() == local.ip()))
}

/// The other end of a connected socket.
pub fn peer_of(fd: RawFd) -> Option<SocketAddr> {
    getpeername::<SockaddrStorage>(fd).ok().and_then(|a| address(&a))
}

fn address(address: &SockaddrStorage) -> Option<SocketAddr> {
    match (address.as_sockaddr_in(), address.as_sockaddr_in6()) {
        (Some(v4), _) => Some(SocketAddr::from(*v4)),
        (_, Some(v6)) => Some(SocketAddr::from(*v6)),
        _ => None,
    }
}
