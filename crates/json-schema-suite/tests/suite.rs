//! The JSON Schema Test Suite (draft 2020-12) through the generated layer,
//! served: every group's schema is an operation's request body
//! (`tests/fixtures/json-schema-suite/`, written by
//! `xtask/tests/integration/json_schema_suite.rs`), and every instance is
//! posted to a running server. A valid one gets past validation (the
//! handler, not written, answers 501); an invalid one is answered 400.
//! That is what "validation is exactly JSON Schema" means here, by the
//! suite's own cases; the groups left out, and the format instances
//! asserted by decision, are in the cases with their reasons.

use serde_json::Value;

/// The cases: each group's path, its tests, and why it is left out, if it is.
fn cases() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/json-schema-suite/cases.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[tokio::test]
async fn every_valid_instance_passes_and_every_invalid_one_is_answered_400() {
    let log = slog::Logger::root(slog::Discard, slog::o!());
    let server = json_schema_suite::start("127.0.0.1:0".parse().unwrap(), log).unwrap();
    let base = format!("http://{}", server.local_addr());
    let client = reqwest::Client::new();
    let (mut groups, mut instances, mut left_out) = (0, 0, Vec::new());
    let mut wrong = Vec::new();
    for case in cases() {
        if let Some(reason) = case["left_out"].as_str() {
            left_out.push(format!("{}: {reason}", case["group"]));
            continue;
        }
        groups += 1;
        let path = case["path"].as_str().unwrap();
        for test in case["tests"].as_array().unwrap() {
            instances += 1;
            let response = client
                .post(format!("{base}{path}"))
                .header("content-type", "application/json")
                .body(serde_json::to_vec(&test["data"]).unwrap())
                .send()
                .await
                .unwrap();
            let status = response.status().as_u16();
            let expected = match test["valid"].as_bool().unwrap() {
                true => 501,
                false => 400,
            };
            if status != expected {
                let body = response.text().await.unwrap_or_default();
                wrong.push(format!(
                    "{} / {} ({}): {status}, expected {expected}: {body}",
                    case["group"], test["description"], test["data"]
                ));
            }
        }
    }
    server.close().await.unwrap();
    println!(
        "{groups} groups, {instances} instances run; {} groups left out:",
        left_out.len()
    );
    for reason in &left_out {
        println!("  {reason}");
    }
    assert!(
        wrong.is_empty(),
        "{} of {instances} instances answered otherwise:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
