//! progenitor and typify panic (`todo!`, `assert!`) on a few constructs.
//! The spec's checks refuse those first; should one slip through, its
//! panic becomes a refusal naming where and what, never a crash.

use crate::codegen::spec::SpecError;

/// Runs `run`, turning a panic into a refusal at `location`.
pub fn refusing_panics<T>(
    location: &str,
    what: &str,
    run: impl FnOnce() -> Result<T, SpecError>,
) -> Result<T, SpecError> {
    // The panic is reported as a refusal; the default hook would also
    // print it, with a backtrace, as if the xtask had crashed.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run));
    std::panic::set_hook(hook);
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
