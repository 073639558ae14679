//! The Swagger Petstore's binary served as every generated service is
//! (`runtime::serving`), against slow and hostile clients and signals:
//! the checks of `serving-checks`, each on a process of its own. All but
//! the slow request head's: its bound is hyper's 30 s (docs/known-gaps.md),
//! the same whatever the document, and the kitchen sink's `served.rs`
//! waits those 30 s for every generated service.

use serving_checks::Request;
use serving_checks::checks::{self, Service};

const TOKEN: &str = "served-checks-token";

fn service() -> Service {
    let args = ["--token", TOKEN, "--key", "served-checks-key"];
    Service {
        binary: env!("CARGO_BIN_EXE_swagger-petstore-server").into(),
        args: args.into_iter().map(String::from).collect(),
        served: Request::get(
            "/api/v3/pet/findByStatus?status=available",
            &[&format!("Authorization: Bearer {TOKEN}")],
        ),
    }
}

#[test]
fn a_short_body_is_closed_by_the_idle_timeout() {
    let add_pet = Request {
        method: "POST",
        ..Request::get("/api/v3/pet", &[&format!("Authorization: Bearer {TOKEN}")])
    };
    checks::a_short_body_is_closed_by_the_idle_timeout(&service(), &add_pet);
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
    let add_pet = Request {
        method: "POST",
        ..Request::get("/api/v3/pet", &[])
    };
    serving_checks::cors::cors_follows_the_origins_allowed(&service(), &add_pet, &["Authorization"]);
}

#[test]
fn a_browser_calls_it_from_an_allowed_origin_only() {
    serving_checks::browser::a_browser_calls_it_from_an_allowed_origin_only(&service());
}

#[test]
fn an_incoming_request_id_is_logged_beside_dropshots_own() {
    serving_checks::request_ids::an_incoming_request_id_is_logged_beside_dropshots_own(&service());
}
