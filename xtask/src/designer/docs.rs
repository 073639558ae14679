//! `cargo xtask docs`: the API reference as one static HTML page, rendered
//! from the spec by Redocly's CLI (pinned, installed from npm into
//! `.tools/docs`). `--check` then opens it in headless Chromium and checks
//! what a reader must see (tests/docs/check-rendered-docs.mjs).

use std::path::Path;
use std::process::Command;

const REDOCLY_CLI: &str = "@redocly/cli@2.77.0";
const PLAYWRIGHT_CORE: &str = "playwright-core@1.56.1";
const TOOLS: &str = ".tools/docs";
pub const OUTPUT: &str = "target/docs/index.html";
/// Version 2's reference, beside version 1's.
pub const OUTPUT_V2: &str = "target/docs/v2/index.html";

pub fn run(root: &Path, args: &[String]) -> Result<(), String> {
    let check = match args {
        [] => false,
        [flag] if flag == "--check" => true,
        _ => return Err("usage: cargo xtask docs [--check]".into()),
    };
    install(root)?;
    for (spec, output, version) in [
        (crate::codegen::SPEC_PATH, OUTPUT, "v1"),
        (crate::codegen::SPEC_V2_PATH, OUTPUT_V2, "v2"),
    ] {
        render(root, spec, output)?;
        if check {
            let status = Command::new("node")
                .current_dir(root)
                .args(["tests/docs/check-rendered-docs.mjs", output, version])
                .status()
                .map_err(|e| format!("node: {e}"))?;
            if !status.success() {
                return Err(format!(
                    "the rendered {version} reference is missing something (see above)"
                ));
            }
        }
    }
    Ok(())
}

/// Renders `spec` to `output` (relative to `root`) with Redocly's CLI.
fn render(root: &Path, spec: &str, output: &str) -> Result<(), String> {
    if let Some(folder) = Path::new(output).parent() {
        std::fs::create_dir_all(root.join(folder)).map_err(|e| e.to_string())?;
    }
    // --inlineBundle embeds Redoc's scripts: the page works offline, with
    // nothing fetched from a CDN.
    let status = Command::new(root.join(TOOLS).join("node_modules/.bin/redocly"))
        .current_dir(root)
        .args(["build-docs", spec, "--inlineBundle", "--output", output])
        .env("REDOCLY_TELEMETRY", "off")
        .env("REDOCLY_SUPPRESS_UPDATE_NOTICE", "true")
        .status()
        .map_err(|e| format!("redocly: {e}"))?;
    if !status.success() {
        return Err(format!("redocly build-docs {spec} failed: {status}"));
    }
    println!("rendered {output}");
    Ok(())
}

/// Installs the pinned tools unless they are there already.
fn install(root: &Path) -> Result<(), String> {
    let tools = root.join(TOOLS);
    let installed = |spec: &str| {
        let (name, version) = spec.rsplit_once('@').expect("name@version");
        let manifest = tools.join("node_modules").join(name).join("package.json");
        std::fs::read_to_string(manifest).is_ok_and(|m| m.contains(&format!("\"version\": \"{version}\"")))
    };
    if installed(REDOCLY_CLI) && installed(PLAYWRIGHT_CORE) {
        return Ok(());
    }
    std::fs::create_dir_all(&tools).map_err(|e| e.to_string())?;
    println!("installing {REDOCLY_CLI} and {PLAYWRIGHT_CORE} into {TOOLS}");
    let status = Command::new("npm")
        .current_dir(&tools)
        .args([
            "install",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            "--save-exact",
            REDOCLY_CLI,
            PLAYWRIGHT_CORE,
        ])
        .status()
        .map_err(|e| format!("npm (Node.js is needed for the docs): {e}"))?;
    if !status.success() {
        return Err(format!("npm install failed: {status}"));
    }
    Ok(())
}
