//! A small in-memory implementation of the Swagger Petstore's handlers:
//! pets, orders and users that can be created, read, found, changed and
//! deleted, enough that the client and Schemathesis exercise every
//! operation on running code. Not durable, not for production.

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};

use chrono::{Duration, Utc};

use crate::api::*;
use crate::runtime::{AuthError, Authenticator, Bytes, Credential, Json};

/// The service: the credentials it accepts, and its data.
pub struct Service {
    /// The OAuth2 access token (`petstore_auth`), which grants every scope.
    token: String,
    /// The API key (`api_key`).
    key: String,
    state: Mutex<State>,
    /// Requests in flight, the drain, CORS (`runtime::serving`).
    serving: crate::runtime::serving::Serving,
}

#[derive(Default)]
struct State {
    next_id: i64,
    pets: BTreeMap<i64, types::Pet>,
    orders: BTreeMap<i64, types::Order>,
    users: BTreeMap<String, types::User>,
}

impl State {
    /// The given id, or the next free one.
    fn id(&mut self, given: Option<i64>) -> i64 {
        given.unwrap_or_else(|| {
            self.next_id += 1;
            self.next_id
        })
    }
}

/// The caller, once its token or key is checked: the scheme it used.
#[derive(Debug)]
pub struct Caller {
    pub scheme: &'static str,
}

