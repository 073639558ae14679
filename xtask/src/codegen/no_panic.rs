//! progenitor and typify panic (`todo!`, `assert!`) on a few constructs.
//! The spec's checks refuse those first; should one slip through, its
//! panic becomes a refusal naming where and what, never a crash.

use std::cell::Cell;
use std::sync::Once;

use crate::codegen::document::SpecError;

thread_local! {
    /// Whether this thread is inside [`refusing_panics`].
    static REFUSING: Cell<bool> = const { Cell::new(false) };
}

/// Installs, once per process, a panic hook that stays silent for a
/// thread inside [`refusing_panics`] and hands every other panic to the
/// hook that was there before. (Taking and restoring the hook around each
/// call would race: the generator runs targets, clients and servers on
/// several threads, and one could restore another's silent hook for good.)
fn install_hook() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !REFUSING.with(Cell::get) {
                previous(info);
            }
        }));
    });
}

/// Runs `run`, turning a panic into a refusal at `location`.
pub fn refusing_panics<T>(
    location: &str,
    what: &str,
    run: impl FnOnce() -> Result<T, SpecError>,
) -> Result<T, SpecError> {
    // The panic is reported as a refusal; the default hook would also
    // print it, with a backtrace, as if the xtask had crashed.
    install_hook();
    let outer = REFUSING.with(|refusing| refusing.replace(true));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run));
    REFUSING.with(|refusing| refusing.set(outer));
    outcome.unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        // typify's message carries the schema over several lines.
        let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
        Err(SpecError::new(location, format!("{what} cannot map this: {message}")))
    })
}
