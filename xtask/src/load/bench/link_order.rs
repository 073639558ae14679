//! `cargo xtask bench --link-order` writes `crates/petstore-server/link-order.txt`:
//! the functions a run of our server executes, which its build script
//! hands to the linker in release (lld's `--symbol-ordering-file`) so that
//! they lie together. `--check` says whether the binary still follows it.
//!
//! Why: a process's resident memory holds every page of code it touched,
//! and the kernel maps each fault's neighbours with it (fault-around, 64
//! KiB). The functions a server runs, 2.1 MiB of them, lie scattered
//! through 15 MB of code in link order: measured before this file, 8.1
//! MiB of the code was resident, 2 MiB of it once the functions lie
//! together, and the peak RSS of 8 lists of 100,000 orders at once fell
//! from 25.1 to 19.7 MiB (notes.md). Throughput did not move.
//!
//! The run: the server under callgrind (`--demangle=no`, so that the
//! names are the linker's), counted in two parts, starting and answering
//! (`callgrind_control --dump` between them). The requests answered are
//! every operation of both versions, answered and refused, and the
//! probes and `/metrics`. The file lists the functions that answered,
//! hottest first, then the ones that only started or stopped the server.
//!
//! The names hold hashes that change with a dependency's version or the
//! compiler's, so the list goes stale: the release check counts how many
//! of the listed functions the binary still has, and whether they lie in
//! the list's order ([`Bench::link_order_check`]).

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::process::{Command, Stdio};

use super::callgrind_profile::Profile;
use super::harness::Bench;
use crate::load::server_process::ServerProcess;

/// The list, beside the server's build script.
pub(super) const FILE: &str = "crates/petstore-server/link-order.txt";
/// The share of the listed functions the binary must still have, and of
/// those found, the share that must lie in the list's order.
const FOUND_AT_LEAST: f64 = 0.5;
const IN_ORDER_AT_LEAST: f64 = 0.95;

impl Bench {
    /// Runs the server under callgrind and writes the list to `root`'s
    /// [`FILE`].
    pub(super) fn link_order(&mut self, root: &Path) -> Result<(), String> {
        let db = self.database(1_000)?;
        let copy = self.copy(&db, "link-order")?;
        let out = self.work.join("callgrind-link-order.out");
        let log = std::fs::File::create(self.work.join("callgrind-link-order.log")).map_err(|e| e.to_string())?;
        let server = self.binaries.join("petstore-server").display().to_string();
        let out_arg = format!("--callgrind-out-file={}", out.display());
        let args = [
            "--tool=callgrind",
            "--demangle=no",
            &out_arg,
            &server,
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--database",
            &copy,
        ];
        let mut process = ServerProcess::start_logging_to(Path::new("valgrind"), &args, log.into())?;
        // What starting cost, written apart (`OUT.1`) and zeroed.
        crate::load::server_process::check(
            Command::new("callgrind_control")
                .args(["--dump", &process.pid().to_string()])
                .stdout(Stdio::null())
                .status(),
            "callgrind_control --dump (valgrind's package)",
        )?;
        self.answer_everything(&process.url)?;
        process.stop()?;
        let read = |path: &Path| std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()));
        let starting = Profile::read(&read(&self.work.join("callgrind-link-order.out.1"))?);
        let answering = Profile::read(&read(&out)?);
        let list = order(&answering, &starting);
        let text = format!(
            "# Written by `cargo xtask bench --link-order`, not by hand: the functions\n\
             # petstore-server ran under callgrind, those that answered requests hottest\n\
             # first, then those that started or stopped it. Its build script gives this\n\
             # file to the linker in release (xtask/src/load/bench/link_order.rs says why).\n{}\n",
            list.join("\n")
        );
        std::fs::write(root.join(FILE), text).map_err(|e| e.to_string())?;
        println!("bench --link-order: wrote {FILE}: {} functions", list.len());
        Ok(())
    }

    /// Every operation of both versions, answered and refused, each on one
    /// connection (curl reuses it for its URLs), then the probes.
    fn answer_everything(&self, v1: &str) -> Result<(), String> {
        let v2 = v1.replace("/v1", "/v2");
        let base = v1.trim_end_matches("/v1");
        let key = format!("Authorization: Bearer {}", self.key);
        let many = |url: String, times: usize| std::iter::repeat_n(url, times).collect::<Vec<_>>();
        let mut runs: Vec<(Vec<&str>, Vec<String>)> = vec![
            (vec!["-H", &key], many(format!("{v1}/store/orders"), 200)),
            (vec!["-H", &key], many(format!("{v2}/store/orders?limit=100"), 100)),
            (
                vec!["-H", &key],
                vec![
                    format!("{v2}/store/orders?status=pending&complete=false&petId=3&limit=10"),
                    format!("{v2}/store/orders?shipDateFrom=2026-01-01T00:00:00Z&limit=5"),
                    format!("{v2}/store/orders?limit=0"),
                    format!("{v2}/store/orders?cursor=not-a-cursor"),
                    format!("{v1}/store/nowhere"),
                ],
            ),
            (vec![], many(format!("{v1}/store/orders"), 20)),
            (
                vec!["-H", "Authorization: Bearer psk_1_wrong"],
                many(format!("{v2}/store/orders"), 20),
            ),
            (
                vec![],
                ["/healthz", "/readyz", "/metrics"]
                    .iter()
                    .flat_map(|probe| many(format!("{base}{probe}"), 5))
                    .collect(),
            ),
        ];
        for (version, ids) in [(v1, 1..=50), (v2.as_str(), 51..=100)] {
            let urls: Vec<String> = ids.map(|id| format!("{version}/store/orders/{id}")).collect();
            // Each twice: a cancel, then a cancelled order (404).
            runs.push((vec!["-X", "DELETE", "-H", &key], [urls.clone(), urls].concat()));
            runs.push((
                vec!["-X", "DELETE", "-H", &key],
                vec![
                    format!("{version}/store/orders/abc"),
                    format!("{version}/store/orders/99999"),
                ],
            ));
        }
        for (options, urls) in runs {
            crate::load::server_process::check(
                Command::new("curl")
                    .arg("-s")
                    .args(options)
                    .args(urls)
                    .stdout(Stdio::null())
                    .status(),
                "curl",
            )?;
        }
        Ok(())
    }

    /// Whether the release binary at `binary` follows the list at `root`:
    /// most listed functions are in it, and in the list's order. Printed;
    /// an error when not, which another `--link-order` run mends.
    pub(super) fn link_order_check(&self, root: &Path, binary: &Path) -> Result<(), String> {
        let path = root.join(FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let listed: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .collect();
        let output = Command::new("nm")
            .args(["--defined-only"])
            .arg(binary)
            .output()
            .map_err(|e| format!("nm (binutils): {e}"))?;
        let nm = String::from_utf8_lossy(&output.stdout);
        let addresses = symbol_addresses(&nm);
        let found: Vec<u64> = listed.iter().filter_map(|name| addresses.get(*name).copied()).collect();
        let in_order = found.windows(2).filter(|pair| pair[0] < pair[1]).count();
        let found_share = found.len() as f64 / listed.len().max(1) as f64;
        let order_share = in_order as f64 / found.len().saturating_sub(1).max(1) as f64;
        println!(
            "bench --check: link order: {} of {} listed functions in the binary, {:.1} % of them in the list's order",
            found.len(),
            listed.len(),
            order_share * 100.0
        );
        if found_share < FOUND_AT_LEAST || order_share < IN_ORDER_AT_LEAST {
            return Err(format!(
                "{FILE} no longer matches the release binary (a dependency or the compiler changed \
                 the functions' names, or the linker did not take the list): run `cargo xtask bench \
                 --link-order` (needs valgrind) and commit the file"
            ));
        }
        Ok(())
    }
}