impl Service {
    pub fn new(token: String, key: String) -> Self {
        Service {
            token,
            key,
            state: Mutex::new(State {
                next_id: 1000,
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

impl Authenticator for Service {
    type Principal = Caller;

    async fn authenticate(&self, credential: Credential<'_>) -> Result<Caller, AuthError> {
        let valid = match &credential {
            Credential::Bearer { token, .. } => token.secret() == self.token,
            Credential::ApiKey { key, .. } => key.secret() == self.key,
            Credential::Basic { .. } => false,
        };
        match valid {
            true => Ok(Caller {
                scheme: credential.scheme(),
            }),
            false => Err(AuthError::InvalidKey),
        }
    }
}

impl crate::runtime::serving::Served for Service {
    fn serving(&self) -> Option<&crate::runtime::serving::Serving> {
        Some(&self.serving)
    }
}

/// The status a `default` arm answers for something that is not there.
const NOT_THERE: u16 = 404;

impl SwaggerPetstoreOpenApi30Handlers for Service {
    async fn update_pet(&self, _: &Caller, body: types::Pet) -> UpdatePetResponse {
        let mut state = self.state();
        match body.id.and_then(|id| state.pets.get_mut(&id)) {
            Some(pet) => {
                *pet = body.clone();
                UpdatePetResponse::Ok(Json::from(body))
            }
            None => UpdatePetResponse::NotFound,
        }
    }

    async fn add_pet(&self, _: &Caller, mut body: types::Pet) -> AddPetResponse {
        let mut state = self.state();
        let id = state.id(body.id);
        body.id = Some(id);
        state.pets.insert(id, body.clone());
        AddPetResponse::Ok(Json::from(body))
    }

    async fn find_pets_by_status(&self, _: &Caller, params: FindPetsByStatusParams) -> FindPetsByStatusResponse {
        let wanted = params.status.to_string();
        let pets: Vec<types::Pet> = self
            .state()
            .pets
            .values()
            .filter(|pet| pet.status.as_ref().map(ToString::to_string).as_deref() == Some(wanted.as_str()))
            .cloned()
            .collect();
        FindPetsByStatusResponse::Ok(Json::from(pets))
    }

    async fn find_pets_by_tags(&self, _: &Caller, params: FindPetsByTagsParams) -> FindPetsByTagsResponse {
        let wanted = params.tags.unwrap_or_default();
        let pets: Vec<types::Pet> = self
            .state()
            .pets
            .values()
            .filter(|pet| {
                pet.tags
                    .iter()
                    .any(|tag| tag.name.as_ref().is_some_and(|name| wanted.contains(name)))
            })
            .cloned()
            .collect();
        FindPetsByTagsResponse::Ok(Json::from(pets))
    }

    async fn get_pet_by_id(&self, _: &Caller, pet_id: i64) -> GetPetByIdResponse {
        match self.state().pets.get(&pet_id) {
            Some(pet) => GetPetByIdResponse::Ok(Json::from(pet.clone())),
            None => GetPetByIdResponse::NotFound,
        }
    }

    async fn update_pet_with_form(
        &self,
        _: &Caller,
        pet_id: i64,
        params: UpdatePetWithFormParams,
    ) -> UpdatePetWithFormResponse {
        let mut state = self.state();
        let Some(pet) = state.pets.get_mut(&pet_id) else {
            return UpdatePetWithFormResponse::Default { status: NOT_THERE };
        };
        if let Some(name) = params.name {
            pet.name = name;
        }
        if let Some(status) = params.status {
            // The query parameter is free text; the pet's status is one
            // of three. Anything else leaves it as it was.
            if let Ok(status) = status.parse() {
                pet.status = Some(status);
            }
        }
        UpdatePetWithFormResponse::Ok(Json::from(pet.clone()))
    }

    async fn delete_pet(&self, _: &Caller, pet_id: i64, _: DeletePetParams) -> DeletePetResponse {
        match self.state().pets.remove(&pet_id) {
            Some(_) => DeletePetResponse::Ok,
            None => DeletePetResponse::Default { status: NOT_THERE },
        }
    }

    async fn upload_file(
        &self,
        _: &Caller,
        pet_id: i64,
        params: UploadFileParams,
        body: Option<Bytes>,
    ) -> UploadFileResponse {
        let mut state = self.state();
        let Some(pet) = state.pets.get_mut(&pet_id) else {
            return UploadFileResponse::NotFound;
        };
        let size = body.as_ref().map_or(0, Bytes::len);
        let url = format!("memory://pets/{pet_id}/images/{}", pet.photo_urls.len() + 1);
        pet.photo_urls.push(url);
        let metadata = params.additional_metadata.unwrap_or_default();
        UploadFileResponse::Ok(Json::from(types::ApiResponse {
            code: Some(200),
            message: Some(format!("{size} bytes stored {metadata}").trim().to_string()),
            type_: Some("image".into()),
        }))
    }

    async fn get_inventory(&self, _: &Caller) -> GetInventoryResponse {
        let mut counts = BTreeMap::new();
        for pet in self.state().pets.values() {
            if let Some(status) = &pet.status {
                *counts.entry(status.to_string()).or_insert(0) += 1;
            }
        }
        GetInventoryResponse::Ok(Json::from(counts))
    }

    async fn place_order(&self, body: Option<types::Order>) -> PlaceOrderResponse {
        // Every field of an order is optional; none at all is an empty order.
        let mut order = body.unwrap_or_default();
        let mut state = self.state();
        let id = state.id(order.id);
        order.id = Some(id);
        state.orders.insert(id, order.clone());
        PlaceOrderResponse::Ok(Json::from(order))
    }

    async fn get_order_by_id(&self, order_id: i64) -> GetOrderByIdResponse {
        match self.state().orders.get(&order_id) {
            Some(order) => GetOrderByIdResponse::Ok(Json::from(order.clone())),
            None => GetOrderByIdResponse::NotFound,
        }
    }

    async fn delete_order(&self, order_id: i64) -> DeleteOrderResponse {
        match self.state().orders.remove(&order_id) {
            Some(_) => DeleteOrderResponse::Ok,
            None => DeleteOrderResponse::NotFound,
        }
    }

    async fn create_user(&self, body: Option<types::User>) -> CreateUserResponse {
        let user = body.unwrap_or_default();
        let mut state = self.state();
        if let Some(username) = &user.username {
            state.users.insert(username.clone(), user.clone());
        }
        CreateUserResponse::Ok(Json::from(user))
    }

    async fn create_users_with_list_input(&self, body: Option<Vec<types::User>>) -> CreateUsersWithListInputResponse {
        let users = body.unwrap_or_default();
        let mut state = self.state();
        for user in &users {
            if let Some(username) = &user.username {
                state.users.insert(username.clone(), user.clone());
            }
        }
        // The spec answers one user: the last one created.
        CreateUsersWithListInputResponse::Ok(Json::from(users.last().cloned().unwrap_or_default()))
    }

    async fn login_user(&self, params: LoginUserParams) -> LoginUserResponse {
        let username = params.username.unwrap_or_default();
        let headers = LoginUserOkHeaders {
            x_expires_after: Some(Utc::now() + Duration::hours(1)),
            x_rate_limit: Some(5000),
        };
        LoginUserResponse::Ok(Json::from(format!("logged in user session: {username}")), headers)
    }

    async fn logout_user(&self) -> LogoutUserResponse {
        LogoutUserResponse::Ok
    }

    async fn get_user_by_name(&self, username: String) -> GetUserByNameResponse {
        match self.state().users.get(&username) {
            Some(user) => GetUserByNameResponse::Ok(Json::from(user.clone())),
            None => GetUserByNameResponse::NotFound,
        }
    }

    async fn update_user(&self, username: String, body: Option<types::User>) -> UpdateUserResponse {
        let mut state = self.state();
        if !state.users.contains_key(&username) {
            return UpdateUserResponse::NotFound;
        }
        let mut user = body.unwrap_or_default();
        user.username.get_or_insert(username.clone());
        state.users.remove(&username);
        let key = user.username.clone().unwrap_or(username);
        state.users.insert(key, user);
        UpdateUserResponse::Ok
    }

    async fn delete_user(&self, username: String) -> DeleteUserResponse {
        match self.state().users.remove(&username) {
            Some(_) => DeleteUserResponse::Ok,
            None => DeleteUserResponse::NotFound,
        }
    }
}
