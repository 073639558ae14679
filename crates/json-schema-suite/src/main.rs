//! Serves json-schema-suite (`--help` lists the options every generated
//! service takes: `--bind`, logs, metrics, CORS, the shutdown and the
//! connections it closes), prints `Serving <base URL>`, and runs until
//! SIGTERM or SIGINT.

use clap::Parser;
use json_schema_suite::runtime::serving::{ServeOptions, serve};

#[derive(Parser)]
#[command(about = "Serve json-schema-suite")]
struct Args {
    #[command(flatten)]
    serve: ServeOptions,
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args = Args::parse();
    let service = json_schema_suite::service::Service::default();
    serve(
        &args.serve,
        service,
        json_schema_suite::endpoints()?,
        json_schema_suite::settings(),
        json_schema_suite::api::BASE_PATH,
    )
    .await
}
