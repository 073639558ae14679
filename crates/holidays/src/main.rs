//! Serves holidays (`--help` lists the options every generated
//! service takes: `--bind`, logs, metrics, CORS, the shutdown and the
//! connections it closes), prints `Serving <base URL>`, and runs until
//! SIGTERM or SIGINT.

use clap::Parser;
use holidays::runtime::serving::{ServeOptions, serve};

#[derive(Parser)]
#[command(about = "Serve holidays")]
struct Args {
    #[command(flatten)]
    serve: ServeOptions,
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args = Args::parse();
    let service = holidays::service::Service::default();
    serve(
        &args.serve,
        service,
        holidays::endpoints()?,
        holidays::settings(),
        holidays::api::BASE_PATH,
    )
    .await
}
