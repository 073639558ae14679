//! Serves kitchen-sink-31 on `--bind` (port 0 picks a free one), prints
//! `Serving <base URL>`, and runs until stopped.

use clap::Parser;

#[derive(Parser)]
#[command(about = "Serve kitchen-sink-31")]
struct Args {
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:8080")]
    bind: std::net::SocketAddr,
    /// The bearer key every operation takes (never logged).
    #[arg(long, env = "KITCHEN_SINK_31_KEY", hide_env_values = true)]
    key: String,
    /// Where the `shapeAdded` webhook goes (a receiver of
    /// `api::webhooks`, at its `/shapeAdded`); none is sent without it.
    #[arg(long, env = "KITCHEN_SINK_31_WEBHOOK_URL")]
    webhook_url: Option<String>,
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args = Args::parse();
    let log = dropshot::ConfigLogging::StderrTerminal {
        level: dropshot::ConfigLoggingLevel::Info,
    }
    .to_logger("kitchen-sink-31")
    .map_err(|e| format!("cannot log: {e}"))?;
    let service = kitchen_sink_31::service::Service::new(args.key).with_webhook_url(args.webhook_url);
    let server = kitchen_sink_31::serve(args.bind, log, service)?;
    println!(
        "Serving http://{}{}",
        server.local_addr(),
        kitchen_sink_31::api::BASE_PATH
    );
    server.await
}
