//! `cargo xtask diff` against oasdiff's own verdicts: the pairs of
//! `tests/fixtures/oasdiff/` (copied from oasdiff's test data, with its
//! README's attribution), each with what oasdiff's test asserts.
//!
//! A pair agrees when we call it breaking exactly when oasdiff does; a
//! `warn` pair agrees when our worst change is a warning. The goal is 95 %
//! on the pairs that are not `warn`; each verdict we keep on purpose is
//! listed in [`KEPT`] with its reason, and must still differ.

use std::path::Path;

use serde_json::Value;
use xtask::designer::diff::{Level, diff};
use xtask::designer::diff_command::read_document;

const TODAY: &str = "2026-11-21";

/// Pairs whose verdict differs from oasdiff's on purpose.
const KEPT: [(&str, &str); 1] = [(
    "response-property-enum-value-added",
    "a generated client reads an enum as a Rust enum without an unknown variant: a value added to a response breaks it (oasdiff warns)",
)];

fn fixtures() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/oasdiff"))
}

fn verdict(changes: &[xtask::designer::diff::Change]) -> &'static str {
    match changes.iter().map(|c| c.level).min() {
        Some(Level::Breaking) => "breaking",
        Some(Level::Warning) => "warn",
        _ => "not breaking",
    }
}

#[test]
fn our_verdicts_agree_with_oasdiffs() {
    let cases: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(fixtures().join("cases.json")).unwrap()).unwrap();
    let (mut strict_pairs, mut strict_agree) = (0, 0);
    let (mut warn_pairs, mut warn_agree) = (0, 0);
    let mut unexplained = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let expect = case["expect"].as_str().unwrap();
        let old = read_document(&fixtures().join(case["base"].as_str().unwrap())).unwrap();
        let new = read_document(&fixtures().join(case["revision"].as_str().unwrap())).unwrap();
        let started = std::time::Instant::now();
        let changes = diff(&old, &new, TODAY);
        let ours = verdict(&changes);
        let agrees = match expect {
            "warn" => ours == "warn",
            _ => (ours == "breaking") == (expect == "breaking"),
        };
        match expect {
            "warn" => {
                warn_pairs += 1;
                warn_agree += usize::from(agrees);
            }
            _ => {
                strict_pairs += 1;
                strict_agree += usize::from(agrees);
            }
        }
        let kept = KEPT.iter().find(|(n, _)| *n == name);
        println!(
            "{} {name}: oasdiff {expect}, ours {ours} ({} changes, {:?}){}",
            if agrees { "=" } else { "≠" },
            changes.len(),
            started.elapsed(),
            kept.map(|(_, why)| format!(" — kept: {why}")).unwrap_or_default()
        );
        if !agrees {
            for change in &changes {
                println!("    {change}");
            }
        }
        match (agrees, kept) {
            (false, None) => unexplained.push(name),
            (true, Some(_)) => panic!("{name} agrees now: take it off KEPT"),
            _ => {}
        }
    }
    let rate = strict_agree as f64 / strict_pairs as f64;
    println!(
        "agreement: {strict_agree} of {strict_pairs} pairs that are not warn ({:.1} %); {warn_agree} of {warn_pairs} warn pairs",
        rate * 100.0
    );
    assert!(rate >= 0.95, "agreement {:.1} % is under 95 %", rate * 100.0);
    assert!(unexplained.is_empty(), "differences without a reason: {unexplained:?}");
}
