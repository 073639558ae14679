//! `serve`: the Pet Store served as every generated service is
//! (`runtime::serving::Running`: probes, metrics, the reaper, a drain and
//! a bounded shutdown), over its database.

use petstore_api::runtime::serving::{Running, ServeOptions};

use super::arguments::Database;
use super::database::{open, redact};
use crate::service::Service;
use crate::storage::{Storage, StorageError};
use crate::{demo, keys, server};

/// `serve`'s own options, beside the ones every service takes.
pub(super) struct PetStoreOptions {
    pub(super) demo: bool,
    pub(super) create_database: bool,
}

pub(super) async fn serve(db: &Database, own: &PetStoreOptions, options: &ServeOptions) -> anyhow::Result<()> {
    // Held to the end: dropped, it writes what the log has buffered.
    let service_log = options.logger().map_err(anyhow::Error::msg)?;
    let log = service_log.logger.clone();
    let storage = open(db, own.demo || own.create_database, &log).await?;
    if own.demo && storage.is_empty().await? {
        storage
            .import(&demo::data())
            .await
            .map_err(|e: StorageError| anyhow::anyhow!("seeding demo data: {e}"))?;
    }
    crate::metrics::register(storage.backend(), storage.pool_handle());
    let demo_key = match own.demo {
        true => Some(keys::issue(&storage, "demo").await?.1),
        false => None,
    };
    let service = Service::new(storage.clone(), log.new(slog::o!("component" => "service")));
    let running = Running::start(
        options,
        service,
        server::endpoints()?,
        server::settings()?,
        &service_log,
    )
    .map_err(anyhow::Error::msg)?;
    let base = format!("http://{}{}", running.local_addr(), petstore_api::BASE_PATH);
    slog::info!(log, "serving"; "base_url" => &base);
    let v2_base = format!("http://{}{}", running.local_addr(), petstore_api::v2::BASE_PATH);
    // The first line of stdout says where to reach the service (port 0
    // picks a free port, so scripts and tests read it from here); the
    // second, version 2. Whoever reads them may close the pipe after the
    // first line: the lines go in one write, and a closed stdout does not
    // stop the service.
    let mut announcement = format!("Serving {base}\nServing {v2_base}\n");
    if let Some(metrics) = running.metrics_addr() {
        announcement.push_str(&format!("Metrics at http://{metrics}/metrics\n"));
    }
    if let Some(key) = demo_key {
        announcement.push_str(&format!(
            "Demo data is in {}. A new API key (shown once; `keys revoke` ends it):\n\n  {key}\n\n",
            redact(&db.database)
        ));
        announcement.push_str(&format!(
            "Try:\n\n  curl -H 'Authorization: Bearer {key}' {base}/store/orders\n\n"
        ));
        announcement.push_str(&format!(
            "  curl -X DELETE -H 'Authorization: Bearer {key}' {base}/store/orders/1\n\n"
        ));
        announcement.push_str(&format!(
            "  curl -H 'Authorization: Bearer {key}' '{v2_base}/store/orders?limit=2&status=pending'\n\n"
        ));
    }
    {
        use std::io::Write as _;
        let mut stdout = std::io::stdout().lock();
        let _ = stdout.write_all(announcement.as_bytes()).and_then(|()| stdout.flush());
    }
    let deadline = running.until_stopped().await.map_err(anyhow::Error::msg)?;
    // Closing the database waits for connections still in use (a request
    // past the deadline, blocked on a lock): bounded by the same deadline,
    // with a moment for the WAL's checkpoint however late it is.
    if tokio::time::timeout_at(deadline, storage.close()).await.is_err() {
        slog::warn!(
            log,
            "the database did not close before the deadline; its data is committed already"
        );
    }
    slog::info!(log, "stopped");
    Ok(())
}
