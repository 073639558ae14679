//! The Swagger Petstore's integration tests, one binary (as dropshot's
//! own): [`round_trips`] drives every operation through the generated
//! client on an ephemeral port; [`served`] runs its binary against slow
//! and hostile clients and signals.

mod round_trips;
mod served;
