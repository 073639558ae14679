//! `petstore-server backup FILE`: a consistent copy of the database while
//! the service runs.
//!
//! SQLite: `VACUUM INTO` copies the database as one read transaction sees
//! it. In WAL mode a reader never blocks a writer, so cancels go on while
//! the copy is made; the copy's own waits are bounded by the wait limit.
//! The copy is written under a temporary name beside `FILE`, checked
//! (`PRAGMA integrity_check`), fsync'd, and only then renamed to `FILE`
//! (and the directory fsync'd): `FILE` is never a partial copy, and a
//! failed backup leaves nothing behind. The copy is a single file in
//! rollback-journal mode, with no `-wal` to carry along.
//!
//! PostgreSQL: its own `pg_dump` (custom format) where it is installed,
//! with the same temporary name and rename; otherwise an error that says
//! how to take one.

use std::fs::File;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use super::backend::Backend;
use super::{Result, StorageError};

/// What a backup wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupReport {
    pub path: PathBuf,
    pub bytes: u64,
    /// SQLite: the orders in the copy; PostgreSQL's dump is not read back.
    pub orders: Option<i64>,
}

/// Copies `database` (a SQLite path or `sqlite:` URL, or a PostgreSQL URL)
/// to `target`, replacing `target` at once if it exists.
pub async fn backup(database: &str, target: &Path, wait: Duration) -> Result<BackupReport> {
    let backend = Backend::of(database);
    let (database, target) = (database.to_string(), target.to_path_buf());
    tokio::task::spawn_blocking(move || match backend {
        Backend::Sqlite => sqlite(&database, &target, wait),
        Backend::Postgres => postgres(&database, &target),
    })
    .await
    .map_err(|e| StorageError::Internal(format!("the backup stopped: {e}")))?
}

fn sqlite(database: &str, target: &Path, wait: Duration) -> Result<BackupReport> {
    let source = Backend::sqlite_options(database)?.get_filename().to_path_buf();
    if !source.exists() {
        return Err(StorageError::Missing(format!(
            "the SQLite database {} does not exist",
            source.display()
        )));
    }
    refuse_own_files(&source, target)?;
    let mut orders = None;
    let bytes = write_atomically(target, |partial| {
        let failed = |what: &str, e: &dyn std::fmt::Display| {
            StorageError::Unavailable(format!("cannot {what} {}: {e}", source.display()))
        };
        // Without SQLITE_OPEN_CREATE: never a new empty database.
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let connection = Connection::open_with_flags(&source, flags).map_err(|e| failed("open", &e))?;
        connection.busy_timeout(wait).map_err(|e| failed("open", &e))?;
        let into = partial
            .to_str()
            .ok_or_else(|| StorageError::Invalid(format!("the backup path {} is not valid UTF-8", target.display())))?;
        connection
            .execute("VACUUM INTO ?1", [into])
            .map_err(|e| failed("copy", &e))?;
        drop(connection);
        orders = Some(check_copy(partial)?);
        Ok(())
    })?;
    Ok(BackupReport {
        path: target.to_path_buf(),
        bytes,
        orders,
    })
}

/// The copy's orders, once `PRAGMA integrity_check` says it is sound.
fn check_copy(copy: &Path) -> Result<i64> {
    let failed = |e: &dyn std::fmt::Display| StorageError::Internal(format!("the copy is not sound: {e}"));
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let connection = Connection::open_with_flags(copy, flags).map_err(|e| failed(&e))?;
    let verdict: String = connection
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .map_err(|e| failed(&e))?;
    if verdict != "ok" {
        return Err(failed(&verdict));
    }
    connection
        .query_row("SELECT count(*) FROM orders", [], |row| row.get(0))
        .map_err(|e| failed(&e))
}

