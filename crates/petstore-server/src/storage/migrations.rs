//! Running the schema's migrations safely on a SQLite file that other
//! processes may be using.
//!
//! A migration changes the schema under every process that has the file
//! open: a server of the previous version would go on with statements
//! written for the old schema. So a SQLite database that has a schema
//! already is migrated only when no other process has it open, and a binary
//! never starts on a schema newer than the migrations it knows. (PostgreSQL
//! instances migrate one at a time under sqlx's advisory lock; a rolling
//! upgrade there is the operator's plan.)

use std::collections::BTreeSet;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use sqlx::AnyPool;
use sqlx::migrate::{MigrateError, Migrator};

use super::{Result, StorageError};

/// Fails if `path` holds a schema newer than this binary's migrations, or
/// if migrations are pending on an existing schema while another process
/// has the file open.
pub(super) async fn check_sqlite(pool: &AnyPool, migrator: &Migrator, path: &Path) -> Result<()> {
    let has_table: i64 =
        sqlx::query_scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = '_sqlx_migrations'")
            .fetch_one(pool)
            .await
            .map_err(|e| StorageError::Unavailable(format!("cannot read the schema's version: {e}")))?;
    let applied: BTreeSet<i64> = match has_table {
        0 => BTreeSet::new(),
        _ => sqlx::query_scalar::<_, i64>("SELECT version FROM _sqlx_migrations WHERE success")
            .fetch_all(pool)
            .await
            .map_err(|e| StorageError::Unavailable(format!("cannot read the schema's version: {e}")))?
            .into_iter()
            .collect(),
    };
    let known: BTreeSet<i64> = migrator.iter().map(|m| m.version).collect();
    if let Some(newer) = applied.difference(&known).max() {
        return Err(newer_schema(*newer));
    }
    let pending = known.difference(&applied).count();
    if pending == 0 || applied.is_empty() {
        return Ok(());
    }
    match other_process_using(path)? {
        None => Ok(()),
        Some(pid) => Err(StorageError::Unavailable(format!(
            "{pending} schema migration(s) of this version are pending on {}, and process {pid} has it open: \
             migrating would change the schema under it. Stop every petstore-server and command on this \
             database, then start this version",
            path.display()
        ))),
    }
}

/// A schema with a migration this binary does not know: a newer version
/// migrated it.
fn newer_schema(version: i64) -> StorageError {
    StorageError::Invalid(format!(
        "the database was migrated by a newer petstore-server (its schema has migration {version}, which \
         this binary does not know): run that version, or restore a backup made before the upgrade"
    ))
}

/// sqlx's refusal, in the operator's terms.
pub(super) fn explain(error: MigrateError) -> StorageError {
    match error {
        MigrateError::VersionMissing(version) => newer_schema(version),
        other => StorageError::Internal(format!("cannot migrate: {other}")),
    }
}

/// The id of a process other than this one holding a lock on the SQLite
/// file at `path`, if any. Read from `/proc/locks`, not with `F_GETLK`:
/// opening the file here and closing it again would release every POSIX
/// lock this process holds on it, SQLite's included.
fn other_process_using(path: &Path) -> Result<Option<i32>> {
    let metadata = std::fs::metadata(path)
        .map_err(|e| StorageError::Unavailable(format!("cannot read {}: {e}", path.display())))?;
    let file = format!(
        "{:02x}:{:02x}:{}",
        nix::sys::stat::major(metadata.dev()),
        nix::sys::stat::minor(metadata.dev()),
        metadata.ino()
    );
    let locks = std::fs::read_to_string("/proc/locks")
        .map_err(|e| StorageError::Unavailable(format!("cannot read /proc/locks: {e}")))?;
    Ok(holders(&locks, &file).find(|pid| *pid != std::process::id() as i32))
}

/// The processes holding POSIX locks on `file` (`MAJOR:MINOR:INODE`) in
/// `/proc/locks`, as in `1: POSIX  ADVISORY  READ 1234 08:01:5678 1073741826 1073742335`.
fn holders<'a>(locks: &'a str, file: &'a str) -> impl Iterator<Item = i32> + 'a {
    locks.lines().filter_map(move |line| {
        // A lock that another waits for is listed again behind `->`.
        let fields: Vec<&str> = line.split_whitespace().filter(|field| *field != "->").collect();
        match fields.as_slice() {
            [_, "POSIX", _, _, pid, id, ..] if *id == file => pid.parse().ok(),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_locks_lines_name_their_holders() {
        let locks = "1: POSIX  ADVISORY  READ 1234 08:01:5678 1073741826 1073742335\n\
                     1: -> POSIX  ADVISORY  WRITE 99 08:01:5678 1073741824 1073741824\n\
                     2: FLOCK  ADVISORY  WRITE 7 08:01:5678 0 EOF\n\
                     3: POSIX  ADVISORY  READ 55 08:01:1 0 EOF\n";
        assert_eq!(holders(locks, "08:01:5678").collect::<Vec<_>>(), [1234, 99]);
    }

    #[test]
    fn a_lock_of_another_process_is_seen_and_ours_are_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("locks.db");
        let ours = rusqlite::Connection::open(&path).unwrap();
        ours.execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE t (x);")
            .unwrap();
        assert_eq!(
            other_process_using(&path).unwrap(),
            None,
            "this process's locks are its own"
        );
        let own_lock_kept = || {
            let locks = std::fs::read_to_string("/proc/locks").unwrap();
            let m = std::fs::metadata(&path).unwrap();
            let file = format!(
                "{:02x}:{:02x}:{}",
                nix::sys::stat::major(m.dev()),
                nix::sys::stat::minor(m.dev()),
                m.ino()
            );
            holders(&locks, &file).any(|pid| pid == std::process::id() as i32)
        };
        assert!(own_lock_kept(), "looking released none of this process's locks");
        // python3's sqlite3 is another process holding the database open.
        let mut other = std::process::Command::new("python3")
            .args([
                "-c",
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('select * from t').fetchall(); \
                 print('open', flush=True); sys.stdin.read()",
            ])
            .arg(&path)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(other.stdout.as_mut().unwrap()), &mut line).unwrap();
        assert_eq!(line.trim(), "open");
        assert_eq!(other_process_using(&path).unwrap(), Some(other.id() as i32));
        assert!(own_lock_kept());
        drop(other.stdin.take());
        other.wait().unwrap();
        assert_eq!(other_process_using(&path).unwrap(), None);
    }
}
