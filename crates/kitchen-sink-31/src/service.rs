//! The 3.1 kitchen sink's handlers: shapes, points and notes kept in
//! memory, blobs made from their id, the shapes streamed ([`crate::feeds`]),
//! each new shape sent to the webhook's receiver and the subscribers
//! ([`crate::notify`]). Written once by `cargo xtask new`
//! (every handler answered 501 until written), then by hand; after a spec
//! change, `cargo xtask generate` and the compiler names every handler the
//! change broke.
//!
//! Nothing here checks what the spec states (a tuple's items, a label's
//! pattern, an alert's level): the generated layer validates every request
//! against the 3.1 schemas as written before a handler runs.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine;

use crate::api::*;
use crate::feeds::{Asked, Gauges, shape_events, shape_lines};
use crate::notify::Notifier;
use crate::runtime::{AuthError, Authenticator, Credential, EventStream, Json, JsonLines, Problem};

/// The service: its one bearer key, what it holds, and what its streams
/// have done.
pub struct Service {
    key: String,
    shapes: Mutex<Vec<types::Shape>>,
    points: Mutex<BTreeMap<String, types::Point>>,
    notes: Mutex<Vec<types::Note>>,
    pub gauges: Arc<Gauges>,
    pub notifier: Arc<Notifier>,
    /// Requests in flight, the drain, CORS (`runtime::serving`).
    serving: crate::runtime::serving::Serving,
}

impl Service {
    /// A service that accepts `key` as its bearer token.
    pub fn new(key: String) -> Self {
        Service {
            key,
            shapes: Mutex::new(Vec::new()),
            points: Mutex::new(BTreeMap::new()),
            notes: Mutex::new(Vec::new()),
            gauges: Arc::default(),
            notifier: Arc::default(),
            serving: Default::default(),
        }
    }

    /// The service, sending the `shapeAdded` webhook to `url`.
    pub fn with_webhook_url(mut self, url: Option<String>) -> Self {
        self.notifier = Arc::new(Notifier::new(url));
        self
    }

    fn shapes(&self) -> Vec<types::Shape> {
        self.shapes.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The notes left, oldest first.
    pub fn notes(&self) -> Vec<types::Note> {
        self.notes.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl Authenticator for Service {
    type Principal = ();
    async fn authenticate(&self, credential: Credential<'_>) -> Result<(), AuthError> {
        match credential {
            Credential::Bearer { token, .. } if token.secret() == self.key => Ok(()),
            _ => Err(AuthError::InvalidKey),
        }
    }
}

impl crate::runtime::serving::Served for Service {
    fn serving(&self) -> Option<&crate::runtime::serving::Serving> {
        Some(&self.serving)
    }
}

/// The page size when a caller names none.
const DEFAULT_LIMIT: u64 = 20;

impl KitchenSink31Handlers for Service {
    async fn get_shapes(&self, _caller: &(), params: GetShapesParams) -> GetShapesResponse {
        let limit = params.limit.map_or(DEFAULT_LIMIT, |l| l.get()) as usize;
        let shapes = self.shapes.lock().unwrap_or_else(|e| e.into_inner());
        let items: Vec<types::Shape> = shapes.iter().take(limit).cloned().collect();
        let next = shapes.get(limit).map(|shape| shape.id.get() as i64);
        GetShapesResponse::Ok(Json::from(types::ShapePage { items, next }))
    }

    async fn post_shapes(&self, _caller: &(), body: types::NewShape) -> PostShapesResponse {
        let mut shapes = self.shapes.lock().unwrap_or_else(|e| e.into_inner());
        let id = std::num::NonZeroU64::new(shapes.len() as u64 + 1).expect("one more than a length");
        let shape = types::Shape {
            id,
            shape: body,
            // Required, and null until someone writes one.
            note: None,
            owner: None,
        };
        shapes.push(shape.clone());
        self.notifier.shape_added(&shape);
        PostShapesResponse::Created(Json::from(shape))
    }

    async fn subscribe(&self, _caller: &(), body: types::SubscribeRequestBody) -> SubscribeResponse {
        match self.notifier.subscribe(&body) {
            Ok(id) => SubscribeResponse::Created(Json::from(types::SubscribeResponseBody { id })),
            Err(reason) => SubscribeResponse::BadRequest(Problem::new("bad_callback_url", reason)),
        }
    }

    async fn get_shapes_by_id(&self, _caller: &(), id: std::num::NonZeroU64) -> GetShapesByIdResponse {
        let shapes = self.shapes.lock().unwrap_or_else(|e| e.into_inner());
        match shapes.iter().find(|shape| shape.id == id) {
            Some(shape) => GetShapesByIdResponse::Ok(Json::from(shape.clone())),
            None => GetShapesByIdResponse::NotFound(types::GetShapesById404ErrorBody {
                missing: id.get() as i64,
                known: shapes.iter().map(|shape| shape.id.get() as i64).collect(),
            }),
        }
    }

    async fn get_shapes_events(&self, _caller: &(), params: GetShapesEventsParams) -> GetShapesEventsResponse {
        let shapes = self.shapes();
        let asked = Asked {
            count: params.count.map_or(shapes.len() as u64, |c| c.get()),
            follow: params
                .follow
                .unwrap_or(false)
                .then(|| Duration::from_millis(params.interval_ms.unwrap_or(100) as u64)),
            // The pattern allows digits only.
            after: params.last_event_id.and_then(|id| id.parse().ok()),
        };
        GetShapesEventsResponse::Ok(EventStream::new(shape_events(shapes, asked, &self.gauges)))
    }

    async fn get_shapes_lines(&self, _caller: &()) -> GetShapesLinesResponse {
        GetShapesLinesResponse::Ok(JsonLines::new(shape_lines(self.shapes(), &self.gauges)))
    }

    async fn put_points_by_name(
        &self,
        _caller: &(),
        name: types::PutPointsByNameName,
        body: types::Point,
    ) -> PutPointsByNameResponse {
        let mut points = self.points.lock().unwrap_or_else(|e| e.into_inner());
        points.insert(name.to_string(), body.clone());
        PutPointsByNameResponse::Ok(Json::from(body))
    }

    async fn post_notes(&self, _caller: &(), body: types::Note) -> PostNotesResponse {
        self.notes.lock().unwrap_or_else(|e| e.into_inner()).push(body);
        PostNotesResponse::NoContent
    }

    async fn get_blobs_by_id(&self, _caller: &(), id: types::GetBlobsByIdId) -> GetBlobsByIdResponse {
        let data = base64::engine::general_purpose::STANDARD.encode(format!("blob {}", *id));
        GetBlobsByIdResponse::Ok(Json::from(types::Blob {
            id: id.to_string(),
            data,
        }))
    }
}
