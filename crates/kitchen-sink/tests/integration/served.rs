//! The kitchen sink's binary served as every generated service is
//! (`runtime::serving`), against slow and hostile clients and signals:
//! the checks of `serving-checks`, each on a process of its own.

use serving_checks::Request;
use serving_checks::checks::{self, Service};

const KEY: &str = "served-checks-key";

fn service() -> Service {
    Service {
        binary: env!("CARGO_BIN_EXE_kitchen-sink-server").into(),
        args: vec!["--key".into(), KEY.into()],
        served: Request::get("/v1/orders", &[&format!("Authorization: Bearer {KEY}")]),
    }
}

#[test]
fn a_short_body_is_closed_by_the_idle_timeout() {
    let create = Request {
        method: "POST",
        ..Request::get("/v1/orders", &[&format!("Authorization: Bearer {KEY}")])
    };
    checks::a_short_body_is_closed_by_the_idle_timeout(&service(), &create);
}

#[test]
fn a_slow_request_head_is_closed_at_30_seconds() {
    checks::a_slow_request_head_is_closed_at_30_seconds(&service());
}

#[test]
fn hundreds_of_silent_connections_are_closed() {
    checks::hundreds_of_silent_connections_are_closed(&service());
}

#[test]
fn sigterm_with_a_silent_connection_open_stops_promptly() {
    checks::sigterm_with_a_silent_connection_open_stops_promptly(&service());
}

#[test]
fn the_probes_answer_and_a_drain_precedes_the_stop() {
    checks::the_probes_answer_and_a_drain_precedes_the_stop(&service());
}

#[test]
fn every_log_line_is_written_by_a_clean_stop() {
    serving_checks::logs::every_line_is_written_by_a_clean_stop(&service());
}

#[test]
fn a_log_no_one_reads_holds_no_request_and_counts_what_it_drops() {
    serving_checks::logs::a_log_no_one_reads_holds_no_request_and_counts_what_it_drops(&service());
}

#[test]
fn cors_follows_the_origins_allowed() {
    // `/v1/orders` documents OPTIONS itself (orderOptions): its preflight
    // is answered before that operation's authentication.
    let create = Request {
        method: "POST",
        ..Request::get("/v1/orders", &[])
    };
    serving_checks::cors::cors_follows_the_origins_allowed(&service(), &create, &["Authorization", "X-Express"]);
}

#[test]
fn a_browser_calls_it_from_an_allowed_origin_only() {
    serving_checks::browser::a_browser_calls_it_from_an_allowed_origin_only(&service());
}

#[test]
fn an_incoming_request_id_is_logged_beside_dropshots_own() {
    serving_checks::request_ids::an_incoming_request_id_is_logged_beside_dropshots_own(&service());
}
