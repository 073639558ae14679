//! The metrics, scraped by a real Prometheus (Debian's `prometheus`, which
//! CI installs) under a short load: the request counts it stores per
//! operation and status class are the requests the load sent. Where
//! Prometheus is not installed the test fails in CI and says
//! `skipped (prometheus): …` elsewhere.

use crate::support;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{ServerProcess, http};

struct Prometheus {
    child: Child,
    url: String,
}

impl Drop for Prometheus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Prometheus scraping `target` (`host:port`) every 500 ms, storing under
/// `dir`; `None` when it is not installed.
fn prometheus(dir: &std::path::Path, target: std::net::SocketAddr) -> Option<Prometheus> {
    let binary = ["/usr/bin/prometheus", "/usr/local/bin/prometheus"]
        .into_iter()
        .find(|path| std::path::Path::new(path).exists());
    let Some(binary) = binary else {
        serving_checks::tools::missing("prometheus", "no prometheus binary (apt-get install prometheus)");
        return None;
    };
    let config = dir.join("prometheus.yml");
    std::fs::write(
        &config,
        format!(
            "global:\n  scrape_interval: 500ms\n  scrape_timeout: 400ms\n\
             scrape_configs:\n  - job_name: petstore\n    static_configs:\n      - targets: ['{target}']\n"
        ),
    )
    .unwrap();
    let port = support::free_port();
    let child = Command::new(binary)
        .arg(format!("--config.file={}", config.display()))
        .arg(format!("--storage.tsdb.path={}", dir.join("data").display()))
        .arg(format!("--web.listen-address=127.0.0.1:{port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    Some(Prometheus {
        child,
        url: format!("http://127.0.0.1:{port}"),
    })
}

/// The value of an instant query's single sample, if it has one.
fn query(prometheus: &Prometheus, expression: &str) -> Option<f64> {
    let encoded: String = form_urlencoded::byte_serialize(expression.as_bytes()).collect();
    let (status, body) = support::try_http(&format!("{}/api/v1/query?query={encoded}", prometheus.url), "GET", None)?;
    if status != 200 {
        return None;
    }
    let body: serde_json::Value = serde_json::from_str(&body).ok()?;
    let result = body["data"]["result"].as_array()?;
    let [sample] = result.as_slice() else { return None };
    sample["value"][1].as_str()?.parse().ok()
}

