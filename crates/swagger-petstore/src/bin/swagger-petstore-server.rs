//! The Swagger Petstore as a process: accepts the OAuth2 token `--token`
//! and the API key `--key`, prints `Serving <base URL>`, and runs until
//! SIGTERM or SIGINT, with the options every generated service takes
//! (`--help`).

use clap::Parser;
use swagger_petstore::runtime::serving::{ServeOptions, serve};
use swagger_petstore::service::Service;

#[derive(Parser)]
#[command(about = "Serve the Swagger Petstore v3's in-memory implementation")]
struct Args {
    /// The OAuth2 access token callers may send (`petstore_auth`); it
    /// grants every scope.
    #[arg(long, env = "SWAGGER_PETSTORE_TOKEN", hide_env_values = true)]
    token: String,
    /// The API key callers may send (`api_key`).
    #[arg(long, env = "SWAGGER_PETSTORE_KEY", hide_env_values = true)]
    key: String,
    #[command(flatten)]
    serve: ServeOptions,
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args = Args::parse();
    let service = Service::new(args.token, args.key);
    let api = swagger_petstore::server::endpoints()?;
    let settings = swagger_petstore::server::settings();
    serve(&args.serve, service, api, settings, swagger_petstore::api::BASE_PATH).await
}
