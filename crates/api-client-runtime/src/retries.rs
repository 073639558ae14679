//! Requests sent again after a transient failure, as every generated
//! client's `exec` hook sends them: a deploy's 503, a 429 with
//! `Retry-After` or a refused connection does not fail the caller's call.
//!
//! What is retried: a request that is safe to send twice (GET, HEAD, PUT,
//! DELETE, OPTIONS, TRACE, or any request carrying an `Idempotency-Key`)
//! and whose body can be replayed, after a connection that could not be
//! made, a timeout, or 408, 429, 502, 503 or 504. Nothing else: another
//! 4xx says the request is wrong, and a POST without a key may have been
//! done once already. The wait is the server's `Retry-After` (seconds or
//! an HTTP date) when it sends one, up to a cap, or else an exponential
//! backoff with jitter; attempts and the total time are bounded, and a
//! deadline, when set, cuts the request short.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use reqwest::{Method, Request, Response, StatusCode};
use tracing::Instrument;

use crate::spans::{Route, record_attempt, request_span};

/// What [`Retries::on_attempt`] calls after each attempt.
type Observer = Arc<dyn Fn(&Attempt<'_>) + Send + Sync>;

/// How a client retries. [`Retries::default`]: 3 attempts, backoff from
/// 0.5 s doubling up to 8 s, `Retry-After` honoured up to 60 s, 2 minutes
/// in all. [`Retries::none`] sends each request once.
#[derive(Clone)]
pub struct Retries {
    attempts: u32,
    first_backoff: Duration,
    max_backoff: Duration,
    max_retry_after: Duration,
    budget: Duration,
    deadline: Option<Duration>,
    observer: Option<Observer>,
}

impl Default for Retries {
    fn default() -> Self {
        Retries {
            attempts: 3,
            first_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(60),
            budget: Duration::from_secs(120),
            deadline: None,
            observer: None,
        }
    }
}

impl std::fmt::Debug for Retries {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Retries")
            .field("attempts", &self.attempts)
            .field("first_backoff", &self.first_backoff)
            .field("max_backoff", &self.max_backoff)
            .field("max_retry_after", &self.max_retry_after)
            .field("budget", &self.budget)
            .field("deadline", &self.deadline)
            .field("observer", &self.observer.as_ref().map(|_| "Fn(&Attempt)"))
            .finish()
    }
}

impl Retries {
    /// Each request sent once.
    pub fn none() -> Self {
        Retries::default().attempts(1)
    }

    /// At most `attempts` sends of a request, the first included (1 turns
    /// retries off; 0 counts as 1).
    pub fn attempts(mut self, attempts: u32) -> Self {
        self.attempts = attempts.max(1);
        self
    }

    /// The wait before the first retry, doubled for each next one up to
    /// `max` (each wait a random part of it, between half and all).
    pub fn backoff(mut self, first: Duration, max: Duration) -> Self {
        self.first_backoff = first;
        self.max_backoff = max.max(first);
        self
    }

    /// The longest `Retry-After` waited for: a server that asks for longer
    /// gets its answer returned to the caller instead.
    pub fn max_retry_after(mut self, max: Duration) -> Self {
        self.max_retry_after = max;
        self
    }

    /// The longest a request may take, every attempt and wait included: no
    /// retry starts whose wait would end past it.
    pub fn budget(mut self, budget: Duration) -> Self {
        self.budget = budget;
        self
    }

    /// The longest a request may take, every attempt and wait included,
    /// cut short if need be: each attempt's timeout is what is left of it
    /// (so a deadline longer than the client's own timeout, 15 s for a
    /// client made by `Client::new`, lets an attempt run longer). A request
    /// past it fails with reqwest's timeout error (`is_timeout()`, "operation
    /// timed out"). None by default: the client's timeout bounds each
    /// attempt, and [`Retries::budget`] the retries. For one request, set it
    /// on a clone of the client (a clone shares its connections).
    pub fn deadline(mut self, deadline: Duration) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// Called after each attempt with what it met and whether another
    /// follows (for logs, metrics or tests).
    pub fn on_attempt(mut self, observer: impl Fn(&Attempt<'_>) + Send + Sync + 'static) -> Self {
        self.observer = Some(Arc::new(observer));
        self
    }

    pub fn max_attempts(&self) -> u32 {
        self.attempts
    }

    /// The wait before attempt `number + 1`, when `result` of attempt
    /// `number` is worth retrying and the bounds allow one.
    fn wait(&self, number: u32, result: &reqwest::Result<Response>, elapsed: Duration) -> Option<Duration> {
        if number >= self.attempts || !transient(result) {
            return None;
        }
        let wait = match result.as_ref().ok().and_then(retry_after) {
            Some(asked) if asked > self.max_retry_after => return None,
            Some(asked) => asked,
            None => self.backoff_before(number + 1),
        };
        let bound = self.deadline.map_or(self.budget, |deadline| deadline.min(self.budget));
        (elapsed + wait <= bound).then_some(wait)
    }

    /// Exponential backoff with "equal jitter": between half and all of
    /// `first × 2^(retry - 1)`, capped, so that clients failed together do
    /// not come back together.
    fn backoff_before(&self, attempt: u32) -> Duration {
        let doublings = attempt.saturating_sub(2).min(20);
        let full = self.first_backoff.saturating_mul(1 << doublings).min(self.max_backoff);
        full / 2 + full.mul_f64(fastrand::f64() / 2.0)
    }
}

/// One attempt, as [`Retries::on_attempt`] sees it.
#[derive(Debug)]
pub struct Attempt<'a> {
    /// The operation's id, as the client names it.
    pub operation_id: &'a str,
    pub method: &'a Method,
    /// 1 for the first send.
    pub number: u32,
    pub outcome: Outcome,
    /// The wait before the next attempt, or `None` when this one's result
    /// goes to the caller.
    pub next_in: Option<Duration>,
}

