//! Gives the linker `link-order.txt` in release builds: the functions the
//! server runs, placed together, so that its code touches fewer pages and
//! the process holds less memory (`xtask/src/load/bench/link_order.rs`
//! says how the list is made and what it saves).
//!
//! Only where this toolchain's linker takes the option (lld, Rust's
//! default on x86_64 Linux; not GNU ld): told by linking an empty program
//! with it first, with the build's own flags and linker. Elsewhere the
//! server links as before, and a warning says so.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn main() {
    println!("cargo:rerun-if-changed=link-order.txt");
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("PROFILE").as_deref() != Ok("release") {
        return;
    }
    let order = Path::new(&env("CARGO_MANIFEST_DIR")).join("link-order.txt");
    if !order.exists() {
        return;
    }
    let arguments = [
        format!("-Wl,--symbol-ordering-file={}", order.display()),
        // Functions the list names that a change removed or renamed.
        "-Wl,--no-warn-symbol-ordering".to_string(),
    ];
    if !linker_takes(&arguments) {
        println!("cargo:warning=the linker does not take --symbol-ordering-file: link-order.txt is not used");
        return;
    }
    for argument in arguments {
        println!("cargo:rustc-link-arg-bin=petstore-server={argument}");
    }
}

/// Whether an empty program links with `arguments`, built as the server
/// is (its target, flags and linker).
fn linker_takes(arguments: &[String]) -> bool {
    let out = PathBuf::from(env("OUT_DIR"));
    let source = out.join("link_probe.rs");
    if std::fs::write(&source, "fn main() {}\n").is_err() {
        return false;
    }
    let mut rustc = Command::new(env("RUSTC"));
    rustc
        .args(["--crate-type", "bin", "--target", &env("TARGET"), "-o"])
        .arg(out.join("link_probe"))
        .arg(&source);
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    rustc.args(flags.split('\x1f').filter(|flag| !flag.is_empty()));
    if let Ok(linker) = std::env::var("RUSTC_LINKER") {
        rustc.arg(format!("-Clinker={linker}"));
    }
    for argument in arguments {
        rustc.arg(format!("-Clink-arg={argument}"));
    }
    rustc
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_default()
}
