//! The service's handlers, written once by `cargo xtask new` and yours
//! to edit: each answers 501 (`NotImplemented`) until it is written.
//! After a spec change, `cargo xtask generate`; the compiler then
//! names every handler the change broke.

use crate::api::*;
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
impl CanadaHolidaysApiHandlers for Service {
    async fn root(&self) -> RootResponse {
        RootResponse::NotImplemented
    }
    async fn holidays(&self, _params: HolidaysParams) -> HolidaysResponse {
        HolidaysResponse::NotImplemented
    }
    async fn holiday(&self, _holiday_id: ::std::num::NonZeroU64, _params: HolidayParams) -> HolidayResponse {
        HolidayResponse::NotImplemented
    }
    async fn provinces(&self, _params: ProvincesParams) -> ProvincesResponse {
        ProvincesResponse::NotImplemented
    }
    async fn province(&self, _province_id: types::ProvinceProvinceId, _params: ProvinceParams) -> ProvinceResponse {
        ProvinceResponse::NotImplemented
    }
    async fn spec(&self) -> SpecResponse {
        SpecResponse::NotImplemented
    }
}
