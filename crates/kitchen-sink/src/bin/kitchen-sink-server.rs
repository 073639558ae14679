//! The kitchen sink as a process, for Schemathesis: serves on `--bind` with
//! the API key `--key`, prints `Serving <base URL>`, and runs until killed.

use clap::Parser;
use kitchen_sink::service::Service;

#[derive(Parser)]
#[command(about = "Serve the kitchen-sink spec's in-memory implementation")]
struct Args {
    /// Where to listen (port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:0")]
    bind: std::net::SocketAddr,
    /// The API key callers must send.
    #[arg(long, env = "KITCHEN_SINK_KEY")]
    key: String,
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args = Args::parse();
    let server = kitchen_sink::server::start(
        Service::new(vec![args.key]),
        args.bind,
        kitchen_sink::server::quiet_logger(),
    )?;
    println!("Serving http://{}{}", server.local_addr(), kitchen_sink::api::BASE_PATH);
    server.await
}
