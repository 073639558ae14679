//! The kitchen sink as a process: serves with the API key `--key`, prints
//! `Serving <base URL>`, and runs until SIGTERM or SIGINT, with the
//! options every generated service takes (`--help`).

use clap::Parser;
use kitchen_sink::runtime::serving::{ServeOptions, serve};
use kitchen_sink::service::Service;

#[derive(Parser)]
#[command(about = "Serve the kitchen-sink spec's in-memory implementation")]
struct Args {
    /// The API key callers must send.
    #[arg(long, env = "KITCHEN_SINK_KEY", hide_env_values = true)]
    key: String,
    #[command(flatten)]
    serve: ServeOptions,
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args = Args::parse();
    let service = Service::new(vec![args.key]);
    let api = kitchen_sink::server::endpoints()?;
    serve(
        &args.serve,
        service,
        api,
        kitchen_sink::server::settings(),
        kitchen_sink::api::BASE_PATH,
    )
    .await
}
