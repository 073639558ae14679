//! Shared bits of the baseline servers: their arguments and the first line
//! of output (`Serving URL`), the same as `petstore-server serve`.

use std::net::SocketAddr;

use bytes::Bytes;
use clap::Parser;

#[derive(Parser)]
pub struct Args {
    #[arg(long, default_value = "127.0.0.1:0")]
    pub bind: SocketAddr,
    /// For the hand-written server: the SQLite file to serve.
    #[arg(long, default_value = "")]
    pub database: String,
    /// For the servers that replay bytes: the response body of listOrders.
    #[arg(long)]
    pub body_file: Option<String>,
}

pub fn args() -> Args {
    Args::parse()
}

impl Args {
    /// The listOrders body to replay, read from `--body-file`.
    pub fn body(&self) -> Bytes {
        let path = self.body_file.as_deref().expect("--body-file is required");
        Bytes::from(std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}")))
    }
}

pub async fn listen(bind: SocketAddr) -> tokio::net::TcpListener {
    let listener = tokio::net::TcpListener::bind(bind).await.expect("bind");
    println!("Serving http://{}/v1", listener.local_addr().unwrap());
    listener
}

/// The dropshot floor's logger: errors only, with the level filter before
/// the async drain (as our server's), so that the records it drops cost
/// nothing; dropshot's own `ConfigLogging::to_logger` filters after the
/// drain, which would handicap the floor.
pub fn error_logger() -> slog::Logger {
    use slog::Drain;
    let format = slog_term::FullFormat::new(slog_term::TermDecorator::new().build())
        .build()
        .fuse();
    let queued = slog_async::Async::new(format).chan_size(1024).build().fuse();
    slog::Logger::root(slog::LevelFilter::new(queued, slog::Level::Error).fuse(), slog::o!())
}
