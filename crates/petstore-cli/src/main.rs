//! `petstore`: list and cancel orders from the command line.
//!
//! Written over the generated client rather than progenitor's generated
//! CLI, which needs the builder interface and prints Rust debug output
//! instead of JSON and the Error object's message.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use petstore_client::{ApiKey, Client, Error, PRODUCTION_BASE_URL, STAGING_BASE_URL, types};

#[derive(Parser)]
#[command(
    name = "petstore",
    version,
    about = "The Pet Store orders API from the command line; prints JSON"
)]
struct Cli {
    /// The API key (or set PETSTORE_API_KEY).
    #[arg(long, env = "PETSTORE_API_KEY", hide_env_values = true)]
    api_key: String,
    /// The API's base URL, ending in the version (default: production).
    #[arg(long, conflicts_with = "staging")]
    base_url: Option<String>,
    /// Use the staging environment.
    #[arg(long)]
    staging: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Orders placed in the store.
    #[command(subcommand)]
    Orders(OrdersCommand),
}

#[derive(Subcommand)]
enum OrdersCommand {
    /// List every order (JSON array).
    List,
    /// Cancel a pending order.
    Cancel {
        /// The order's id.
        order_id: i64,
    },
}

/// The base URL the flags select.
fn base_url(base_url: Option<&str>, staging: bool) -> &str {
    match (base_url, staging) {
        (Some(url), _) => url,
        (None, true) => STAGING_BASE_URL,
        (None, false) => PRODUCTION_BASE_URL,
    }
}

/// What to print on failure: the Error object's message where the server
/// sent one.
fn describe(error: Error<types::Error>) -> String {
    match error {
        Error::ErrorResponse(response) => {
            let status = response.status();
            let body = response.into_inner();
            format!("{} ({}, HTTP {})", body.message, body.code, status.as_u16())
        }
        Error::UnexpectedResponse(response) => format!("unexpected response: HTTP {}", response.status()),
        Error::CommunicationError(e) => format!("cannot reach the API: {e}"),
        other => other.to_string(),
    }
}

async fn run(cli: Cli) -> Result<serde_json::Value, Error<types::Error>> {
    let client = Client::new(base_url(cli.base_url.as_deref(), cli.staging), ApiKey::new(cli.api_key));
    match cli.command {
        Command::Orders(OrdersCommand::List) => {
            let orders = client.list_orders().await?.into_inner();
            Ok(serde_json::to_value(orders).expect("orders serialize"))
        }
        Command::Orders(OrdersCommand::Cancel { order_id }) => {
            client.cancel_order(order_id).await?;
            Ok(serde_json::json!({ "orderId": order_id, "cancelled": true }))
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    match runtime.block_on(run(cli)) {
        Ok(value) => {
            println!("{}", serde_json::to_string_pretty(&value).expect("JSON"));
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {}", describe(error));
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn production_is_the_default_and_staging_switches() {
        assert_eq!(base_url(None, false), PRODUCTION_BASE_URL);
        assert_eq!(base_url(None, true), STAGING_BASE_URL);
        assert_eq!(
            base_url(Some("http://localhost:8080/v1"), false),
            "http://localhost:8080/v1"
        );
    }
}
