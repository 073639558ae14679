//! A small in-memory implementation of the kitchen sink's handlers: enough
//! behind each operation that every construct of the spec round-trips
//! (what is created can be read, changed, paged through, paid, shipped,
//! exported), and no more. Not durable, not for production.

use std::collections::{BTreeMap, HashMap};
use std::num::NonZeroU64;
use std::sync::{Mutex, MutexGuard};

use chrono::{DateTime, NaiveDate, Utc};
use serde_json::{Value, json};
use uuid::Uuid;

mod search;

use crate::api::*;
use futures_util::SinkExt;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::Role;

use crate::runtime::{AuthError, Authenticator, Bytes, Credential, Json, Multipart, Payload, Problem, Upgrade};

/// The service: its API keys and its data.
pub struct Service {
    keys: Vec<String>,
    started_at: DateTime<Utc>,
    state: Mutex<State>,
    /// Requests in flight, the drain, CORS (`runtime::serving`).
    serving: crate::runtime::serving::Serving,
}

#[derive(Default)]
struct State {
    next_id: i64,
    orders: BTreeMap<i64, Stored>,
    photos: HashMap<i64, Bytes>,
    signatures: HashMap<i64, Bytes>,
    notes: Vec<(i64, String)>,
    labels: BTreeMap<String, types::Label>,
    payments: HashMap<Uuid, (i64, types::Payment)>,
    subscribers: Vec<types::SubscribeRequestBody>,
}

struct Stored {
    order: types::Order,
    /// Bumped by every change: the ETag's version.
    version: u64,
}

impl Stored {
    fn etag(&self) -> String {
        format!("\"{}-{}\"", self.order.id, self.version)
    }
}

/// The caller, once its credentials are checked: the scheme it
/// authenticated by (of several at once, the first).
#[derive(Debug)]
pub struct Caller {
    pub scheme: &'static str,
}

