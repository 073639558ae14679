//! A check that needs a tool (a browser, a database, a proxy) runs it, or
//! says why it cannot: where `CI=true` a missing tool fails the test, never
//! a silent skip (CI installs every one: `.ci/run`); on a developer's
//! machine the test says it is skipped, and passes.

/// Whether this run is CI's (`CI=true`, as CI services set it).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| value == "true" || value == "1")
}

/// `tool` is missing (`why` says how to get it): fails the test in CI,
/// else says on stderr (past the harness's capture) that it is skipped.
pub fn missing(tool: &str, why: &str) {
    assert!(!in_ci(), "{tool} is missing, and CI=true runs every check: {why}");
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "skipped ({tool}): {why}");
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_missing_tool_fails_in_ci_and_is_skipped_elsewhere() {
        let missing = |ci: Option<&str>| {
            // The variable is read, not cached: set it for a child run of
            // this very test binary, so that this process's is untouched.
            let mut command = std::process::Command::new(std::env::current_exe().unwrap());
            command.args(["--exact", "tools::tests::missing_tool_child", "--nocapture"]);
            command.env("SERVING_CHECKS_TOOLS_CHILD", "1");
            match ci {
                Some(value) => command.env("CI", value),
                None => command.env_remove("CI"),
            };
            let output = command.output().unwrap();
            (
                output.status.success(),
                String::from_utf8_lossy(&output.stderr).into_owned(),
            )
        };
        let (passed, stderr) = missing(Some("true"));
        assert!(!passed && stderr.contains("CI=true runs every check"), "{stderr}");
        let (passed, stderr) = missing(None);
        assert!(
            passed && stderr.contains("skipped (a-tool): apt-get install a-tool"),
            "{stderr}"
        );
    }

    /// Run only as the child of the test above.
    #[test]
    fn missing_tool_child() {
        if std::env::var_os("SERVING_CHECKS_TOOLS_CHILD").is_some() {
            super::missing("a-tool", "apt-get install a-tool");
        }
    }
}
