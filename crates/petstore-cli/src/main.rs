//! `petstore`: list and cancel orders from the command line.
//!
//! Written over the generated client rather than progenitor's generated
//! CLI, which needs the builder interface and prints Rust debug output
//! instead of JSON and the Error object's message.

use std::num::NonZeroU32;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use futures::{StreamExt, TryStreamExt};
use petstore_client::{ApiKey, Retries, v2};

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
    /// The version of the API to talk.
    #[arg(long, value_enum, default_value_t = Api::V2)]
    api: Api,
    /// The server's URL (default: production). The version's path (`/v2`,
    /// or `/v1` with `--api v1`) is added; a trailing `/v1` or `/v2` is
    /// replaced by it.
    #[arg(long, conflicts_with = "staging")]
    base_url: Option<String>,
    /// Use the staging environment.
    #[arg(long)]
    staging: bool,
    /// Sends of a request, the first included, when it meets a transient
    /// failure: a refused connection, a timeout, 408, 429, 502, 503 or 504.
    /// Listing and cancelling are safe to repeat. The wait is the server's
    /// Retry-After (up to 60 s), or else from 0.5 s doubling to 8 s, with
    /// jitter; 2 minutes at most in all. 1 turns retries off.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=10))]
    attempts: u32,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Api {
    /// Version 1: every order in one response, no filters.
    V1,
    /// Version 2: pages and filters.
    V2,
}

#[derive(Subcommand)]
enum Command {
    /// Orders placed in the store.
    #[command(subcommand)]
    Orders(OrdersCommand),
}

#[derive(Subcommand)]
enum OrdersCommand {
    /// List orders (a JSON array), following the pages to the end (or to
    /// `--limit` orders).
    List(ListArgs),
    /// Cancel a pending order.
    Cancel {
        /// The order's id.
        order_id: i64,
    },
}

#[derive(Args)]
struct ListArgs {
    /// At most this many orders.
    #[arg(long, conflicts_with = "all")]
    limit: Option<NonZeroU32>,
    /// Every matching order, however many pages they take (the default).
    #[arg(long)]
    all: bool,
    /// Orders asked for per request (1 to 1000).
    #[arg(long, default_value_t = NonZeroU32::new(1000).expect("not zero"))]
    page_size: NonZeroU32,
    /// Only orders with this status.
    #[arg(long, value_enum)]
    status: Option<Status>,
    /// Only orders of this pet.
    #[arg(long)]
    pet_id: Option<i64>,
    /// Only orders shipping at or after this instant (RFC 3339).
    #[arg(long)]
    ship_date_from: Option<chrono::DateTime<chrono::Utc>>,
    /// Only orders shipping before this instant (RFC 3339).
    #[arg(long)]
    ship_date_to: Option<chrono::DateTime<chrono::Utc>>,
    /// Only orders whose `complete` flag is this.
    #[arg(long)]
    complete: Option<bool>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Status {
    Pending,
    Shipped,
}

impl ListArgs {
    /// The first option that only version 2 has, if any is set.
    fn v2_only_option(&self) -> Option<&'static str> {
        [
            (self.limit.is_some(), "--limit"),
            (self.status.is_some(), "--status"),
            (self.pet_id.is_some(), "--pet-id"),
            (self.ship_date_from.is_some(), "--ship-date-from"),
            (self.ship_date_to.is_some(), "--ship-date-to"),
            (self.complete.is_some(), "--complete"),
        ]
        .into_iter()
        .find_map(|(set, name)| set.then_some(name))
    }
}

/// The version's base URL the flags select.
fn base_url(api: Api, base_url: Option<&str>, staging: bool) -> String {
    let (production, staging_url, path) = match api {
        Api::V1 => (
            petstore_client::PRODUCTION_BASE_URL,
            petstore_client::STAGING_BASE_URL,
            "/v1",
        ),
        Api::V2 => (v2::PRODUCTION_BASE_URL, v2::STAGING_BASE_URL, "/v2"),
    };
    match (base_url, staging) {
        (Some(url), _) => {
            let url = url.trim_end_matches('/');
            let server = url
                .strip_suffix("/v1")
                .or_else(|| url.strip_suffix("/v2"))
                .unwrap_or(url);
            format!("{server}{path}")
        }
        (None, true) => staging_url.to_string(),
        (None, false) => production.to_string(),
    }
}

/// A failure, as printed: the error object's message where the server sent
/// one.
type Failure = String;

/// What to print for a client error.
fn describe<E: ErrorBody + std::fmt::Debug>(error: petstore_client::Error<E>) -> Failure {
    use petstore_client::Error;
    match error {
        Error::ErrorResponse(response) => {
            let status = response.status();
            let body = response.into_inner();
            format!("{} ({}, HTTP {})", body.message(), body.code(), status.as_u16())
        }
        Error::UnexpectedResponse(response) => format!("unexpected response: HTTP {}", response.status()),
        Error::CommunicationError(e) => format!("cannot reach the API: {e}"),
        other => other.to_string(),
    }
}