/// Waits (up to 30 s) for `expression` to equal `expected` in Prometheus.
fn wait_for(prometheus: &Prometheus, expression: &str, expected: f64) {
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut last = None;
    while Instant::now() < deadline {
        last = query(prometheus, expression);
        if last == Some(expected) {
            return;
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    panic!("{expression}: Prometheus has {last:?}, the load sent {expected}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prometheus_scrapes_the_request_counts_the_load_sent() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    let key = support::seed(&database, 40, 10, "prometheus").await;
    let server = ServerProcess::start(&database, &[]);
    let Some(prometheus) = prometheus(dir.path(), server.address()) else {
        return;
    };
    let v2 = server.base_url.replace("/v1", "/v2");
    // The load: v1 lists, v2 pages, cancels answered 204, 404 and 409,
    // and requests without a key (401).
    for _ in 0..25 {
        assert_eq!(
            http(&format!("{}/store/orders", server.base_url), "GET", Some(&key)).0,
            200
        );
    }
    for _ in 0..12 {
        assert_eq!(http(&format!("{v2}/store/orders?limit=7"), "GET", Some(&key)).0, 200);
    }
    for id in 1..=9 {
        assert_eq!(http(&format!("{v2}/store/orders/{id}"), "DELETE", Some(&key)).0, 204);
    }
    for id in [1, 2, 3, 999] {
        assert_eq!(http(&format!("{v2}/store/orders/{id}"), "DELETE", Some(&key)).0, 404);
    }
    // Orders 41 to 50 are shipped.
    assert_eq!(http(&format!("{v2}/store/orders/45"), "DELETE", Some(&key)).0, 409);
    for _ in 0..6 {
        assert_eq!(http(&format!("{}/store/orders", server.base_url), "GET", None).0, 401);
    }

    let count = |operation: &str, path: &str, class: &str| {
        format!(
            "http_requests_total{{job=\"petstore\",operation_id=\"{operation}\",path=\"{path}\",status_class=\"{class}\"}}"
        )
    };
    wait_for(&prometheus, &count("listOrders", "/v1/store/orders", "2xx"), 25.0);
    wait_for(&prometheus, &count("listOrders", "/v1/store/orders", "4xx"), 6.0);
    wait_for(&prometheus, &count("listOrders", "/v2/store/orders", "2xx"), 12.0);
    wait_for(
        &prometheus,
        &count("cancelOrder", "/v2/store/orders/{orderId}", "2xx"),
        9.0,
    );
    wait_for(
        &prometheus,
        &count("cancelOrder", "/v2/store/orders/{orderId}", "4xx"),
        5.0,
    );
    // Declared before any request: scraped as zero.
    wait_for(&prometheus, &count("getPetById", "/v1/pets/{petId}", "2xx"), 0.0);
    // Every request of an operation is in its latency histogram.
    wait_for(
        &prometheus,
        "sum(http_request_duration_seconds_count{job=\"petstore\",operation_id=\"cancelOrder\"})",
        14.0,
    );
    wait_for(
        &prometheus,
        "petstore_build_info{job=\"petstore\",backend=\"sqlite\"}",
        1.0,
    );
    assert!(query(&prometheus, "process_open_fds{job=\"petstore\"}").is_some_and(|fds| fds > 0.0));
    // The service's own: the list cache served most of the 25 lists, and
    // every cancel went through a commit of the cancel queue.
    let hits = query(
        &prometheus,
        "petstore_cache_lookups_total{job=\"petstore\",cache=\"list\",result=\"hit\"}",
    );
    assert!(hits.is_some_and(|hits| hits >= 20.0), "{hits:?}");
    wait_for(&prometheus, "petstore_cancel_batch_size_sum{job=\"petstore\"}", 14.0);
    // The database's times: the change counters were read after each
    // commit (the cancels' batches: the WAL-index header moved); the
    // lists, the pages and each committed batch of cancels ran statements,
    // each after a wait for a connection of the pool.
    let value = |expression: &str| query(&prometheus, expression).unwrap_or_else(|| panic!("no {expression}"));
    let statements = |statement: &str| {
        value(&format!(
            "petstore_db_statement_seconds_count{{job=\"petstore\",statement=\"{statement}\"}}"
        ))
    };
    // Nine cancels changed an order; each 204 was followed by a request,
    // which saw the header move. (A batch that changed nothing wrote no
    // frame: nothing to read again.)
    assert!(statements("changes") >= 9.0, "{} counter reads", statements("changes"));
    assert!(statements("orders_all") >= 1.0);
    assert!(statements("order_page") >= 1.0);
    assert_eq!(
        statements("cancel_batch"),
        value("petstore_cancel_batch_size_count{job=\"petstore\"}"),
        "one statement time per committed batch"
    );
    let pool_statements = value("sum(petstore_db_statement_seconds_count{job=\"petstore\",statement!=\"changes\"})");
    let waits = value("petstore_db_wait_seconds_count{job=\"petstore\"}");
    assert!(
        waits >= pool_statements,
        "{waits} waits for {pool_statements} statements"
    );
    assert!(value("petstore_db_statement_seconds_sum{job=\"petstore\",statement=\"order_page\"}") > 0.0);
    // Labels stay bounded: no order id in any series.
    let (_, series) = http(
        &format!("{}/metrics", server.base_url.trim_end_matches("/v1")),
        "GET",
        None,
    );
    assert!(
        !series.contains("/store/orders/1\"") && !series.contains(&key),
        "{series}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_can_be_served_apart_from_the_api() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("petstore.db").to_str().unwrap().to_string();
    let key = support::seed(&database, 5, 0, "apart").await;
    let server = ServerProcess::start(&database, &["--metrics-bind", "127.0.0.1:0"]);
    let _v2 = server.next_line().expect("the second line: version 2");
    let third = server.next_line().expect("the third line: the metrics");
    let metrics = third
        .strip_prefix("Metrics at ")
        .unwrap_or_else(|| panic!("{third}"))
        .to_string();
    assert_eq!(
        http(&format!("{}/store/orders", server.base_url), "GET", Some(&key)).0,
        200
    );
    let root = server.base_url.trim_end_matches("/v1");
    assert_eq!(
        http(&format!("{root}/metrics"), "GET", None).0,
        404,
        "not beside the API"
    );
    let (status, text) = http(&metrics, "GET", None);
    assert_eq!(status, 200);
    let listed =
        r#"http_requests_total{operation_id="listOrders",method="GET",path="/v1/store/orders",status_class="2xx"} 1"#;
    assert!(text.contains(listed), "{text}");
}
