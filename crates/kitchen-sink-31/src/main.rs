//! Serves kitchen-sink-31, prints `Serving <base URL>`, and runs until
//! SIGTERM or SIGINT, with the options every generated service takes
//! (`--help`).

use clap::Parser;
use kitchen_sink_31::runtime::serving::{ServeOptions, serve};

#[derive(Parser)]
#[command(about = "Serve kitchen-sink-31")]
struct Args {
    /// The bearer key every operation takes (never logged).
    #[arg(long, env = "KITCHEN_SINK_31_KEY", hide_env_values = true)]
    key: String,
    /// Where the `shapeAdded` webhook goes (a receiver of
    /// `api::webhooks`, at its `/shapeAdded`); none is sent without it.
    #[arg(long, env = "KITCHEN_SINK_31_WEBHOOK_URL")]
    webhook_url: Option<String>,
    #[command(flatten)]
    serve: ServeOptions,
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args = Args::parse();
    let service = kitchen_sink_31::service::Service::new(args.key).with_webhook_url(args.webhook_url);
    let api = kitchen_sink_31::endpoints()?;
    serve(
        &args.serve,
        service,
        api,
        kitchen_sink_31::settings(),
        kitchen_sink_31::api::BASE_PATH,
    )
    .await
}
