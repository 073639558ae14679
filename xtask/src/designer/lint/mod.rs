//! `cargo xtask lint`: design rules beyond what `generate` must refuse.
//! Errors fail the command (and CI); warnings are printed.
//!
//! The rules are in rules.rs (examples against their schemas in
//! examples.rs); what the generator tolerates, degrades and refuses is
//! named here too.

mod examples;
mod finding;
mod layer_statuses;
mod rules;

pub use finding::{Finding, Severity};
pub use rules::lint;

/// `cargo xtask lint`: both versions of the service's spec.
pub fn run(root: &std::path::Path, files: &[String]) -> Result<(), String> {
    let (mut errors, mut warnings) = (0, 0);
    let mut count = |finding: &Finding| match finding.severity {
        Severity::Error => errors += 1,
        Severity::Warning => warnings += 1,
    };
    // Our own specs, and the designer targets' (`cargo xtask new`): the
    // house rules are errors for ours.
    let ours = [
        crate::codegen::SPEC_PATH,
        crate::codegen::SPEC_V2_PATH,
        crate::codegen::KITCHEN_SINK_PATH,
    ];
    let specs: Vec<(String, bool)> = match files {
        [] => ours.iter().map(|spec| (spec.to_string(), true)).collect(),
        files => files.iter().map(|file| (file.clone(), false)).collect(),
    };
    for (spec_path, house_rules) in specs {
        let text =
            std::fs::read_to_string(root.join(&spec_path)).map_err(|e| format!("cannot read {spec_path}: {e}"))?;
        let mut findings = generator_findings(&text, house_rules);
        if let Ok(doc) = crate::designer::spec_json::read_checked(root, &spec_path) {
            findings.extend(lint(&doc).into_iter().map(|mut finding| {
                // A document of someone else's is never refused for our
                // house rules: they are named, as warnings.
                if !house_rules {
                    finding.severity = Severity::Warning;
                }
                finding
            }));
        }
        findings.sort();
        for finding in &findings {
            println!("{spec_path}: {finding}");
            count(finding);
        }
    }
    println!("{errors} error(s), {warnings} warning(s)");
    if errors > 0 {
        Err(format!("{errors} lint error(s)"))
    } else {
        Ok(())
    }
}

/// What the generator reads otherwise than written: each mistake it
/// tolerates and each schema whose Rust type it degrades, as warnings;
/// each operation it refuses (an error where `strict`, for our own specs,
/// which must generate whole; a warning otherwise, since the rest of the
/// document generates); a document it refuses whole, as an error.
pub fn generator_findings(text: &str, strict: bool) -> Vec<Finding> {
    let target = crate::codegen::designer_targets::target("crates/lint", "lint.yaml");
    let mut findings = Vec::new();
    match crate::codegen::generate_per_operation(&target, text, None) {
        Ok(generated) => {
            for tolerated in &generated.tolerated {
                findings.push(Finding {
                    severity: Severity::Warning,
                    location: tolerated.location.clone(),
                    rule: "tolerated",
                    message: tolerated.message.clone(),
                });
            }
            for (name, why) in &generated.degraded {
                findings.push(Finding {
                    severity: Severity::Warning,
                    location: name.clone(),
                    rule: "degraded",
                    message: crate::codegen::degradation(why),
                });
            }
            for refused in &generated.refused {
                findings.push(Finding {
                    severity: if strict { Severity::Error } else { Severity::Warning },
                    location: refused.operation.clone(),
                    rule: "refused",
                    message: refused.reason.clone(),
                });
            }
        }
        Err(errors) => findings.extend(errors.0.into_iter().map(|error| Finding {
            severity: Severity::Error,
            location: error.location,
            rule: "refused",
            message: error.message,
        })),
    }
    findings
}