/// A backup over the database itself, or over one of its companions,
/// would destroy what it copies.
fn refuse_own_files(source: &Path, target: &Path) -> Result<()> {
    let resolved = |path: &Path| {
        let parent = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = path.file_name().unwrap_or_default();
        std::fs::canonicalize(parent).map(|parent| parent.join(name))
    };
    let target = resolved(target)
        .map_err(|e| StorageError::Invalid(format!("cannot write the backup to {}: {e}", target.display())))?;
    let source = std::fs::canonicalize(source)
        .map_err(|e| StorageError::Unavailable(format!("cannot resolve {}: {e}", source.display())))?;
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let mut own = source.clone().into_os_string();
        own.push(suffix);
        if target == Path::new(&own) {
            return Err(StorageError::Invalid(format!(
                "the backup would overwrite {}: name a file apart from the database",
                target.display()
            )));
        }
    }
    Ok(())
}

fn postgres(database: &str, target: &Path) -> Result<BackupReport> {
    let mut url =
        url::Url::parse(database).map_err(|e| StorageError::Invalid(format!("invalid PostgreSQL URL: {e}")))?;
    // The password goes to pg_dump in its environment, never on its
    // command line, where any user's `ps` would show it.
    let password = url
        .password()
        .map(|p| percent_encoding::percent_decode_str(p).decode_utf8_lossy().into_owned());
    let _ = url.set_password(None);
    // libpq reads the URL too, and refuses sqlx's own parameters; those it
    // knows under another name are renamed.
    let parameters: Vec<(String, String)> = url
        .query_pairs()
        .filter_map(|(name, value)| {
            let name = match name.as_ref() {
                "ssl-mode" => "sslmode",
                "ssl-root-cert" => "sslrootcert",
                "ssl-client-cert" => "sslcert",
                "ssl-client-key" => "sslkey",
                name if name.contains('-') => return None,
                name => name,
            };
            Some((name.to_string(), value.into_owned()))
        })
        .collect();
    url.set_query(None);
    if !parameters.is_empty() {
        url.query_pairs_mut().extend_pairs(parameters);
    }
    let bytes = write_atomically(target, |partial| {
        let mut command = Command::new("pg_dump");
        command
            .args(["--format=custom", "--no-password", "--file"])
            .arg(partial)
            .arg("--dbname")
            .arg(url.as_str());
        if let Some(password) = &password {
            command.env("PGPASSWORD", password);
        }
        let output = command.output().map_err(|e| match e.kind() {
            ErrorKind::NotFound => StorageError::Unavailable(
                "pg_dump is not installed: install PostgreSQL's client tools (Debian: postgresql-client), \
                 or back up with `pg_dump --format=custom --file FILE DATABASE_URL` yourself"
                    .into(),
            ),
            _ => StorageError::Unavailable(format!("cannot run pg_dump: {e}")),
        })?;
        match output.status.success() {
            true => Ok(()),
            false => Err(StorageError::Unavailable(format!(
                "pg_dump failed ({}): {}",
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            ))),
        }
    })?;
    Ok(BackupReport {
        path: target.to_path_buf(),
        bytes,
        orders: None,
    })
}

/// Has `write` fill a temporary file beside `target`, fsyncs it, renames it
/// to `target` and fsyncs the directory; gives its size. On any failure the
/// temporary file is removed and `target` is as it was.
fn write_atomically(target: &Path, write: impl FnOnce(&Path) -> Result<()>) -> Result<u64> {
    let name = target
        .file_name()
        .ok_or_else(|| StorageError::Invalid(format!("{} is not a file name", target.display())))?;
    let directory = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut partial_name = std::ffi::OsString::from(".");
    partial_name.push(name);
    partial_name.push(format!(".partial-{}", std::process::id()));
    let partial = directory.join(partial_name);
    let io = |what: &str, path: &Path, e: std::io::Error| {
        StorageError::Unavailable(format!("cannot {what} {}: {e}", path.display()))
    };
    // A partial copy left by a process that died mid-backup with this id.
    let _ = std::fs::remove_file(&partial);
    let written = write(&partial).and_then(|()| {
        let file = File::open(&partial).map_err(|e| io("open", &partial, e))?;
        file.sync_all().map_err(|e| io("fsync", &partial, e))?;
        let bytes = file.metadata().map_err(|e| io("read", &partial, e))?.len();
        std::fs::rename(&partial, target).map_err(|e| io("rename the copy to", target, e))?;
        File::open(directory)
            .and_then(|d| d.sync_all())
            .map_err(|e| io("fsync", directory, e))?;
        Ok(bytes)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written
}
