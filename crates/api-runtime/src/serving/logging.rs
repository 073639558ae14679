//! The server's log on stderr: text (the default) or one JSON object per
//! line (`--log-format json`), with the same fields; formatted by
//! `log_lines`, written in batches by `log_writer`.
//! Request logs carry method, path and status, never headers, so keys stay
//! out of them.
//!
//! dropshot's `ConfigLogging::to_logger` filters by level after its async
//! drain: every request's "request completed" record is built, queued and
//! handed to the logging thread even at `warn`. Here the filter comes first,
//! so a record below the level costs a comparison and nothing else.
//!
//! The generated layer writes the line of each request it answers itself
//! (`request_lines`, cheaper): the filter drops dropshot's record of the
//! same request.
//!
//! A balancer probes `/healthz` and `/readyz` every few seconds: their
//! "request completed" records are written only when the level is `debug`
//! or `trace`, never at `info` (dropshot logs every request at `info`; the
//! probes are told apart by the request's `uri`, which dropshot puts in
//! the request's logger).

use dropshot::ConfigLoggingLevel;
use slog::{Drain, Logger, OwnedKVList, Record};

use super::log_lines::{LogFormat, REQUEST_COMPLETED};
use super::log_writer::{self, LogFlush};
use super::probes::PROBE_PATHS;
use super::request_lines::{RequestLines, take_written};

/// A service's log on stderr: the logger, the request lines the
/// generated layer writes beside it, and, when dropped, the flush of what
/// is buffered (`log_writer`): held until the service stops.
pub struct ServiceLog {
    pub logger: Logger,
    request_lines: Option<RequestLines>,
    _flush: LogFlush,
}

impl ServiceLog {
    /// Where the generated layer writes its requests' lines; `None` when
    /// the level does not write `info`.
    pub fn request_lines(&self) -> Option<RequestLines> {
        self.request_lines.clone()
    }
}

/// The log on stderr at `level` in `format`.
pub fn stderr_logger(level: ConfigLoggingLevel, format: LogFormat) -> std::io::Result<ServiceLog> {
    let level = match level {
        ConfigLoggingLevel::Trace => slog::Level::Trace,
        ConfigLoggingLevel::Debug => slog::Level::Debug,
        ConfigLoggingLevel::Info => slog::Level::Info,
        ConfigLoggingLevel::Warn => slog::Level::Warning,
        ConfigLoggingLevel::Error => slog::Level::Error,
        ConfigLoggingLevel::Critical => slog::Level::Critical,
    };
    let (batched, flush) = log_writer::start(format)?;
    let request_lines = slog::Level::Info.is_at_least(level).then(|| RequestLines::of(&batched));
    let probes_at_debug = ProbesAtDebug { inner: batched, level };
    Ok(ServiceLog {
        logger: Logger::root(probes_at_debug, slog::o!()),
        request_lines,
        _flush: flush,
    })
}

/// The level filter, with the probes' request records counted as `debug`.
struct ProbesAtDebug<D> {
    inner: D,
    level: slog::Level,
}

impl<D: Drain<Ok = (), Err = slog::Never>> Drain for ProbesAtDebug<D> {
    type Ok = ();
    type Err = slog::Never;

    fn log(&self, record: &Record<'_>, values: &OwnedKVList) -> Result<(), slog::Never> {
        if !record.level().is_at_least(self.level) {
            return Ok(());
        }
        let request_completed = record.msg().as_str() == Some(REQUEST_COMPLETED);
        // The generated layer wrote this request's line (`request_lines`).
        if request_completed && take_written() {
            return Ok(());
        }
        // Only what reaches this point pays for the look at its `uri`.
        if record.level() == slog::Level::Info
            && !slog::Level::Debug.is_at_least(self.level)
            && request_completed
            && is_probe(record, values)
        {
            return Ok(());
        }
        self.inner.log(record, values)
    }
}

/// Whether the request's logger says it is for a probe's path.
fn is_probe(record: &Record<'_>, values: &OwnedKVList) -> bool {
    /// Looks for `uri` among the logger's values, and stops at it.
    struct Uri(Option<bool>);
    impl Uri {
        fn found(&mut self, uri: &str) -> slog::Result {
            let path = uri.split('?').next().unwrap_or_default();
            self.0 = Some(PROBE_PATHS.contains(&path));
            // An error ends the walk through the other values.
            Err(slog::Error::Other)
        }
    }
    impl slog::Serializer for Uri {
        fn emit_str(&mut self, key: slog::Key, value: &str) -> slog::Result {
            match key == "uri" {
                true => self.found(value),
                false => Ok(()),
            }
        }
        fn emit_arguments(&mut self, key: slog::Key, value: &std::fmt::Arguments<'_>) -> slog::Result {
            match key == "uri" {
                true => self.found(&value.to_string()),
                false => Ok(()),
            }
        }
    }
    let mut uri = Uri(None);
    let _ = slog::KV::serialize(values, record, &mut uri);
    uri.0 == Some(true)
}