impl Service {
    /// A service that accepts `keys`.
    pub fn new(keys: Vec<String>) -> Self {
        Service {
            keys,
            started_at: Utc::now(),
            state: Mutex::new(State {
                next_id: 1,
                ..State::default()
            }),
            serving: Default::default(),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A handler that panicked left the data as it was: still usable.
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The user HTTP basic takes, with an API key as the password.
pub const BASIC_USER: &str = "kitchen";

/// An OAuth2 token made of this and an API key grants `orders:read` alone.
pub const READ_ONLY_PREFIX: &str = "readonly-";

impl Authenticator for Service {
    type Principal = Caller;

    async fn authenticate(&self, credential: Credential<'_>) -> Result<Caller, AuthError> {
        let known = |key: &str| self.keys.iter().any(|k| k == key);
        let caller = Caller {
            scheme: credential.scheme(),
        };
        match &credential {
            Credential::Bearer { token, scopes, .. } => match token.secret().strip_prefix(READ_ONLY_PREFIX) {
                Some(key) if known(key) => match scopes.iter().all(|scope| *scope == "orders:read") {
                    true => Ok(caller),
                    false => Err(AuthError::InsufficientScope),
                },
                _ if known(token.secret()) => Ok(caller),
                _ => Err(AuthError::InvalidKey),
            },
            Credential::Basic { user, password, .. } if user == BASIC_USER && known(password.secret()) => Ok(caller),
            Credential::ApiKey { key, .. } if known(key.secret()) => Ok(caller),
            _ => Err(AuthError::InvalidKey),
        }
    }
}

impl crate::runtime::serving::Served for Service {
    fn serving(&self) -> Option<&crate::runtime::serving::Serving> {
        Some(&self.serving)
    }
}

fn not_found(what: &str, id: impl std::fmt::Display) -> Problem {
    Problem::new("not_found", format!("{what} {id} not found"))
}

fn internal(error: impl std::fmt::Display) -> Problem {
    Problem::new("internal_error", format!("internal error: {error}"))
}

/// What a new order costs.
pub fn price(new: &types::NewOrder, express: bool) -> f64 {
    let surcharge = if express { 5.0 } else { 0.0 };
    f64::from(new.quantity.get()) * 9.5 * (1.0 - new.discount.unwrap_or(0.0)) + surcharge
}

/// An order as stored, from a new one: the same fields, plus the store's.
fn place(new: &types::NewOrder, id: i64, express: bool) -> Result<types::Order, Problem> {
    let mut value = serde_json::to_value(new).map_err(internal)?;
    value["id"] = json!(id);
    value["status"] = json!("pending");
    value["createdAt"] = json!(Utc::now());
    value["total"] = json!(price(new, express));
    serde_json::from_value(value).map_err(internal)
}

fn id_of(order_id: NonZeroU64) -> i64 {
    i64::try_from(order_id.get()).unwrap_or(i64::MAX)
}

impl KitchenSinkHandlers for Service {
    async fn search_orders(&self, _: &Caller, params: SearchOrdersParams) -> SearchOrdersResponse {
        let state = self.state();
        let (page, headers) = search::page(state.orders.values().map(|s| &s.order), &params);
        SearchOrdersResponse::Ok(Json::from(page), headers)
    }

    async fn create_order(&self, _: &Caller, params: CreateOrderParams, body: types::NewOrder) -> CreateOrderResponse {
        let mut state = self.state();
        let id = state.next_id;
        let order = match place(&body, id, params.x_express) {
            Ok(order) => order,
            Err(problem) => return CreateOrderResponse::InternalServerError(problem),
        };
        let stored = Stored { order, version: 1 };
        let headers = CreateOrderCreatedHeaders {
            location: format!("{BASE_PATH}/orders/{id}"),
            e_tag: stored.etag(),
        };
        let order = stored.order.clone();
        state.next_id += 1;
        state.orders.insert(id, stored);
        CreateOrderResponse::Created(Json::from(order), headers)
    }

    async fn estimate_order(&self, body: types::EstimateRequest) -> EstimateOrderResponse {
        let wrapping = if body.gift_wrap == Some(true) { 2.0 } else { 0.0 };
        EstimateOrderResponse::Ok(Json::from(types::Estimate {
            total: f64::from(body.quantity.get()) * 9.5 + wrapping,
        }))
    }

    async fn classify_pet(&self, body: types::Pet) -> ClassifyPetResponse {
        // The variant is the member the discriminator named.
        let (kind, name) = match body {
            types::Pet::Cat { name, .. } => (types::ClassifyPetResponseBodyKind::Cat, name.to_string()),
            types::Pet::Dog { name, .. } => (types::ClassifyPetResponseBodyKind::Dog, name.to_string()),
        };
        ClassifyPetResponse::Ok(Json::from(types::ClassifyPetResponseBody { kind, name }))
    }

    async fn get_category_tree(&self) -> GetCategoryTreeResponse {
        let leaf = |name: &str| types::Category {
            name: name.to_string(),
            children: Vec::new(),
            parent: None,
            option: None,
            result: None,
        };
        // A child that names its parent: the recursion both ways.
        let mut puppies = leaf("puppies");
        puppies.parent = Some(Box::new(leaf("dogs")));
        puppies.result = Some(types::Result::Kept);
        let mut dogs = leaf("dogs");
        dogs.children.push(puppies);
        dogs.option = Some(types::Option {
            label: Some("loyal".into()),
        });
        let mut root = leaf("pets");
        root.children = vec![dogs, leaf("cats")];
        GetCategoryTreeResponse::Ok(Json::from(root))
    }

    async fn who_am_i(&self, caller: Option<&Caller>) -> WhoAmIResponse {
        let scheme = caller.map_or("anonymous", |c| c.scheme);
        WhoAmIResponse::Ok(Json::from(types::WhoAmIResponseBody {
            scheme: scheme.to_string(),
        }))
    }

    async fn refund_order(&self, _: &Caller, order_id: NonZeroU64) -> RefundOrderResponse {
        match self.state().orders.contains_key(&id_of(order_id)) {
            true => RefundOrderResponse::NoContent,
            false => RefundOrderResponse::NotFound(not_found("order", order_id)),
        }
    }

    async fn quote_order(&self, body: types::NewOrder) -> QuoteOrderResponse {
        QuoteOrderResponse::Ok(Json::from(types::QuoteOrderResponseBody {
            total: price(&body, false),
        }))
    }

    async fn get_order(&self, _: &Caller, order_id: NonZeroU64) -> GetOrderResponse {
        match self.state().orders.get(&id_of(order_id)) {
            Some(stored) => GetOrderResponse::Ok(
                Json::from(stored.order.clone()),
                GetOrderOkHeaders { e_tag: stored.etag() },
            ),
            None => GetOrderResponse::NotFound(not_found("order", order_id)),
        }
    }

    async fn download_order(&self, _: &Caller, order_id: NonZeroU64) -> DownloadOrderResponse {
        match self.state().orders.get(&id_of(order_id)) {
            Some(stored) => DownloadOrderResponse::Ok(Json::from(stored.order.clone())),
            None => DownloadOrderResponse::NotFound(not_found("order", order_id)),
        }
    }

    async fn head_order(&self, _: &Caller, order_id: NonZeroU64) -> HeadOrderResponse {
        match self.state().orders.get(&id_of(order_id)) {
            Some(stored) => HeadOrderResponse::Ok(HeadOrderOkHeaders { e_tag: stored.etag() }),
            None => HeadOrderResponse::NotFound(not_found("order", order_id)),
        }
    }

    async fn order_options(&self) -> OrderOptionsResponse {
        OrderOptionsResponse::NoContent(OrderOptionsNoContentHeaders {
            allow: "GET, POST, OPTIONS".into(),
        })
    }

    async fn trace_status(&self) -> TraceStatusResponse {
        // Handlers do not see the raw request: this route's request line.
        TraceStatusResponse::Ok(Bytes::from_static(b"TRACE /v1/status HTTP/1.1\r\n"))
    }

    async fn delete_order(&self, _: &Caller, order_id: NonZeroU64) -> DeleteOrderResponse {
        match self.state().orders.remove(&id_of(order_id)) {
            Some(_) => DeleteOrderResponse::NoContent,
            None => DeleteOrderResponse::NotFound(not_found("order", order_id)),
        }
    }

    async fn update_order(
        &self,
        _: &Caller,
        order_id: NonZeroU64,
        params: UpdateOrderParams,
        body: types::OrderPatch,
    ) -> UpdateOrderResponse {
        let mut state = self.state();
        let Some(stored) = state.orders.get_mut(&id_of(order_id)) else {
            return UpdateOrderResponse::NotFound(not_found("order", order_id));
        };
        if params.if_match.as_str() != "*" && *params.if_match != stored.etag() {
            return UpdateOrderResponse::PreconditionFailed(Problem::new(
                "precondition_failed",
                format!(
                    "order {order_id} is at {}, not {}",
                    stored.etag(),
                    params.if_match.as_str()
                ),
            ));
        }
        let mut value = match serde_json::to_value(&stored.order) {
            Ok(value) => value,
            Err(e) => return UpdateOrderResponse::InternalServerError(internal(e)),
        };
        let patch = serde_json::to_value(&body).unwrap_or(Value::Null);
        for (field, new) in patch.as_object().into_iter().flatten() {
            value[field.as_str()] = new.clone();
        }
        match serde_json::from_value(value) {
            Ok(order) => {
                stored.order = order;
                stored.version += 1;
                UpdateOrderResponse::Ok(
                    Json::from(stored.order.clone()),
                    UpdateOrderOkHeaders { e_tag: stored.etag() },
                )
            }
            Err(e) => UpdateOrderResponse::InternalServerError(internal(e)),
        }
    }

    async fn pay_order(&self, _: &Caller, order_id: NonZeroU64, body: types::Payment) -> PayOrderResponse {
        let mut state = self.state();
        let id = id_of(order_id);
        if !state.orders.contains_key(&id) {
            return PayOrderResponse::NotFound(not_found("order", order_id));
        }
        if state.payments.values().any(|(paid, _)| *paid == id) {
            return PayOrderResponse::Conflict(Problem::new("conflict", format!("order {order_id} is paid already")));
        }
        let payment_id = Uuid::new_v4();
        let fee = matches!(body, types::Payment::CardPayment(_)).then_some(0.3);
        state.payments.insert(payment_id, (id, body));
        PayOrderResponse::Accepted(Json::from(types::PayOrderResponseBody {
            payment_id,
            status: types::PayOrderResponseBodyStatus::Accepted,
            fee,
        }))
    }

    async fn ship_order(
        &self,
        _: &Caller,
        order_id: NonZeroU64,
        _how: Option<types::ShipOrderRequestBody>,
    ) -> ShipOrderResponse {
        let mut state = self.state();
        let Some(stored) = state.orders.get_mut(&id_of(order_id)) else {
            return ShipOrderResponse::NotFound(not_found("order", order_id));
        };
        if stored.order.status != types::OrderStatus::Pending {
            return ShipOrderResponse::Conflict(Problem::new("conflict", format!("order {order_id} is not pending")));
        }
        stored.order.status = types::OrderStatus::Shipped;
        stored.version += 1;
        ShipOrderResponse::NoContent
    }

    async fn get_photo(&self, _: &Caller, order_id: NonZeroU64) -> GetPhotoResponse {
        let state = self.state();
        let id = id_of(order_id);
        match (state.orders.contains_key(&id), state.photos.get(&id)) {
            (false, _) => GetPhotoResponse::NotFound(not_found("order", order_id)),
            (true, Some(photo)) => GetPhotoResponse::Ok(photo.clone()),
            // An order has a photo from the start: an empty one.
            (true, None) => GetPhotoResponse::Ok(Bytes::new()),
        }
    }

    async fn get_label(&self, _: &Caller, order_id: NonZeroU64) -> GetLabelResponse {
        let state = self.state();
        let Some(stored) = state.orders.get(&id_of(order_id)) else {
            return GetLabelResponse::NotFound(not_found("order", order_id));
        };
        // The spec says `image/*`: the service chooses SVG, which it can
        // write without an image library.
        let svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"40\"><text x=\"8\" y=\"26\">Order {}</text></svg>",
            stored.order.id
        );
        GetLabelResponse::Ok(Payload::new("image/svg+xml", svg))
    }

    async fn watch_order(&self, _: &Caller, order_id: NonZeroU64, upgrade: Upgrade) -> WatchOrderResponse {
        let order = match self.state().orders.get(&id_of(order_id)) {
            Some(stored) => stored.order.clone(),
            None => return WatchOrderResponse::NotFound(not_found("order", order_id)),
        };
        let text = match serde_json::to_string(&order) {
            Ok(text) => text,
            Err(e) => return WatchOrderResponse::InternalServerError(internal(e)),
        };
        WatchOrderResponse::SwitchingProtocols(upgrade.accept(move |connection| async move {
            let mut socket = WebSocketStream::from_raw_socket(connection.into_inner(), Role::Server, None).await;
            socket.send(Message::text(text)).await?;
            socket.close(None).await?;
            Ok(())
        }))
    }

    async fn get_order_summary(&self, _: &Caller) -> GetOrderSummaryResponse {
        let state = self.state();
        let pending = state
            .orders
            .values()
            .filter(|stored| stored.order.status == types::OrderStatus::Pending)
            .count();
        GetOrderSummaryResponse::Ok(Json::from(types::GetOrderSummaryResponseBody {
            count: state.orders.len() as i64,
            pending: pending as i64,
        }))
    }

    async fn get_order_status(&self, _: &Caller, id: NonZeroU64) -> GetOrderStatusResponse {
        match self.state().orders.get(&id_of(id)) {
            Some(stored) => GetOrderStatusResponse::Ok(Json::from(types::GetOrderStatusResponseBody {
                status: stored.order.status,
            })),
            None => GetOrderStatusResponse::NotFound(not_found("order", id)),
        }
    }

    async fn get_receipt(&self, _: &Caller, order_id: NonZeroU64) -> GetReceiptResponse {
        let state = self.state();
        let Some(stored) = state.orders.get(&id_of(order_id)) else {
            return GetReceiptResponse::NotFound(not_found("order", order_id));
        };
        match stored.order.status {
            types::OrderStatus::Pending => GetReceiptResponse::Accepted(Json::from(types::GetReceipt202ResponseBody {
                state: types::GetReceipt202ResponseBodyState::Preparing,
            })),
            _ => GetReceiptResponse::Ok(Json::from(types::GetReceiptResponseBody {
                order_id: stored.order.id,
                total: stored.order.total.unwrap_or_default(),
            })),
        }
    }

    async fn get_latest_order(&self, _: &Caller) -> GetLatestOrderResponse {
        let state = self.state();
        match state.orders.keys().next_back() {
            Some(id) => GetLatestOrderResponse::SeeOther(GetLatestOrderSeeOtherHeaders {
                location: format!("{BASE_PATH}/orders/{id}"),
            }),
            None => GetLatestOrderResponse::NotFound(Problem::new("not_found", "there are no orders yet")),
        }
    }

    async fn upload_photo(&self, _: &Caller, order_id: NonZeroU64, body: Bytes) -> UploadPhotoResponse {
        let mut state = self.state();
        let id = id_of(order_id);
        if !state.orders.contains_key(&id) {
            return UploadPhotoResponse::NotFound(not_found("order", order_id));
        }
        state.photos.insert(id, body);
        UploadPhotoResponse::NoContent
    }

    async fn sign_order(&self, _: &Caller, order_id: NonZeroU64, body: Bytes) -> SignOrderResponse {
        // What every PNG file starts with (the PNG specification, 5.2).
        const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
        let mut state = self.state();
        let id = id_of(order_id);
        if !state.orders.contains_key(&id) {
            return SignOrderResponse::NotFound(not_found("order", order_id));
        }
        if !body.starts_with(PNG_SIGNATURE) {
            return SignOrderResponse::BadRequest(Problem::new("invalid_body", "the signature is not a PNG image"));
        }
        state.signatures.insert(id, body);
        SignOrderResponse::NoContent
    }

    async fn get_signature(&self, _: &Caller, order_id: NonZeroU64) -> GetSignatureResponse {
        let state = self.state();
        let id = id_of(order_id);
        match (state.orders.contains_key(&id), state.signatures.get(&id)) {
            (false, _) => GetSignatureResponse::NotFound(not_found("order", order_id)),
            (true, Some(signature)) => GetSignatureResponse::Ok(signature.clone()),
            // An order is unsigned from the start: an empty body.
            (true, None) => GetSignatureResponse::Ok(Bytes::new()),
        }
    }

    async fn upload_document(
        &self,
        _: &Caller,
        order_id: NonZeroU64,
        body: Multipart<types::UploadDocumentRequestBodyFields>,
    ) -> UploadDocumentResponse {
        if !self.state().orders.contains_key(&id_of(order_id)) {
            return UploadDocumentResponse::NotFound(not_found("order", order_id));
        }
        // The layer checked that `file` is there, once.
        let Some(file) = body.files.get("file") else {
            return UploadDocumentResponse::InternalServerError(internal("no file part"));
        };
        UploadDocumentResponse::Created(Json::from(types::UploadDocumentResponseBody {
            kind: body.fields.kind.to_string(),
            note: body.fields.note.map(|note| note.to_string()),
            pages: body.fields.pages.map(|pages| pages.get() as i32),
            file_name: file.file_name.clone().unwrap_or_default(),
            bytes: file.bytes.len() as i64,
            scans: body.files.all("scans").count() as i32,
        }))
    }

    async fn add_note(&self, _: &Caller, order_id: NonZeroU64, body: String) -> AddNoteResponse {
        let mut state = self.state();
        let id = id_of(order_id);
        if !state.orders.contains_key(&id) {
            return AddNoteResponse::NotFound(not_found("order", order_id));
        }
        state.notes.push((id, body.clone()));
        let note = types::AddNoteResponseBody {
            id: state.notes.len() as i64,
            text: body,
        };
        AddNoteResponse::Created(Json::from(note))
    }

    async fn list_order_lines(&self, _: &Caller, order_id: NonZeroU64) -> ListOrderLinesResponse {
        let state = self.state();
        let Some(stored) = state.orders.get(&id_of(order_id)) else {
            return ListOrderLinesResponse::NotFound(not_found("order", order_id));
        };
        let line = types::ListOrderLinesResponseBodyItem {
            sku: format!("pet-{}", stored.order.pet_id),
            quantity: stored.order.quantity,
            unit_price: Some(9.5),
        };
        ListOrderLinesResponse::Ok(Json::from(vec![line]))
    }

    async fn export_orders(&self, _: &Caller) -> ExportOrdersResponse {
        let mut csv = String::from("id,petId,quantity,status\n");
        for stored in self.state().orders.values() {
            let o = &stored.order;
            csv.push_str(&format!("{},{},{},{}\n", o.id, o.pet_id, o.quantity, o.status));
        }
        ExportOrdersResponse::Ok(csv)
    }

    async fn get_inventory(&self, _: &Caller) -> GetInventoryResponse {
        let mut counts = BTreeMap::new();
        for stored in self.state().orders.values() {
            *counts.entry(stored.order.status.to_string()).or_insert(0) += 1;
        }
        GetInventoryResponse::Ok(Json::from(types::Inventory(counts)))
    }

    async fn count_orders(&self, _: &Caller) -> CountOrdersResponse {
        CountOrdersResponse::Ok(Json::from(self.state().orders.len() as i64))
    }

    async fn get_status(&self) -> GetStatusResponse {
        GetStatusResponse::Ok(Json::from(types::GetStatusResponseBody {
            status: types::GetStatusResponseBodyStatus::Ok,
            version: API_VERSION.to_string(),
            started_at: self.started_at,
        }))
    }

    async fn set_preferences(&self, body: types::Preferences) -> SetPreferencesResponse {
        SetPreferencesResponse::Ok(Json::from(body))
    }

    async fn search_charges(&self, params: SearchChargesParams, body: types::ChargeCriteria) -> SearchChargesResponse {
        let criteria = json!({"created": params.created, "expand": params.expand, "body": body});
        match criteria {
            Value::Object(criteria) => SearchChargesResponse::Ok(Json::from(criteria)),
            other => SearchChargesResponse::InternalServerError(internal(format!("{other:?}"))),
        }
    }

    async fn get_plugin_version(
        &self,
        version: types::PluginVersion,
        params: GetPluginVersionParams,
    ) -> GetPluginVersionResponse {
        match json!({"version": version, "build": params.x_build}) {
            Value::Object(read) => GetPluginVersionResponse::Ok(Json::from(read)),
            other => GetPluginVersionResponse::InternalServerError(internal(format!("{other:?}"))),
        }
    }

    async fn patch_preferences(&self, body: types::Preferences) -> PatchPreferencesResponse {
        PatchPreferencesResponse::Ok(Json::from(body))
    }

    async fn subscribe(&self, body: types::SubscribeRequestBody) -> SubscribeResponse {
        self.state().subscribers.push(body);
        SubscribeResponse::NoContent
    }

    async fn put_label(&self, _: &Caller, name: types::PutLabelName, mut body: types::Label) -> PutLabelResponse {
        let mut state = self.state();
        // `revision` is readOnly: whatever a caller sent, the server's
        // count is what is stored and answered.
        let previous = state.labels.get(name.as_str()).and_then(|label| label.revision);
        body.revision = NonZeroU64::new(previous.map_or(1, |r| r.get() + 1));
        let replaced = state.labels.insert(name.to_string(), body.clone()).is_some();
        match replaced {
            true => PutLabelResponse::Ok(Json::from(body)),
            false => PutLabelResponse::Created(
                Json::from(body),
                PutLabelCreatedHeaders {
                    location: format!("{BASE_PATH}/labels/{}", name.as_str()),
                },
            ),
        }
    }

    async fn list_events(&self, _: &Caller, params: ListEventsParams) -> ListEventsResponse {
        let state = self.state();
        match search::events(state.orders.values().map(|s| &s.order), &params) {
            Some(page) => ListEventsResponse::Ok(Json::from(page)),
            // The spec's pattern (`e` and at most 18 digits) already
            // refuses what would not parse; kept for a token read another way.
            None => ListEventsResponse::BadRequest(Problem::new(
                "invalid_parameter",
                "pageToken: not a token this service issued (give the previous page's `next`)",
            )),
        }
    }

    async fn list_labels(&self, _: &Caller) -> ListLabelsResponse {
        ListLabelsResponse::Ok(Json::from(self.state().labels.clone()))
    }

    async fn label_names(&self, _: &Caller) -> LabelNamesResponse {
        LabelNamesResponse::Ok(Json::from(self.state().labels.keys().cloned().collect::<Vec<_>>()))
    }

    async fn get_report(&self, _: &Caller, period: types::GetReportPeriod, day: NaiveDate) -> GetReportResponse {
        let days = match period {
            types::GetReportPeriod::Day => 1,
            types::GetReportPeriod::Week => 7,
        };
        let end = day.checked_add_days(chrono::Days::new(days)).unwrap_or(NaiveDate::MAX);
        let orders = self
            .state()
            .orders
            .values()
            .filter(|s| (day..end).contains(&s.order.created_at.date_naive()))
            .count() as i64;
        let period = match period {
            types::GetReportPeriod::Day => types::GetReportResponseBodyPeriod::Day,
            types::GetReportPeriod::Week => types::GetReportResponseBodyPeriod::Week,
        };
        GetReportResponse::Ok(Json::from(types::GetReportResponseBody {
            period,
            from: day,
            orders,
        }))
    }

    async fn get_payment(&self, _: &Caller, payment_id: Uuid) -> GetPaymentResponse {
        match self.state().payments.get(&payment_id) {
            Some((order_id, method)) => GetPaymentResponse::Ok(Json::from(types::GetPaymentResponseBody {
                payment_id,
                order_id: *order_id,
                method: method.clone(),
            })),
            None => GetPaymentResponse::NotFound(not_found("payment", payment_id)),
        }
    }

    async fn echo_parameters(
        &self,
        _: &Caller,
        count: i32,
        ratio: f64,
        flag: bool,
        day: NaiveDate,
        at: DateTime<Utc>,
        token: Uuid,
        kind: types::EchoParametersKind,
        params: EchoParametersParams,
    ) -> EchoParametersResponse {
        let mut echo = match serde_json::to_value(&params) {
            Ok(Value::Object(map)) => map,
            other => return EchoParametersResponse::InternalServerError(internal(format!("{other:?}"))),
        };
        let path =
            json!({"count": count, "ratio": ratio, "flag": flag, "day": day, "at": at, "token": token, "kind": kind});
        echo.insert("path".into(), path);
        EchoParametersResponse::Ok(Json::from(echo))
    }

    async fn get_legacy_order(&self, caller: &Caller, order_id: NonZeroU64) -> GetLegacyOrderResponse {
        match self.get_order(caller, order_id).await {
            GetOrderResponse::Ok(order, _) => GetLegacyOrderResponse::Ok(order),
            GetOrderResponse::NotFound(problem) => GetLegacyOrderResponse::NotFound(problem),
            other => GetLegacyOrderResponse::InternalServerError(internal(format!("{other:?}"))),
        }
    }
}
