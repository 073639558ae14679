//! Serves petstore-v3-stub (`--help` lists the options every generated
//! service takes: `--bind`, logs, metrics, CORS, the shutdown and the
//! connections it closes), prints `Serving <base URL>`, and runs until
//! SIGTERM or SIGINT.

use clap::Parser;
use petstore_v3_stub::runtime::serving::{ServeOptions, serve};

#[derive(Parser)]
#[command(about = "Serve petstore-v3-stub")]
struct Args {
    #[command(flatten)]
    serve: ServeOptions,
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args = Args::parse();
    let service = petstore_v3_stub::service::Service::default();
    serve(
        &args.serve,
        service,
        petstore_v3_stub::endpoints()?,
        petstore_v3_stub::settings(),
        petstore_v3_stub::api::BASE_PATH,
    )
    .await
}
