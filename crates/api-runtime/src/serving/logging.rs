//! The server's log on stderr: dropshot's terminal format (the default) or
//! one JSON object per line (`--log-format json`), with the same fields.
//! Request logs carry method, path and status, never headers, so keys stay
//! out of them.
//!
//! dropshot's `ConfigLogging::to_logger` filters by level after its async
//! drain: every request's "request completed" record is built, queued and
//! handed to the logging thread even at `warn`. Here the filter comes first,
//! so a record below the level costs a comparison and nothing else.
//!
//! A balancer probes `/healthz` and `/readyz` every few seconds: their
//! "request completed" records are written only when the level is `debug`
//! or `trace`, never at `info` (dropshot logs every request at `info`; the
//! probes are told apart by the request's `uri`, which dropshot puts in
//! the request's logger).

use dropshot::ConfigLoggingLevel;
use slog::{Drain, Logger, OwnedKVList, Record};

use super::probes::PROBE_PATHS;

/// How log records are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// dropshot's terminal format, for people.
    Text,
    /// One JSON object per line (`msg`, `level`, `ts`, and every key and
    /// value of the record), for log pipelines.
    Json,
}

pub fn stderr_logger(level: ConfigLoggingLevel, format: LogFormat) -> std::io::Result<Logger> {
    let level = match level {
        ConfigLoggingLevel::Trace => slog::Level::Trace,
        ConfigLoggingLevel::Debug => slog::Level::Debug,
        ConfigLoggingLevel::Info => slog::Level::Info,
        ConfigLoggingLevel::Warn => slog::Level::Warning,
        ConfigLoggingLevel::Error => slog::Level::Error,
        ConfigLoggingLevel::Critical => slog::Level::Critical,
    };
    let queued = match format {
        LogFormat::Text => {
            let text = slog_term::FullFormat::new(slog_term::TermDecorator::new().build())
                .build()
                .fuse();
            slog_async::Async::new(text).chan_size(1024).build().fuse()
        }
        LogFormat::Json => {
            let json = slog_json::Json::new(std::io::stderr())
                .add_default_keys()
                .build()
                .fuse();
            slog_async::Async::new(json).chan_size(1024).build().fuse()
        }
    };
    let probes_at_debug = ProbesAtDebug { inner: queued, level };
    Ok(Logger::root(probes_at_debug.fuse(), slog::o!()))
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
        // Only what reaches this point pays for the look at its `uri`.
        if record.level() == slog::Level::Info
            && !slog::Level::Debug.is_at_least(self.level)
            && record.msg().as_str() == Some("request completed")
            && is_probe(record, values)
        {
            return Ok(());
        }
        self.inner.log(record, values)
    }
}

/// Whether the request's logger says it is for a probe's path.
fn is_probe(record: &Record<'_>, values: &OwnedKVList) -> bool {
    struct Uri(Option<String>);
    impl slog::Serializer for Uri {
        fn emit_arguments(&mut self, key: slog::Key, value: &std::fmt::Arguments<'_>) -> slog::Result {
            if key == "uri" {
                self.0 = Some(value.to_string());
            }
            Ok(())
        }
    }
    let mut uri = Uri(None);
    let _ = slog::KV::serialize(values, record, &mut uri);
    uri.0.is_some_and(|uri| {
        let path = uri.split('?').next().unwrap_or_default();
        PROBE_PATHS.contains(&path)
    })
}
