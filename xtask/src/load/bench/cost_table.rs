//! The cost table: instructions a request for each part of the generated
//! layer, on cached listOrders/100 and on quoteOrder with a 1 KB body,
//! each with its budget, beside the whole process's count for ours and for
//! its baseline (the dropshot floor; dropshot's `TypedBody` alone).
//!
//! Counted by callgrind in the whole process (every thread: the log's
//! writer and the reaper run beside the request), servers at their
//! default settings (log level info, metrics on, reaper on): one run of
//! `WARM` requests on one connection and one of `WARM + MEASURED`, each
//! part's count the difference over `MEASURED`. A part is the functions
//! named in [`PARTS`] with what they call, counted once. Where the
//! compiler inlined a part's function into its caller, the caller's name
//! would be the one to list: the few functions that would be are kept
//! out of line (`#[inline(never)]`, a call's cost) so that they can be
//! counted.

use std::fmt::Write as _;

use super::callgrind_profile::Profile;
use super::harness::Bench;
use super::instructions::{Counted, Load, MEASURED, WARM, total};
use super::report::verdict;

/// A part of the generated layer: its name, the functions that are it,
/// the functions that do that work in the baseline (dropshot's own, where
/// they are the same), and its budgets in instructions a request on
/// listOrders/100 and on quoteOrder.
struct Part {
    name: &'static str,
    functions: &'static [&'static str],
    baseline: &'static [&'static str],
    budget: (u64, u64),
}

/// The parts, in a request's order. Budgets: what each part needs for its
/// promise on these two requests, so that the whole layer stays within
/// 1.4× the floor's instructions on listOrders and its checks within 15 %
/// of quoteOrder's.
const PARTS: &[Part] = &[
    Part {
        name: "routing (dropshot's version policy and route lookup; ours among both versions' endpoints)",
        functions: ROUTING,
        baseline: ROUTING,
        budget: (2_500, 3_500),
    },
    Part {
        name: "request ids (dropshot's, the incoming one kept, the scope)",
        functions: &["generate_request_id", "RequestIds::of", "RequestIds::around"],
        baseline: &["generate_request_id"],
        budget: (900, 900),
    },
    Part {
        name: "the in-flight guard",
        functions: &["InFlight::enter", "InFlightGuard as core::ops::drop::Drop"],
        baseline: &[],
        budget: (150, 150),
    },
    Part {
        name: "authentication and the key check (listOrders; quoteOrder takes no key)",
        functions: &["api_runtime::auth::authenticate_"],
        baseline: &[],
        budget: (2_500, 100),
    },
    Part {
        name: "the body read: JSON into a value, checked, then the typed value without checking its strings again (`TypedBody`: once into the type, every string checked)",
        functions: &["api_runtime::body::"],
        baseline: &["dropshot::extractor::body::"],
        budget: (100, 48_000),
    },
    Part {
        name: "of it, parameter and body validation against the spec's schemas",
        functions: &["api_runtime::schema::Schema::validate", "api_runtime::parameters::"],
        baseline: &[],
        budget: (100, 10_000),
    },
    Part {
        name: "the reply (the typed response into HTTP)",
        functions: &[
            "api_runtime::reply::Reply<C> as dropshot::handler::HttpResponse",
            "Response::into_http",
        ],
        baseline: &[],
        budget: (1_200, 2_000),
    },
    Part {
        name: "metrics",
        functions: &["api_runtime::metrics::observe"],
        baseline: &[],
        budget: (400, 400),
    },
    Part {
        name: "the log line (formatted on the request's thread, written by the log's)",
        functions: &["RequestLines::write", "log_writer::"],
        baseline: &[],
        budget: (1_500, 1_500),
    },
    Part {
        name: "the reaper's bookkeeping (its thread, a sweep a second)",
        functions: &["connection_reaper::"],
        baseline: &[],
        budget: (200, 200),
    },
];

const ROUTING: &[&str] = &[
    "dropshot::router::",
    "VersionPolicy::request_version",
    "request_extract_version",
];

/// One request's counted runs: ours and its baseline.
struct Counts {
    ours: (Profile, Profile),
    ours_total: f64,
    baseline: (Profile, Profile),
    baseline_total: f64,
}

impl Bench {
    /// The goals line of listOrders/100 by instructions, where counted.
    pub(super) fn counted_floor_goal(&self) -> String {
        match &self.costs {
            Some((_, counted, _)) => format!(
                "| listOrders, 100 orders, counted (callgrind, the whole process, defaults): ≤ 1.4× the floor's instructions | {counted:.2}× (the cost table below) | {} |\n",
                verdict(*counted <= 1.4)
            ),
            None => String::new(),
        }
    }

    /// The goals line of quoteOrder's checks by instructions, where counted.
    pub(super) fn counted_checks_goal(&self) -> String {
        match &self.costs {
            Some((_, _, checks)) => format!(
                "| {}: the generated layer's checks ≤ 15 % of its instructions (callgrind, the whole process, against `TypedBody` alone) | {:.1} % | {} |\n",
                super::validation::WORKLOAD,
                checks * 100.0,
                verdict(*checks <= 0.15)
            ),
            None => String::new(),
        }
    }

    /// The cost table under its heading, where counted.
    pub(super) fn cost_section(&self) -> String {
        match &self.costs {
            Some((table, _, _)) => format!("\n## What a request costs, part by part\n\n{table}"),
            None => String::new(),
        }
    }