/// The list: functions of the server's binary that answered, by their own
/// instructions, most first (then by name), then those that only started
/// or stopped it, the same way.
fn order(answering: &Profile, starting: &Profile) -> Vec<String> {
    let by_cost = |profile: &Profile| {
        let mut functions: Vec<(&str, u64)> = profile.functions_in("petstore-server");
        functions.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        functions
            .into_iter()
            .map(|(name, _)| name.to_string())
            .collect::<Vec<_>>()
    };
    let mut seen = HashSet::new();
    by_cost(answering)
        .into_iter()
        .chain(by_cost(starting))
        .filter_map(|name| {
            // callgrind names a recursive call's levels `NAME'2`, ...
            let symbol = name.split('\'').next().unwrap_or_default().to_string();
            // ... and code without a symbol by its address or in words
            // (`(below main)`).
            let named = !symbol.is_empty() && !symbol.starts_with("0x") && !symbol.contains([' ', '(']);
            (named && seen.insert(symbol.clone())).then_some(symbol)
        })
        .collect()
}

/// `nm`'s lines as symbol → address (the first, where a name repeats).
fn symbol_addresses(nm: &str) -> BTreeMap<&str, u64> {
    let mut addresses = BTreeMap::new();
    for line in nm.lines() {
        let mut fields = line.split_whitespace();
        if let (Some(address), Some(_kind), Some(name)) = (fields.next(), fields.next(), fields.next())
            && let Ok(address) = u64::from_str_radix(address, 16)
        {
            addresses.entry(name).or_insert(address);
        }
    }
    addresses
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answering_functions_come_first_hottest_first_each_once() {
        let profile = |functions: &[(&str, u64)]| {
            let mut text = String::from("events: Ir\nob=(1) /target/release/petstore-server\n");
            for (id, (name, cost)) in functions.iter().enumerate() {
                text.push_str(&format!("fn=({id}) {name}\n0 {cost}\n"));
            }
            text.push_str("ob=(2) /lib/libc.so.6\nfn=(99) memcpy\n0 999\n");
            Profile::read(&text)
        };
        let answering = profile(&[("cold", 1), ("hot", 50), ("warm", 10)]);
        let starting = profile(&[
            ("setup", 500),
            ("hot", 5),
            ("0x00000000004011f0", 9),
            ("(below main)", 8),
            ("warm'2", 7),
            ("recursive'2", 6),
        ]);
        assert_eq!(
            order(&answering, &starting),
            ["hot", "warm", "cold", "setup", "recursive"]
        );
    }

    #[test]
    fn nm_lines_give_each_name_its_first_address() {
        let nm = "0000000000600b80 t first\n0000000000600cd0 T second\n0000000000700000 t first\n                 U undefined\n";
        let addresses = symbol_addresses(nm);
        assert_eq!(addresses.get("first"), Some(&0x600b80));
        assert_eq!(addresses.get("second"), Some(&0x600cd0));
        assert_eq!(addresses.get("undefined"), None);
    }
}
