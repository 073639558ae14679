//! Serves petstore-v3-stub on `--bind` (port 0 picks a free one), prints
//! `Serving <base URL>`, and runs until stopped.

use clap::Parser;

#[derive(Parser)]
#[command(about = "Serve petstore-v3-stub")]
struct Args {
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:8080")]
    bind: std::net::SocketAddr,
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args = Args::parse();
    let log = dropshot::ConfigLogging::StderrTerminal {
        level: dropshot::ConfigLoggingLevel::Info,
    }
    .to_logger("petstore-v3-stub")
    .map_err(|e| format!("cannot log: {e}"))?;
    let server = petstore_v3_stub::start(args.bind, log)?;
    println!(
        "Serving http://{}{}",
        server.local_addr(),
        petstore_v3_stub::api::BASE_PATH
    );
    server.await
}