/// What an attempt met.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Status(StatusCode),
    /// No connection could be made.
    ConnectFailed,
    TimedOut,
    /// Another failure of the exchange (a reset, a malformed answer).
    Failed,
}

impl Outcome {
    /// The status, or the error that kept the attempt from one.
    fn met(self) -> Result<u16, &'static str> {
        match self {
            Outcome::Status(status) => Ok(status.as_u16()),
            Outcome::ConnectFailed => Err("connect"),
            Outcome::TimedOut => Err("timeout"),
            Outcome::Failed => Err("failed"),
        }
    }

    fn of(result: &reqwest::Result<Response>) -> Outcome {
        match result {
            Ok(response) => Outcome::Status(response.status()),
            Err(error) if error.is_connect() => Outcome::ConnectFailed,
            Err(error) if error.is_timeout() => Outcome::TimedOut,
            Err(_) => Outcome::Failed,
        }
    }
}

/// Whether sending `request` twice does what sending it once does: an
/// idempotent method, or a request that carries an idempotency key.
pub fn may_repeat(request: &Request) -> bool {
    matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::PUT | Method::DELETE | Method::OPTIONS | Method::TRACE
    ) || request.headers().contains_key("idempotency-key")
}

/// A failure another attempt may not meet.
fn transient(result: &reqwest::Result<Response>) -> bool {
    match result {
        Ok(response) => matches!(response.status().as_u16(), 408 | 429 | 502 | 503 | 504),
        Err(error) => error.is_connect() || error.is_timeout(),
    }
}

/// The response's `Retry-After`, in seconds or as an HTTP date (a date
/// past is no wait).
fn retry_after(response: &Response) -> Option<Duration> {
    let value = response
        .headers()
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim();
    parse_retry_after(value, SystemTime::now())
}

fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(date.duration_since(now).unwrap_or(Duration::ZERO))
}

/// Sends `request` with `client`, and again as `retries` allows (a body
/// that cannot be copied, a stream, is sent once), inside the request's
/// span ([`crate::spans`]): `operation_id` is the client's method name,
/// `route` the operation as the spec names it.
pub async fn execute(
    client: &reqwest::Client,
    retries: &Retries,
    request: Request,
    operation_id: &str,
    route: Option<Route>,
) -> reqwest::Result<Response> {
    let span = request_span(operation_id, route, request.method());
    send(client, retries, request, operation_id, &span)
        .instrument(span.clone())
        .await
}

async fn send(
    client: &reqwest::Client,
    retries: &Retries,
    request: Request,
    operation_id: &str,
    span: &tracing::Span,
) -> reqwest::Result<Response> {
    let started = Instant::now();
    let repeatable = may_repeat(&request);
    let method = request.method().clone();
    let mut request = request;
    let mut number = 1;
    loop {
        if let Some(deadline) = retries.deadline {
            *request.timeout_mut() = Some(deadline.saturating_sub(started.elapsed()));
        }
        let copy = match repeatable && number < retries.attempts {
            true => request.try_clone(),
            false => None,
        };
        let result = client.execute(request).await;
        let wait = copy
            .as_ref()
            .and_then(|_| retries.wait(number, &result, started.elapsed()));
        let outcome = Outcome::of(&result);
        record_attempt(span, number, outcome.met(), wait);
        if let Some(observer) = &retries.observer {
            observer(&Attempt {
                operation_id,
                method: &method,
                number,
                outcome,
                next_in: wait,
            });
        }
        match (copy, wait) {
            (Some(copy), Some(wait)) => {
                tokio::time::sleep(wait).await;
                request = copy;
                number += 1;
            }
            _ => return result,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_is_read_in_seconds_and_as_an_http_date() {
        let now = httpdate::parse_http_date("Sun, 29 Nov 2026 12:00:00 GMT").unwrap();
        assert_eq!(parse_retry_after("7", now), Some(Duration::from_secs(7)));
        assert_eq!(
            parse_retry_after("Sun, 29 Nov 2026 12:00:30 GMT", now),
            Some(Duration::from_secs(30))
        );
        assert_eq!(
            parse_retry_after("Sun, 29 Nov 2026 11:00:00 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(parse_retry_after("-1", now), None);
    }

    #[test]
    fn backoff_doubles_within_its_cap_and_jitters_within_half() {
        let retries = Retries::default().backoff(Duration::from_millis(100), Duration::from_millis(350));
        for _ in 0..100 {
            let second = retries.backoff_before(2);
            assert!(second >= Duration::from_millis(50) && second <= Duration::from_millis(100));
            let third = retries.backoff_before(3);
            assert!(third >= Duration::from_millis(100) && third <= Duration::from_millis(200));
            let capped = retries.backoff_before(9);
            assert!(capped >= Duration::from_millis(175) && capped <= Duration::from_millis(350));
        }
    }

    #[test]
    fn only_what_may_be_sent_twice_is_repeatable() {
        let request = |method: Method| Request::new(method, "http://localhost/".parse().unwrap());
        for method in [Method::GET, Method::HEAD, Method::PUT, Method::DELETE, Method::OPTIONS] {
            assert!(may_repeat(&request(method)));
        }
        assert!(!may_repeat(&request(Method::POST)));
        assert!(!may_repeat(&request(Method::PATCH)));
        let mut keyed = request(Method::POST);
        keyed.headers_mut().insert("Idempotency-Key", "k-1".parse().unwrap());
        assert!(may_repeat(&keyed));
    }
}
