//! Telling others of a new shape: the `shapeAdded` webhook to the
//! service's own receiver (`--webhook-url`), and the `shapeAdded`
//! callback to every subscriber (`POST /subscriptions`), each through the
//! generated sender, so that what leaves is what the spec says. Sent
//! after the answer, on a task of its own: a slow or absent receiver
//! delays no request. At most [`IN_FLIGHT`] deliveries are under way at
//! once: past that one is dropped, not queued without bound. Each
//! delivery's outcome is counted.

use std::num::NonZeroU64;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::api::{types, webhooks};
use crate::runtime::webhooks::{CallbackSource, SendError, callback_url};

/// How many subscriptions are kept: past it the oldest goes, so that
/// callers cannot grow the service without bound.
const MAX_SUBSCRIPTIONS: usize = 64;

/// How many deliveries may be under way at once.
pub const IN_FLIGHT: usize = 32;

/// The webhook's receiver, the subscribers, and what was delivered.
pub struct Notifier {
    sender: webhooks::Sender,
    in_flight: Arc<Semaphore>,
    webhook_url: Option<String>,
    /// Each subscription's id and the URL its callback goes to.
    subscriptions: Mutex<Vec<(NonZeroU64, String)>>,
    next_id: AtomicU64,
    /// Webhooks and callbacks the receiver accepted (a 2xx).
    pub delivered: AtomicU64,
    /// Those that were not sent or not accepted (dropped ones included).
    pub failed: AtomicU64,
}

impl Default for Notifier {
    fn default() -> Self {
        Notifier {
            sender: webhooks::Sender::default(),
            in_flight: Arc::new(Semaphore::new(IN_FLIGHT)),
            webhook_url: None,
            subscriptions: Mutex::default(),
            next_id: AtomicU64::default(),
            delivered: AtomicU64::default(),
            failed: AtomicU64::default(),
        }
    }
}

impl Notifier {
    /// A notifier that sends `shapeAdded` to `webhook_url`, if given.
    pub fn new(webhook_url: Option<String>) -> Self {
        Notifier {
            webhook_url,
            ..Notifier::default()
        }
    }

    /// Subscribes the URL `request` names (the callback's expression
    /// over it); gives the subscription's id.
    pub fn subscribe(&self, request: &types::SubscribeRequestBody) -> Result<NonZeroU64, String> {
        let body = serde_json::to_value(request).map_err(|e| e.to_string())?;
        let source = CallbackSource {
            body: Some(&body),
            ..CallbackSource::default()
        };
        let url = callback_url(webhooks::SUBSCRIBE_SHAPE_ADDED_URL, &source)?;
        let id = NonZeroU64::new(self.next_id.fetch_add(1, Ordering::Relaxed) + 1).expect("one more than a count");
        let mut subscriptions = self.subscriptions.lock().unwrap_or_else(|e| e.into_inner());
        if subscriptions.len() == MAX_SUBSCRIPTIONS {
            subscriptions.remove(0);
        }
        subscriptions.push((id, url));
        Ok(id)
    }

    /// Sends `shape` to the receiver and every subscriber, on tasks of
    /// their own. A subscriber that answers 410 is unsubscribed, as the
    /// spec documents.
    pub fn shape_added(self: &Arc<Self>, shape: &types::Shape) {
        if let Some(url) = self.webhook_url.clone()
            && let Some(permit) = self.permit()
        {
            let (notifier, shape) = (self.clone(), shape.clone());
            tokio::spawn(async move {
                let outcome = notifier.sender.shape_added(&url, &shape).await;
                notifier.count(&outcome);
                drop(permit);
            });
        }
        let subscriptions = self.subscriptions.lock().unwrap_or_else(|e| e.into_inner()).clone();
        for (id, url) in subscriptions {
            let Some(permit) = self.permit() else { continue };
            let notifier = self.clone();
            let body = webhooks::types::SubscribeShapeAddedRequestBody {
                subscription: id,
                shape: shape.clone(),
            };
            tokio::spawn(async move {
                let outcome = notifier.sender.subscribe_shape_added(&url, &body).await;
                if let Err(SendError::Status { status: 410, .. }) = outcome {
                    let mut subscriptions = notifier.subscriptions.lock().unwrap_or_else(|e| e.into_inner());
                    subscriptions.retain(|(kept, _)| *kept != id);
                }
                notifier.count(&outcome);
                drop(permit);
            });
        }
    }

    /// A place among the deliveries under way; `None` (counted as a
    /// failure) when all are taken.
    fn permit(&self) -> Option<OwnedSemaphorePermit> {
        let permit = self.in_flight.clone().try_acquire_owned().ok();
        if permit.is_none() {
            self.failed.fetch_add(1, Ordering::Relaxed);
        }
        permit
    }

    fn count<T>(&self, outcome: &Result<T, SendError>) {
        let counter = match outcome {
            Ok(_) => &self.delivered,
            Err(_) => &self.failed,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }
}
