//! One log record as one line of bytes: the text format (dropshot's
//! terminal layout: time, level, message, then `key: value` pairs) or one
//! JSON object (`msg`, `level`, `ts`, then every key and value). A record
//! logged while the generated layer answers a request gets the request's
//! ids (`request_ids::add_current`).
//!
//! Written by hand rather than by slog-term and slog-json because some
//! records come with every request (dropshot's lines of the requests the
//! generated layer does not answer; the layer's own are `request_lines`):
//! those build the time with strftime for each record and write a line in
//! many small writes; here the time's seconds are formatted once a second per
//! thread, numbers with `itoa`, and the line lands in a reused buffer
//! that [`super::log_writer`] writes in batches.

use std::fmt;
use std::io::Write as _;

use slog::{KV, Key, OwnedKVList, Record};

use super::log_time::timestamp;
use super::request_ids;

/// How log records are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Time, level, message and `key: value` pairs, for people.
    Text,
    /// One JSON object per line (`msg`, `level`, `ts`, and every key and
    /// value of the record), for log pipelines.
    Json,
}

/// Appends `record` (with its logger's `values`) to `line`, ending in a
/// newline.
pub(super) fn format(format: LogFormat, record: &Record<'_>, values: &OwnedKVList, line: &mut Vec<u8>) {
    match format {
        LogFormat::Text => {
            timestamp(line);
            line.push(b' ');
            line.extend_from_slice(record.level().as_short_str().as_bytes());
            line.push(b' ');
            let _ = write_arguments(line, record.msg());
            let mut pairs = TextPairs(line, Pairs::of(record));
            let _ = record.kv().serialize(record, &mut pairs);
            let _ = values.serialize(record, &mut pairs);
            request_ids::add_current(record, values, &mut pairs);
        }
        LogFormat::Json => {
            line.extend_from_slice(b"{\"msg\":");
            json_arguments(line, record.msg());
            line.extend_from_slice(b",\"level\":\"");
            line.extend_from_slice(record.level().as_short_str().as_bytes());
            line.extend_from_slice(b"\",\"ts\":\"");
            timestamp(line);
            line.push(b'"');
            let mut pairs = JsonPairs(line, Pairs::of(record));
            let _ = record.kv().serialize(record, &mut pairs);
            let _ = values.serialize(record, &mut pairs);
            request_ids::add_current(record, values, &mut pairs);
            line.push(b'}');
        }
    }
    line.push(b'\n');
}

/// The warning the log's writer adds after a batch when lines after it
/// were dropped.
pub(super) fn format_dropped(format: LogFormat, dropped: u64, line: &mut Vec<u8>) {
    // One statement: the record borrows temporaries.
    self::format(
        format,
        &slog::record!(
            slog::Level::Warning,
            "",
            &format_args!("log lines dropped: stderr did not take them as fast as they were logged"),
            slog::b!("dropped" => dropped)
        ),
        &OwnedKVList::from(slog::o!()),
        line,
    );
}

/// `arguments` as text: without formatting when they are a plain string.
fn write_arguments(line: &mut Vec<u8>, arguments: &fmt::Arguments<'_>) -> std::io::Result<()> {
    match arguments.as_str() {
        Some(text) => {
            line.extend_from_slice(text.as_bytes());
            Ok(())
        }
        None => line.write_fmt(*arguments),
    }
}

/// `arguments` as a JSON string.
fn json_arguments(line: &mut Vec<u8>, arguments: &fmt::Arguments<'_>) {
    match arguments.as_str() {
        Some(text) => json_string(line, text),
        None => json_string(line, &arguments.to_string()),
    }
}

pub(super) fn json_string(line: &mut Vec<u8>, text: &str) {
    // Writing a string into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *line, text);
}

/// Which of a record's pairs are written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pairs {
    All,
    /// A request's `request completed` line: all but `local_addr`, the
    /// server's own address, the same on every line of that server (its
    /// `listening` line says it). Formatting a socket address takes as
    /// much as the rest of the line.
    OfARequest,
}

