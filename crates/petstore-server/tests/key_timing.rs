//! API keys: only the canonical form is accepted, and unknown, revoked and
//! wrong keys take the same work, so that timing does not tell an attacker
//! which key ids exist. The timing is compared statistically (a
//! Mann-Whitney U test over interleaved samples), not against a fixed
//! threshold.
//!
//! A binary of its own, so that no other test of this crate runs beside it:
//! their load on the CPU would be the very noise these samples measure.

#[path = "integration/support/mod.rs"]
mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use petstore_server::testing::PostgresTestDatabase;
use support::{ServerProcess, http};

/// One keep-alive HTTP/1.1 connection, so that connection setup does not
/// add noise to the samples.
struct Connection {
    reader: BufReader<TcpStream>,
    host: String,
}

impl Connection {
    fn open(base_url: &str) -> Connection {
        let rest = base_url.strip_prefix("http://").unwrap();
        let host = rest[..rest.find('/').unwrap()].to_string();
        let stream = TcpStream::connect(&host).unwrap();
        stream.set_nodelay(true).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        Connection {
            reader: BufReader::new(stream),
            host,
        }
    }

    /// GET `path` with `key`; the status and how long the answer took.
    fn get(&mut self, path: &str, key: &str) -> (u16, Duration) {
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {key}\r\n\r\n",
            self.host
        );
        let started = Instant::now();
        self.reader.get_mut().write_all(request.as_bytes()).unwrap();
        let mut line = String::new();
        self.reader.read_line(&mut line).unwrap();
        let status = line[9..12].parse().unwrap();
        let mut length = 0;
        loop {
            line.clear();
            self.reader.read_line(&mut line).unwrap();
            if line == "\r\n" {
                break;
            }
            if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = value.trim().parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body).unwrap();
        (status, started.elapsed())
    }
}

/// The z statistic of the Mann-Whitney U test of `a` against `b`: about
/// standard normal when both come from the same distribution.
fn mann_whitney_z(a: &[Duration], b: &[Duration]) -> f64 {
    let mut all: Vec<(Duration, bool)> = a
        .iter()
        .map(|d| (*d, true))
        .chain(b.iter().map(|d| (*d, false)))
        .collect();
    all.sort_by_key(|(d, _)| *d);
    let mut rank_sum_a = 0.0;
    let mut i = 0;
    while i < all.len() {
        // Tied values share the average of their ranks.
        let mut j = i;
        while j < all.len() && all[j].0 == all[i].0 {
            j += 1;
        }
        let rank = (i + j + 1) as f64 / 2.0;
        rank_sum_a += rank * all[i..j].iter().filter(|(_, from_a)| *from_a).count() as f64;
        i = j;
    }
    let (n1, n2) = (a.len() as f64, b.len() as f64);
    let u = rank_sum_a - n1 * (n1 + 1.0) / 2.0;
    (u - n1 * n2 / 2.0) / (n1 * n2 * (n1 + n2 + 1.0) / 12.0).sqrt()
}

fn median(samples: &[Duration]) -> Duration {
    let mut sorted = samples.to_vec();
    sorted.sort();
    sorted[sorted.len() / 2]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_canonical_key_form_is_accepted_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    only_the_canonical_key_form_is_accepted(dir.path().join("petstore.db").to_str().unwrap()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_canonical_key_form_is_accepted_postgres() {
    let Some(db) = PostgresTestDatabase::create("only_the_canonical_key_form_is_accepted").await else {
        return;
    };
    only_the_canonical_key_form_is_accepted(&db.url).await;
}

async fn only_the_canonical_key_form_is_accepted(database: &str) {
    let key = support::seed(database, 3, 0, "canonical").await;
    let server = ServerProcess::start(database, &[]);
    let url = format!("{}/store/orders", server.base_url);
    assert_eq!(http(&url, "GET", Some(&key)).0, 200);
    let (id, secret) = key.strip_prefix("psk_").unwrap().split_once('_').unwrap();
    for variant in [
        format!("psk_0{id}_{secret}"),
        format!("psk_+{id}_{secret}"),
        format!("psk_{id}_{}", secret.to_uppercase()),
        format!("PSK_{id}_{secret}"),
    ] {
        assert_eq!(http(&url, "GET", Some(&variant)).0, 401, "{variant}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_revoked_and_wrong_keys_cannot_be_told_apart_by_timing_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    unknown_revoked_and_wrong_keys_cannot_be_told_apart_by_timing(dir.path().join("petstore.db").to_str().unwrap())
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_revoked_and_wrong_keys_cannot_be_told_apart_by_timing_postgres() {
    let Some(db) = PostgresTestDatabase::create("keys_cannot_be_told_apart_by_timing").await else {
        return;
    };
    unknown_revoked_and_wrong_keys_cannot_be_told_apart_by_timing(&db.url).await;
}

async fn unknown_revoked_and_wrong_keys_cannot_be_told_apart_by_timing(database: &str) {
    let key = support::seed(database, 3, 0, "timing").await;
    let revoked = support::create_key(database, "revoked");
    let revoked_id: i64 = revoked.split('_').nth(1).unwrap().parse().unwrap();
    let output = support::run(database, &["keys", "revoke", &revoked_id.to_string()]);
    assert!(output.status.success());
    let server = ServerProcess::start(database, &["--log-level", "warn"]);

    let (id, secret) = key.strip_prefix("psk_").unwrap().split_once('_').unwrap();
    let wrong_secret = format!("psk_{id}_{}", "0".repeat(secret.len()));
    // An id no key has, of as many digits as the real one, and the same
    // made-up secret: the three classes differ only in what the service
    // finds, not in the length or content of what it parses (a 7-digit id
    // made requests measurably longer to parse, about 0.4 µs, which a
    // quiet machine told apart).
    let unknown: i64 = 10i64.pow(id.len() as u32) - 1;
    assert!(
        unknown.to_string() != id && unknown != revoked_id,
        "no key has id {unknown}"
    );
    let unknown_id = format!("psk_{unknown}_{}", "0".repeat(secret.len()));
    let revoked_wrong = format!("psk_{revoked_id}_{}", "0".repeat(secret.len()));
    let classes = [wrong_secret, unknown_id, revoked_wrong];

    let mut conn = Connection::open(&server.base_url);
    let path = "/v1/store/orders";
    for _ in 0..200 {
        for key in &classes {
            assert_eq!(conn.get(path, key).0, 401);
        }
    }
    // Interleaved in a changing order, so that drift in the machine's
    // speed falls on every class alike.
    const ROUNDS: usize = 1500;
    let mut samples: [Vec<Duration>; 3] = Default::default();
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..ROUNDS {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let start = (state >> 33) as usize % 3;
        for offset in 0..3 {
            let class = (start + offset) % 3;
            let (status, took) = conn.get(path, &classes[class]);
            assert_eq!(status, 401);
            samples[class].push(took);
        }
    }
    let [wrong, unknown, revoked] = &samples;
    let figures = format!(
        "medians: wrong secret {:?}, unknown id {:?}, revoked {:?}",
        median(wrong),
        median(unknown),
        median(revoked)
    );
    // |z| < 4.5: a false alarm once in about 150,000 runs when the work is
    // the same; a difference of a database read (tens of microseconds on
    // every unknown id) gives a |z| in the tens.
    for (name, other) in [("unknown id", unknown), ("revoked key", revoked)] {
        let z = mann_whitney_z(wrong, other);
        assert!(z.abs() < 4.5, "wrong secret vs {name}: z = {z:.2}; {figures}");
    }
}
