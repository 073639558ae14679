//! The Swagger Petstore as a process, for Schemathesis: serves on `--bind`,
//! accepting the OAuth2 token `--token` and the API key `--key`, prints
//! `Serving <base URL>`, and runs until killed.

use clap::Parser;
use swagger_petstore::service::Service;

#[derive(Parser)]
#[command(about = "Serve the Swagger Petstore v3's in-memory implementation")]
struct Args {
    /// Where to listen (port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:0")]
    bind: std::net::SocketAddr,
    /// The OAuth2 access token callers may send (`petstore_auth`); it
    /// grants every scope.
    #[arg(long, env = "SWAGGER_PETSTORE_TOKEN")]
    token: String,
    /// The API key callers may send (`api_key`).
    #[arg(long, env = "SWAGGER_PETSTORE_KEY")]
    key: String,
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args = Args::parse();
    let server = swagger_petstore::server::start(
        Service::new(args.token, args.key),
        args.bind,
        swagger_petstore::server::quiet_logger(),
    )?;
    println!(
        "Serving http://{}{}",
        server.local_addr(),
        swagger_petstore::api::BASE_PATH
    );
    server.await
}