/// dropshot's message for a request answered.
pub(super) const REQUEST_COMPLETED: &str = "request completed";

impl Pairs {
    fn of(record: &Record<'_>) -> Pairs {
        match record.msg().as_str() == Some(REQUEST_COMPLETED) {
            true => Pairs::OfARequest,
            false => Pairs::All,
        }
    }

    fn skips(self, key: &Key) -> bool {
        self == Pairs::OfARequest && key == "local_addr"
    }
}

/// `, key: value` for each pair, as slog-term's full format writes them.
struct TextPairs<'a>(&'a mut Vec<u8>, Pairs);

impl TextPairs<'_> {
    /// Writes `key`'s part before its value; false when it is skipped.
    fn key(&mut self, key: &Key) -> bool {
        if self.1.skips(key) {
            return false;
        }
        self.0.extend_from_slice(b", ");
        self.0.extend_from_slice(AsRef::<str>::as_ref(key).as_bytes());
        self.0.extend_from_slice(b": ");
        true
    }
}

/// `,"key":value` for each pair.
struct JsonPairs<'a>(&'a mut Vec<u8>, Pairs);

impl JsonPairs<'_> {
    /// Writes `key`'s part before its value; false when it is skipped.
    fn key(&mut self, key: &Key) -> bool {
        if self.1.skips(key) {
            return false;
        }
        self.0.push(b',');
        json_string(self.0, key.as_ref());
        self.0.push(b':');
        true
    }
}

/// The serializer's methods for integers, alike in both formats: the
/// digits, with `itoa`.
macro_rules! integers {
    ($($method:ident: $type:ty),* $(,)?) => {
        $(
            fn $method(&mut self, key: Key, value: $type) -> slog::Result {
                if self.key(&key) {
                    self.0.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
                }
                Ok(())
            }
        )*
    };
}

impl slog::Serializer for TextPairs<'_> {
    integers!(
        emit_u8: u8, emit_u16: u16, emit_u32: u32, emit_u64: u64, emit_u128: u128, emit_usize: usize,
        emit_i8: i8, emit_i16: i16, emit_i32: i32, emit_i64: i64, emit_i128: i128, emit_isize: isize,
    );

    fn emit_str(&mut self, key: Key, value: &str) -> slog::Result {
        if self.key(&key) {
            self.0.extend_from_slice(value.as_bytes());
        }
        Ok(())
    }

    fn emit_arguments(&mut self, key: Key, value: &fmt::Arguments<'_>) -> slog::Result {
        if self.key(&key) {
            write_arguments(self.0, value)?;
        }
        Ok(())
    }
}

impl slog::Serializer for JsonPairs<'_> {
    integers!(
        emit_u8: u8, emit_u16: u16, emit_u32: u32, emit_u64: u64, emit_u128: u128, emit_usize: usize,
        emit_i8: i8, emit_i16: i16, emit_i32: i32, emit_i64: i64, emit_i128: i128, emit_isize: isize,
    );

    fn emit_bool(&mut self, key: Key, value: bool) -> slog::Result {
        if self.key(&key) {
            self.0.extend_from_slice(if value { b"true" } else { b"false" });
        }
        Ok(())
    }

    fn emit_f64(&mut self, key: Key, value: f64) -> slog::Result {
        if self.key(&key) {
            match value.is_finite() {
                true => write!(self.0, "{value}")?,
                false => self.0.extend_from_slice(b"null"),
            }
        }
        Ok(())
    }

    fn emit_f32(&mut self, key: Key, value: f32) -> slog::Result {
        self.emit_f64(key, f64::from(value))
    }

    fn emit_unit(&mut self, key: Key) -> slog::Result {
        self.emit_none(key)
    }

    fn emit_none(&mut self, key: Key) -> slog::Result {
        if self.key(&key) {
            self.0.extend_from_slice(b"null");
        }
        Ok(())
    }

    fn emit_str(&mut self, key: Key, value: &str) -> slog::Result {
        if self.key(&key) {
            json_string(self.0, value);
        }
        Ok(())
    }

    fn emit_arguments(&mut self, key: Key, value: &fmt::Arguments<'_>) -> slog::Result {
        if self.key(&key) {
            json_arguments(self.0, value);
        }
        Ok(())
    }
}

