//! The service's handlers, written once by `cargo xtask new` and yours
//! to edit: each answers 501 (`NotImplemented`) until it is written.
//! After a spec change, `cargo xtask generate`; the compiler then
//! names every handler the change broke.

use crate::api::*;
use crate::runtime;
use crate::runtime::serving::{Served, Serving};
use crate::runtime::{AuthError, Authenticator, Credential};
/// The service. Hold its state here (a database pool, ...).
#[derive(Default)]
pub struct Service {
    /// Its requests in flight, its drain and readiness, and the
    /// origins it allows (`runtime::serving`).
    serving: Serving,
}
/// Accepts any credential an operation's schemes carry (a request
/// without one still gets 401): replace it with a real check.
impl Authenticator for Service {
    type Principal = ();
    async fn authenticate(&self, _credential: Credential<'_>) -> Result<(), AuthError> {
        Ok(())
    }
}

impl Served for Service {
    fn serving(&self) -> Option<&Serving> {
        Some(&self.serving)
    }
}
impl SwaggerPetstoreOpenApi30Handlers for Service {
    async fn update_pet(&self, _caller: &Self::Principal, _body: types::Pet) -> UpdatePetResponse {
        UpdatePetResponse::NotImplemented
    }
    async fn add_pet(&self, _caller: &Self::Principal, _body: types::Pet) -> AddPetResponse {
        AddPetResponse::NotImplemented
    }
    async fn find_pets_by_status(
        &self,
        _caller: &Self::Principal,
        _params: FindPetsByStatusParams,
    ) -> FindPetsByStatusResponse {
        FindPetsByStatusResponse::NotImplemented
    }
    async fn find_pets_by_tags(
        &self,
        _caller: &Self::Principal,
        _params: FindPetsByTagsParams,
    ) -> FindPetsByTagsResponse {
        FindPetsByTagsResponse::NotImplemented
    }
    async fn get_pet_by_id(&self, _caller: &Self::Principal, _pet_id: i64) -> GetPetByIdResponse {
        GetPetByIdResponse::NotImplemented
    }
    async fn update_pet_with_form(
        &self,
        _caller: &Self::Principal,
        _pet_id: i64,
        _params: UpdatePetWithFormParams,
    ) -> UpdatePetWithFormResponse {
        UpdatePetWithFormResponse::NotImplemented
    }
    async fn delete_pet(&self, _caller: &Self::Principal, _pet_id: i64, _params: DeletePetParams) -> DeletePetResponse {
        DeletePetResponse::NotImplemented
    }
    async fn upload_file(
        &self,
        _caller: &Self::Principal,
        _pet_id: i64,
        _params: UploadFileParams,
        _body: ::std::option::Option<runtime::Bytes>,
    ) -> UploadFileResponse {
        UploadFileResponse::NotImplemented
    }
    async fn get_inventory(&self, _caller: &Self::Principal) -> GetInventoryResponse {
        GetInventoryResponse::NotImplemented
    }
    async fn place_order(&self, _body: ::std::option::Option<types::Order>) -> PlaceOrderResponse {
        PlaceOrderResponse::NotImplemented
    }
    async fn get_order_by_id(&self, _order_id: i64) -> GetOrderByIdResponse {
        GetOrderByIdResponse::NotImplemented
    }
    async fn delete_order(&self, _order_id: i64) -> DeleteOrderResponse {
        DeleteOrderResponse::NotImplemented
    }
    async fn create_user(&self, _body: ::std::option::Option<types::User>) -> CreateUserResponse {
        CreateUserResponse::NotImplemented
    }
    async fn create_users_with_list_input(
        &self,
        _body: ::std::option::Option<::std::vec::Vec<types::User>>,
    ) -> CreateUsersWithListInputResponse {
        CreateUsersWithListInputResponse::NotImplemented
    }
    async fn login_user(&self, _params: LoginUserParams) -> LoginUserResponse {
        LoginUserResponse::NotImplemented
    }
    async fn logout_user(&self) -> LogoutUserResponse {
        LogoutUserResponse::NotImplemented
    }
    async fn get_user_by_name(&self, _username: ::std::string::String) -> GetUserByNameResponse {
        GetUserByNameResponse::NotImplemented
    }
    async fn update_user(
        &self,
        _username: ::std::string::String,
        _body: ::std::option::Option<types::User>,
    ) -> UpdateUserResponse {
        UpdateUserResponse::NotImplemented
    }
    async fn delete_user(&self, _username: ::std::string::String) -> DeleteUserResponse {
        DeleteUserResponse::NotImplemented
    }
}
