//! A PostgreSQL database of the bench's own, where a server is named (the
//! tests' `PETSTORE_TEST_POSTGRES_URL`, which `.ci/run` sets): created for
//! the run with `psql`, dropped when done.

use std::process::Command;

/// The variable the tests read too.
const SERVER_URL: &str = "PETSTORE_TEST_POSTGRES_URL";

pub(super) struct PostgresDatabase {
    /// The server's URL as named, to drop the database through.
    admin: String,
    name: String,
    /// The database's own URL.
    pub url: String,
}

impl PostgresDatabase {
    /// A new empty database; why not, when no server is named or `psql`
    /// cannot make one.
    pub(super) fn create() -> Result<PostgresDatabase, String> {
        let admin = std::env::var(SERVER_URL).map_err(|_| format!("{SERVER_URL} is not set"))?;
        let name = format!("petstore_bench_{}", std::process::id());
        let url = with_database(&admin, &name)?;
        psql(&admin, &format!("DROP DATABASE IF EXISTS {name}"))?;
        psql(&admin, &format!("CREATE DATABASE {name}"))?;
        Ok(PostgresDatabase { admin, name, url })
    }
}

impl Drop for PostgresDatabase {
    fn drop(&mut self) {
        if let Err(e) = psql(
            &self.admin,
            &format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
        ) {
            eprintln!("bench: {e}");
        }
    }
}

fn psql(url: &str, sql: &str) -> Result<(), String> {
    let output = Command::new("psql")
        .args(["-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", sql])
        .output()
        .map_err(|e| format!("psql: {e}"))?;
    match output.status.success() {
        true => Ok(()),
        false => Err(format!(
            "psql {sql}: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )),
    }
}

/// `url` naming the database `name` instead of its own.
fn with_database(url: &str, name: &str) -> Result<String, String> {
    let (address, query) = url.split_once('?').map_or((url, None), |(a, q)| (a, Some(q)));
    let (server, _) = address
        .strip_prefix("postgres://")
        .or_else(|| address.strip_prefix("postgresql://"))
        .and_then(|rest| rest.rsplit_once('/'))
        .ok_or_else(|| format!("{SERVER_URL} is not a postgres:// URL naming a database: {url}"))?;
    let scheme = &address[..address.find("://").expect("checked") + 3];
    Ok(match query {
        Some(query) => format!("{scheme}{server}/{name}?{query}"),
        None => format!("{scheme}{server}/{name}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_database_is_swapped_in_the_url() {
        assert_eq!(
            with_database("postgres://postgres@127.0.0.1:5432/postgres", "b").unwrap(),
            "postgres://postgres@127.0.0.1:5432/b"
        );
        assert_eq!(
            with_database("postgresql://u:p@h/db?sslmode=disable", "b").unwrap(),
            "postgresql://u:p@h/b?sslmode=disable"
        );
        assert!(with_database("mysql://h/db", "b").is_err());
    }
}
