//! CORS as a browser sees it: headless Chromium loads a page from one
//! origin (a server of this test's, on a port of its own), whose script
//! calls the service with `fetch` and its credentials and reports what it
//! got back to the page's server. From an allowed origin the answer
//! arrives; from another, the browser refuses it to the script.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::checks::Service;

/// Where Chromium is; `None` where it is not installed (the check then
/// fails in CI, which installs it, and is skipped elsewhere: [`crate::tools`]).
pub fn chromium() -> Option<&'static str> {
    [
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
        "/usr/bin/google-chrome",
    ]
    .into_iter()
    .find(|path| std::path::Path::new(path).exists())
}

/// A port for a page, and the origin a page served there has.
fn page_port() -> (TcpListener, String) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port for the page");
    let origin = format!("http://{}", listener.local_addr().expect("its address"));
    (listener, origin)
}

/// Serves, on `listener`, `/`: the page, whose script fetches `target`
/// with `headers` and reports `status body` or `error: ...` to
/// `/report`; gives the report.
fn serve_page(listener: TcpListener, target: &str, headers: &[(String, String)]) -> mpsc::Receiver<String> {
    let (tx, report) = mpsc::channel();
    let headers = headers
        .iter()
        .map(|(name, value)| format!("{name:?}: {value:?}"))
        .collect::<Vec<_>>()
        .join(", ");
    let page = format!(
        "<!doctype html><title>CORS</title><script>\
         fetch({target:?}, {{headers: {{{headers}}}}})\
           .then(async r => `${{r.status}} ${{await r.text()}}`, e => `error: ${{e}}`)\
           .then(t => fetch('/report', {{method: 'POST', body: t}}));\
         </script>"
    );
    let page = std::sync::Arc::new(page);
    std::thread::spawn(move || {
        // A thread per connection: Chromium opens some it never sends on.
        for conn in listener.incoming().flatten() {
            let (tx, page) = (tx.clone(), page.clone());
            std::thread::spawn(move || answer_page_request(conn, &page, &tx));
        }
    });
    report
}

/// One request to the page's server: the page, or its report.
fn answer_page_request(mut conn: TcpStream, page: &str, report: &mpsc::Sender<String>) {
    let Ok(clone) = conn.try_clone() else { return };
    let mut reader = BufReader::new(clone);
    let mut line = String::new();
    let _ = reader.read_line(&mut line);
    let mut length = 0;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).is_err() || header.trim().is_empty() {
            break;
        }
        if let Some(value) = header.to_ascii_lowercase().strip_prefix("content-length:") {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let answer = if line.starts_with("POST /report") {
        let mut body = vec![0; length];
        let _ = reader.read_exact(&mut body);
        let _ = report.send(String::from_utf8_lossy(&body).into_owned());
        "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n".to_string()
    } else if line.starts_with("GET / ") {
        format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
            page.len()
        )
    } else {
        "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_string()
    };
    let _ = conn.write_all(answer.as_bytes());
}

/// What the page at `origin` reported after Chromium loaded it.
fn visit(chromium: &str, origin: &str, report: &mpsc::Receiver<String>) -> String {
    let profile = std::env::temp_dir().join(format!("serving-checks-chromium-{}", std::process::id()));
    let mut browser = Command::new(chromium)
        .args(["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("{origin}/"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium runs");
    let reported = report.recv_timeout(Duration::from_secs(60));
    // Chromium's zygote and renderers leave its process group: every
    // descendant is found first, then all are killed.
    let mut pids = descendants(browser.id());
    pids.push(browser.id());
    let pids: Vec<String> = pids.iter().map(u32::to_string).collect();
    let _ = Command::new("kill").args(["-s", "KILL", "--"]).args(&pids).status();
    let _ = browser.wait();
    let _ = std::fs::remove_dir_all(&profile);
    reported.expect("the page reported within 60 s")
}

/// A page from an allowed origin gets the served request's answer (its
/// credentials sent as headers, so the browser preflights it first); a
/// page from another origin is refused it by the browser.
pub fn a_browser_calls_it_from_an_allowed_origin_only(service: &Service) {
    let Some(chromium) = chromium() else {
        crate::tools::missing("browser", "Chromium is not installed (apt-get install chromium)");
        return;
    };
    let headers: Vec<(String, String)> = service
        .served
        .headers
        .iter()
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_string(), value.trim().to_string()))
        .collect();
    let (allowed_port, allowed_origin) = page_port();
    let (other_port, other_origin) = page_port();
    let process = service.start(&["--cors-origin", &allowed_origin]);
    let target = format!("http://{}{}", process.address(), service.served.path);
    let allowed = visit(chromium, &allowed_origin, &serve_page(allowed_port, &target, &headers));
    let status: Option<u16> = allowed.get(..3).and_then(|s| s.parse().ok());
    assert!(
        status.is_some_and(|s| (200..300).contains(&s)),
        "from the allowed origin {allowed_origin}, the page got: {allowed}\n{}",
        process.logs()
    );
    let refused = visit(chromium, &other_origin, &serve_page(other_port, &target, &headers));
    assert!(
        refused.starts_with("error: TypeError"),
        "from {other_origin}, not allowed, the page got: {refused}"
    );
}

/// The processes descended from `pid`, from `/proc`.
fn descendants(pid: u32) -> Vec<u32> {
    let parents: Vec<(u32, u32)> = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let child: u32 = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            // `pid (name) state ppid ...`: the name may hold spaces.
            let parent = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()?;
            Some((child, parent))
        })
        .collect();
    let mut found = vec![pid];
    let mut index = 0;
    while let Some(&parent) = found.get(index) {
        found.extend(parents.iter().filter(|(_, p)| *p == parent).map(|(c, _)| *c));
        index += 1;
    }
    found.remove(0);
    found
}