/// Both versions' error objects: v1's `Error`, v2's `Problem`.
trait ErrorBody {
    fn message(&self) -> &str;
    fn code(&self) -> &str;
}

impl ErrorBody for petstore_client::types::Error {
    fn message(&self) -> &str {
        &self.message
    }
    fn code(&self) -> &str {
        &self.code
    }
}

impl ErrorBody for v2::types::Problem {
    fn message(&self) -> &str {
        &self.message
    }
    fn code(&self) -> &str {
        &self.code
    }
}

async fn run(cli: Cli) -> Result<serde_json::Value, Failure> {
    let url = base_url(cli.api, cli.base_url.as_deref(), cli.staging);
    let key = ApiKey::new(cli.api_key);
    let retries = Retries::default().attempts(cli.attempts);
    match (cli.api, cli.command) {
        (Api::V1, Command::Orders(OrdersCommand::List(args))) => {
            if let Some(option) = args.v2_only_option() {
                return Err(format!("{option} needs version 2 (drop --api v1)"));
            }
            let client = petstore_client::Client::new(&url, key).with_retries(retries);
            let orders = client.list_orders().await.map_err(describe)?.into_inner();
            Ok(serde_json::to_value(orders).expect("orders serialize"))
        }
        (Api::V1, Command::Orders(OrdersCommand::Cancel { order_id })) => {
            let client = petstore_client::Client::new(&url, key).with_retries(retries);
            client.cancel_order(order_id).await.map_err(describe)?;
            Ok(cancelled(order_id))
        }
        (Api::V2, Command::Orders(OrdersCommand::List(args))) => {
            let orders = list_pages(&v2::Client::new(&url, key).with_retries(retries), &args).await?;
            Ok(serde_json::to_value(orders).expect("orders serialize"))
        }
        (Api::V2, Command::Orders(OrdersCommand::Cancel { order_id })) => {
            v2::Client::new(&url, key)
                .with_retries(retries)
                .cancel_order()
                .order_id(order_id)
                .send()
                .await
                .map_err(describe)?;
            Ok(cancelled(order_id))
        }
    }
}

fn cancelled(order_id: i64) -> serde_json::Value {
    serde_json::json!({ "orderId": order_id, "cancelled": true })
}

/// Every page of the matching orders, through the client's page stream
/// (which follows `nextCursor`), until the last page or `--limit` orders.
async fn list_pages(client: &v2::Client, args: &ListArgs) -> Result<Vec<v2::types::Order>, Failure> {
    let wanted = args.limit.map_or(usize::MAX, |limit| limit.get() as usize);
    // No page larger than the orders wanted.
    let page_size = match args.limit {
        Some(limit) => args.page_size.min(limit),
        None => args.page_size,
    };
    let mut request = client.list_orders().limit(page_size);
    if let Some(status) = args.status {
        request = request.status(match status {
            Status::Pending => v2::types::OrderStatus::Pending,
            Status::Shipped => v2::types::OrderStatus::Shipped,
        });
    }
    if let Some(pet_id) = args.pet_id {
        request = request.pet_id(pet_id);
    }
    if let Some(from) = args.ship_date_from {
        request = request.ship_date_from(from);
    }
    if let Some(to) = args.ship_date_to {
        request = request.ship_date_to(to);
    }
    if let Some(complete) = args.complete {
        request = request.complete(complete);
    }
    request.stream().take(wanted).try_collect().await.map_err(describe)
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
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn production_is_the_default_and_staging_switches() {
        assert_eq!(base_url(Api::V2, None, false), v2::PRODUCTION_BASE_URL);
        assert_eq!(base_url(Api::V2, None, true), v2::STAGING_BASE_URL);
        assert_eq!(base_url(Api::V1, None, false), petstore_client::PRODUCTION_BASE_URL);
        assert_eq!(base_url(Api::V1, None, true), petstore_client::STAGING_BASE_URL);
    }

    #[test]
    fn the_version_decides_the_path_of_a_given_url() {
        for given in [
            "http://localhost:8080",
            "http://localhost:8080/",
            "http://localhost:8080/v1",
            "http://localhost:8080/v2/",
        ] {
            assert_eq!(
                base_url(Api::V2, Some(given), false),
                "http://localhost:8080/v2",
                "{given}"
            );
            assert_eq!(
                base_url(Api::V1, Some(given), false),
                "http://localhost:8080/v1",
                "{given}"
            );
        }
    }

    #[test]
    fn filters_need_version_2() {
        let list_args = |extra: &[&str]| {
            let cli = Cli::try_parse_from([&["petstore", "--api-key", "k", "orders", "list"], extra].concat()).unwrap();
            match cli.command {
                Command::Orders(OrdersCommand::List(args)) => args,
                Command::Orders(_) => unreachable!("a list command"),
            }
        };
        assert_eq!(list_args(&["--pet-id", "3"]).v2_only_option(), Some("--pet-id"));
        assert_eq!(list_args(&["--all", "--page-size", "10"]).v2_only_option(), None);
    }
}