#[cfg(test)]
/// For tests: what `log` logs through [`format`], on a server's logger (which
/// holds `local_addr`).
pub(super) fn server_line(layout: LogFormat, log: impl FnOnce(&slog::Logger)) -> String {
    struct Capture(LogFormat, std::sync::Mutex<Vec<u8>>);
    impl slog::Drain for &'static Capture {
        type Ok = ();
        type Err = slog::Never;
        fn log(&self, record: &Record<'_>, values: &OwnedKVList) -> Result<(), slog::Never> {
            format(self.0, record, values, &mut self.1.lock().unwrap());
            Ok(())
        }
    }
    let capture: &'static Capture = Box::leak(Box::new(Capture(layout, Default::default())));
    log(&slog::Logger::root(capture, slog::o!("local_addr" => "127.0.0.1:8080")));
    String::from_utf8(capture.1.lock().unwrap().clone()).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same on a child logger with a `uri` and a `remote_addr`.
    fn line(format: LogFormat, log: impl FnOnce(&slog::Logger)) -> String {
        server_line(format, |server| {
            let remote = std::net::SocketAddr::from(([127, 0, 0, 1], 41000));
            log(&server.new(slog::o!("uri" => "/v1/store/orders?a=\"b\"", "remote_addr" => remote)))
        })
    }

    #[test]
    fn a_text_line_is_laid_out_as_slog_terms_and_a_request_line_leaves_out_the_local_address() {
        let text = line(
            LogFormat::Text,
            |log| slog::info!(log, "request completed"; "response_code" => 200u16, "latency_us" => 1234u128),
        );
        let (time, rest) = text.split_once(' ').unwrap();
        assert!(chrono::DateTime::parse_from_rfc3339(time).is_ok(), "{time}");
        assert_eq!(
            rest,
            "INFO request completed, latency_us: 1234, response_code: 200, \
             remote_addr: 127.0.0.1:41000, uri: /v1/store/orders?a=\"b\"\n"
        );
        let listening = line(LogFormat::Text, |log| slog::info!(log, "listening"));
        assert!(listening.ends_with("INFO listening, remote_addr: 127.0.0.1:41000, uri: /v1/store/orders?a=\"b\", local_addr: 127.0.0.1:8080\n"), "{listening}");
    }

    #[test]
    fn a_json_line_is_one_object_with_typed_values() {
        let text = line(
            LogFormat::Json,
            |log| slog::warn!(log, "slow {}", "answer"; "response_code" => 503u16, "ok" => false, "ratio" => 0.5, "gone" => None::<u8>, "why" => %"a\nb"),
        );
        assert!(text.ends_with("}\n") && text.lines().count() == 1, "{text}");
        let record: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(record["msg"], "slow answer");
        assert_eq!(record["level"], "WARN");
        assert!(
            chrono::DateTime::parse_from_rfc3339(record["ts"].as_str().unwrap()).is_ok(),
            "{record}"
        );
        assert_eq!(record["response_code"], 503);
        assert_eq!(record["ok"], false);
        assert_eq!(record["ratio"], 0.5);
        assert!(record["gone"].is_null());
        assert_eq!(record["why"], "a\nb");
        assert_eq!(record["uri"], "/v1/store/orders?a=\"b\"");
        assert_eq!(record["remote_addr"], "127.0.0.1:41000");
        assert_eq!(record["local_addr"], "127.0.0.1:8080");
    }
}
