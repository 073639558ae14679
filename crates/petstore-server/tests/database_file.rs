//! The database is where the operator said it is: a missing SQLite file is
//! an error unless creating one was asked for, and a file deleted or
//! replaced while serving is noticed (503 and an error log), never written
//! to.

mod support;

use std::path::Path;

use support::{ServerProcess, http, run, stderr};

fn cancel(server: &ServerProcess, key: &str, id: i64) -> (u16, String) {
    http(&format!("{}/store/orders/{id}", server.base_url), "DELETE", Some(key))
}

#[test]
fn serve_refuses_a_missing_file_unless_told_to_create_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("typo.db");
    let database = path.to_str().unwrap();
    let output = run(database, &["serve", "--bind", "127.0.0.1:0"]);
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(
        message.contains("does not exist") && message.contains("--create-database"),
        "{message}"
    );
    assert!(!path.exists(), "nothing was created");
    for args in [&["keys", "list"][..], &["keys", "revoke", "1"], &["ship", "1"]] {
        let output = run(database, args);
        assert!(!output.status.success(), "{args:?}");
        assert!(
            stderr(&output).contains("does not exist"),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(!path.exists(), "{args:?} created nothing");
    }

    let mut server = ServerProcess::start(database, &["--create-database"]);
    assert!(path.exists());
    let (status, _) = server.signal_and_wait("TERM");
    assert!(status.success(), "{}", server.logs());
    // Once it exists, it is served without the flag.
    let server = ServerProcess::start(database, &[]);
    drop(server);
}

fn remove_database(path: &Path) {
    std::fs::remove_file(path).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_file_deleted_while_serving_gets_503_and_is_not_recreated() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("petstore.db");
    let database = path.to_str().unwrap().to_string();
    let key = support::seed(&database, 5, 0, "file").await;
    let server = ServerProcess::start(&database, &[]);
    assert_eq!(cancel(&server, &key, 1).0, 204);

    remove_database(&path);
    let (status, body) = cancel(&server, &key, 2);
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("service_unavailable"), "{body}");
    let (status, body) = http(&format!("{}/store/orders", server.base_url), "GET", Some(&key));
    assert_eq!(status, 503, "no answers from an unlinked file: {body}");
    assert!(
        server.logged("was deleted while the service was running"),
        "{}",
        server.logs()
    );
    assert!(server.logged("ERRO"), "logged as an error: {}", server.logs());
    assert!(!path.exists(), "no new, empty database in its place");
    drop(server);

    // A restart does not serve an empty database in its place either.
    let output = run(&database, &["serve", "--bind", "127.0.0.1:0"]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("does not exist"), "{}", stderr(&output));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_file_replaced_while_serving_gets_503() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("petstore.db");
    let database = path.to_str().unwrap().to_string();
    let key = support::seed(&database, 5, 0, "file").await;
    let other = dir.path().join("other.db");
    support::seed(other.to_str().unwrap(), 3, 0, "other").await;
    let server = ServerProcess::start(&database, &[]);
    assert_eq!(cancel(&server, &key, 1).0, 204);

    std::fs::rename(&other, &path).unwrap();
    let (status, body) = cancel(&server, &key, 2);
    assert_eq!(status, 503, "{body}");
    assert!(server.logged("was replaced"), "{}", server.logs());
}
