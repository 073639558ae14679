//! The log's times: the moment a line is written, in UTC to the
//! millisecond, and the wall clock's time at a moment already read.

use std::cell::{Cell, RefCell};
use std::io::Write as _;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

thread_local! {
    /// The second last formatted on this thread, and its text up to the
    /// dot: `2026-11-27T22:56:36.`.
    static SECOND: RefCell<(u64, Vec<u8>)> = const { RefCell::new((u64::MAX, Vec::new())) };
}

/// Now in UTC, RFC 3339 with milliseconds: `2026-11-27T22:56:36.123Z`.
pub(super) fn timestamp(line: &mut Vec<u8>) {
    timestamp_of(line, SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default());
}

thread_local! {
    /// A moment and the wall clock's time at it, read together at most a
    /// second ago on this thread.
    static ANCHOR: Cell<Option<(Instant, Duration)>> = const { Cell::new(None) };
}

/// The wall clock's time at `at`, a moment this thread has just read: its
/// distance from an anchor read together with the wall clock, re-read
/// once a second. A request's line takes its time so from the moment its
/// latency was measured to, without a read of the wall clock of its own
/// (on the machines measured, a clock read costs a request about as much
/// as its line's time takes to format). Over a second the two clocks part
/// by well under a millisecond, the line's precision.
pub(super) fn wall_time_at(at: Instant) -> Duration {
    ANCHOR.with(|anchor| {
        if let Some((moment, wall)) = anchor.get()
            && let Some(since) = at.checked_duration_since(moment)
            && since < Duration::from_secs(1)
        {
            return wall + since;
        }
        let (moment, wall) = (
            Instant::now(),
            SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default(),
        );
        anchor.set(Some((moment, wall)));
        wall.saturating_sub(moment.saturating_duration_since(at))
    })
}

/// `now` (since the Unix epoch) in UTC, as [`timestamp`] writes it.
pub(super) fn timestamp_of(line: &mut Vec<u8>, now: Duration) {
    let seconds = now.as_secs();
    SECOND.with_borrow_mut(|(second, text)| {
        if *second != seconds {
            text.clear();
            let time = i64::try_from(seconds)
                .ok()
                .and_then(|s| chrono::DateTime::from_timestamp(s, 0))
                .unwrap_or_default();
            let _ = write!(text, "{}.", time.format("%Y-%m-%dT%H:%M:%S"));
            *second = seconds;
        }
        line.extend_from_slice(text);
    });
    let millis = now.subsec_millis();
    line.extend_from_slice(&[
        b'0' + (millis / 100) as u8,
        b'0' + (millis / 10 % 10) as u8,
        b'0' + (millis % 10) as u8,
        b'Z',
    ]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moments_wall_time_is_the_wall_clocks_within_a_millisecond() {
        for _ in 0..3 {
            let before = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
            let derived = wall_time_at(Instant::now());
            let after = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
            let slack = Duration::from_millis(1);
            assert!(
                before <= derived + slack && derived <= after + slack,
                "{before:?} {derived:?} {after:?}"
            );
            std::thread::sleep(Duration::from_millis(600));
        }
    }

    #[test]
    fn the_time_is_utc_with_milliseconds() {
        let mut text = Vec::new();
        timestamp(&mut text);
        timestamp(&mut text);
        let text = String::from_utf8(text).unwrap();
        let (first, second) = text.split_at(text.len() / 2);
        for time in [first, second] {
            assert_eq!(time.len(), "2026-11-27T22:56:36.123Z".len(), "{time}");
            let parsed = chrono::DateTime::parse_from_rfc3339(time).unwrap();
            let off = (chrono::Utc::now() - parsed.to_utc()).num_seconds().abs();
            assert!(off < 5, "{time}");
        }
    }
}
