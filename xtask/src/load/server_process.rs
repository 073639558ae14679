//! A server process started by `soak` and `bench`: any binary that prints
//! `Serving URL` as its first line (`petstore-server serve` and the bench
//! baselines do), killed when dropped.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

pub struct ServerProcess {
    child: Child,
    /// The base URL it printed (`http://127.0.0.1:PORT/v1`).
    pub url: String,
}

impl ServerProcess {
    pub fn start(program: &Path, args: &[&str]) -> Result<ServerProcess, String> {
        Self::start_logging_to(program, args, Stdio::inherit())
    }

    /// As [`ServerProcess::start`], with the server's stderr (its log) sent
    /// to `log`.
    pub fn start_logging_to(program: &Path, args: &[&str], log: Stdio) -> Result<ServerProcess, String> {
        let mut child = Command::new(program)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("{}: {e}", program.display()))?;
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("piped"))
            .read_line(&mut first)
            .map_err(|e| e.to_string())?;
        let url = first.trim().strip_prefix("Serving ").map(String::from);
        let url = url.ok_or_else(|| format!("{} printed {first:?}", program.display()))?;
        Ok(ServerProcess { child, url })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A memory figure of `/proc/PID/status` in KiB: `VmRSS` (now) or
    /// `VmHWM` (the peak so far).
    pub fn memory_kib(&self, field: &str) -> Result<u64, String> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).map_err(|e| e.to_string())?;
        status
            .lines()
            .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .ok_or_else(|| format!("no {field} in /proc/{}/status", self.pid()))
    }

    /// SIGTERM, then whether it exited 0.
    pub fn stop(&mut self) -> Result<bool, String> {
        check(
            Command::new("kill").args(["-TERM", &self.pid().to_string()]).status(),
            "kill",
        )?;
        Ok(self.child.wait().map_err(|e| e.to_string())?.success())
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Loads `data` (an import file) into `database` and creates an API key
/// named `key_name`, with the server's own CLI, as a user would; gives the
/// key. `import_output` is where the import's summary line goes.
pub fn seed_database(
    server: &Path,
    database: &str,
    data: &Path,
    key_name: &str,
    import_output: Stdio,
) -> Result<String, String> {
    check(
        Command::new(server)
            .args(["import", "--database", database])
            .arg(data)
            .stdout(import_output)
            .status(),
        "import",
    )?;
    let output = Command::new(server)
        .args(["keys", "create", "--name", key_name, "--database", database])
        .stderr(Stdio::null())
        .output()
        .map_err(|e| e.to_string())?;
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// A command's exit status as a result.
pub fn check(status: std::io::Result<std::process::ExitStatus>, what: &str) -> Result<(), String> {
    match status {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!("{what} failed: {s}")),
        Err(e) => Err(format!("{what}: {e}")),
    }
}