    /// The cost table in Markdown, and ours ÷ the floor by instructions on
    /// listOrders/100 and the generated checks' share on quoteOrder; `None`
    /// (the reason printed) where valgrind is not installed or a run fails.
    pub(super) fn cost_table(&mut self) -> Option<(String, f64, f64)> {
        if std::process::Command::new("valgrind")
            .arg("--version")
            .output()
            .is_err()
        {
            println!("bench: skipped (valgrind): not installed; no cost table");
            return None;
        }
        match self.counted_costs() {
            Ok(costs) => Some(costs),
            Err(e) => {
                println!("bench: skipped (valgrind): {e}");
                None
            }
        }
    }

    fn counted_costs(&mut self) -> Result<(String, f64, f64), String> {
        let db = self.database(100)?;
        let body = self.list_body(&db)?;
        let copy = self.copy(&db, "costs")?;
        let list = Load::Get("/store/orders");
        let ours = self.counts("ours-list", "petstore-server", &["serve", "--database", &copy], &list)?;
        let body = body.display().to_string();
        let floor = self.counts("floor-list", "bench-dropshot", &["--body-file", &body], &list)?;
        let quote = self.quote_body()?;
        let post = Load::Post("/quotes", &quote);
        let generated = self.counts("ours-quote", "kitchen-sink-server", &["--key", "bench"], &post)?;
        let typed = self.counts("typed-quote", "bench-typed-body", &[], &post)?;
        let list = Counts {
            ours: ours.0,
            ours_total: ours.1,
            baseline: floor.0,
            baseline_total: floor.1,
        };
        let quote = Counts {
            ours: generated.0,
            ours_total: generated.1,
            baseline: typed.0,
            baseline_total: typed.1,
        };
        let of_floor = list.ours_total / list.baseline_total;
        let checks = 1.0 - quote.baseline_total / quote.ours_total;
        Ok((table(&list, &quote), of_floor, checks))
    }

    /// The two counted runs of `binary` (ours' profiles) and its
    /// instructions a request in the whole process.
    fn counts(&self, tag: &str, binary: &str, args: &[&str], load: &Load) -> Result<((Profile, Profile), f64), String> {
        let program = self.binaries.join(binary);
        let mut args = args.to_vec();
        args.extend(["--bind", "127.0.0.1:0"]);
        let run = |requests| {
            self.callgrind(
                &format!("{tag}-{requests}"),
                &program,
                &args,
                load,
                Counted::Process,
                requests,
            )
        };
        let (few, more) = (run(WARM)?, run(WARM + MEASURED)?);
        let per_request = match (total(&few), total(&more)) {
            (Some(few), Some(more)) => more.saturating_sub(few) as f64 / MEASURED as f64,
            _ => return Err(format!("no total in callgrind's output for {tag}")),
        };
        println!("bench: counted {tag}: {per_request:.0} instructions a request");
        Ok(((Profile::read(&few), Profile::read(&more)), per_request))
    }
}

fn table(list: &Counts, quote: &Counts) -> String {
    let mut out = String::from(
        "Instructions a request, counted by callgrind in the whole process (every thread), \
         servers at their defaults (log level info, metrics on, reaper on), one connection: \
         each part the functions that are it, with what they call, counted once \
         (`xtask/src/load/bench/cost_table.rs`; `cargo xtask bench --costs` prints this table alone). \
         Beside ours, the same work in the baseline where it has it: the dropshot floor for \
         listOrders, dropshot's `TypedBody` alone for quoteOrder.\n\n\
         | part | listOrders/100: ours | the floor | quoteOrder, 1 KB: ours | `TypedBody` alone | budget | status |\n\
         |---|---:|---:|---:|---:|---:|---|\n",
    );
    let per_request = |(few, more): &(Profile, Profile), functions: &[&str]| {
        more.part(functions).saturating_sub(few.part(functions)) as f64 / MEASURED as f64
    };
    let baseline = |counts: &Counts, part: &Part| match part.baseline {
        [] => "".to_string(),
        functions => format!("{:.0}", per_request(&counts.baseline, functions)),
    };
    let mut parts = (0.0, 0.0);
    for part in PARTS {
        let on_list = per_request(&list.ours, part.functions);
        let on_quote = per_request(&quote.ours, part.functions);
        // "Of it" rows are inside the row above: not added twice.
        if !part.name.starts_with("of it") {
            parts = (parts.0 + on_list, parts.1 + on_quote);
        }
        let over = on_list > part.budget.0 as f64 || on_quote > part.budget.1 as f64;
        let _ = writeln!(
            out,
            "| {} | {on_list:.0} | {} | {on_quote:.0} | {} | {} / {} | {} |",
            part.name,
            baseline(list, part),
            baseline(quote, part),
            part.budget.0,
            part.budget.1,
            if over { "**over: the next to fix**" } else { "within" }
        );
    }
    let _ = writeln!(
        out,
        "| the rest (hyper, dropshot's handler, the handler itself, the allocator) | {:.0} | | {:.0} | | | |",
        list.ours_total - parts.0,
        quote.ours_total - parts.1
    );
    let _ = writeln!(
        out,
        "| **the whole process** | **{:.0}** | **{:.0}** | **{:.0}** | **{:.0}** | 1.4× the floor / 15 % over `TypedBody` | {} |",
        list.ours_total,
        list.baseline_total,
        quote.ours_total,
        quote.baseline_total,
        match list.ours_total <= 1.4 * list.baseline_total && quote.ours_total * 0.85 <= quote.baseline_total {
            true => "within",
            false => "**over**",
        }
    );
    out
}
