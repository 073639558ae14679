//! Hand-written support for the generated API contracts. Nothing here
//! depends on a spec: the generator writes, per spec, the types, the
//! operation tables ([`Operation`]) and the glue; this crate does the work
//! those tables describe.
//!
//! - [`contract`]: the tables, one per operation.
//! - [`parameters`] and [`body`] (forms in [`form`], XML in [`xml`],
//!   [`multipart`] bodies): reading a request by its table, after
//!   the caller is authenticated ([`auth`], by the [`credentials`] it
//!   sent), checked against the spec's
//!   schemas ([`schema`]: JSON Schema, validated by the `jsonschema` crate),
//!   then typed without checking the strings again ([`checked_strings`]).
//! - [`metrics`]: each operation's requests counted and timed, served at
//!   `GET /metrics`.
//! - [`reply`] (with its documented headers, `response_headers`): the response, a documented one, the Error object, or RFC
//!   9457 [`problem_details`] for an error the spec leaves undocumented.
//! - [`rejection`]: a request refused before its handler (a credential, a
//!   body), which becomes the reply in one place, with the [`challenge`]s
//!   a 401 or 403 carries.
//! - [`documentation`]: the tables in dropshot's terms, for the document
//!   dropshot emits.
//! - [`json`]: bodies serialized once and sent many times;
//!   [`not_allowed`]: 405 for a path's undocumented methods;
//!   [`majors`]: several majors served side by side; [`routing`]: paths
//!   dropshot's router cannot hold, served by a dispatch; [`payload`]: bodies
//!   whose concrete media type the handler chooses; [`negotiation`]: the
//!   media type a response is sent as, by `Accept`; [`upgrade`]: the
//!   WebSocket upgrade of a `101`; [`streams`]: streamed responses;
//!   [`webhooks`]: sending the spec's webhooks and callbacks.
//! - [`serving`]: a service served as a process (probes, logs, the
//!   connection reaper, a bounded shutdown), the same for every service.

pub mod auth;
pub mod body;
pub(crate) mod brackets;
pub mod challenge;
pub mod checked_strings;
pub mod contract;
pub mod credentials;
pub mod documentation;
mod ecma_pattern;
pub mod form;
pub mod json;
pub mod majors;
pub mod metrics;
pub mod multipart;
pub mod negotiation;
pub mod not_allowed;
pub mod parameters;
pub mod payload;
pub mod problem;
pub mod problem_details;
pub(crate) mod query_objects;
pub mod rejection;
pub mod reply;
pub(crate) mod response_headers;
pub mod routing;
pub mod schema;
pub(crate) mod schema_walk;
pub mod serving;
pub(crate) mod shards;
pub mod streams;
pub mod upgrade;
pub mod values;
pub mod webhooks;
pub mod xml;

pub use auth::{AuthError, Authenticator, authenticate_optional, authenticate_with};
pub use body::{RequestBody, required};
pub use bytes::Bytes;
pub use contract::{
    Body, BodyKind, Content, Contract, Deprecation, ErrorResponse, FileField, FileParts, FormField, FormItem, Location,
    Need, Operation, Parameter, Requirement, ResponseHeader, Scalar, Scheme, SuccessResponse, ValueKind,
};
pub use credentials::{Credential, Secret, bearer_token};
pub use json::{Json, JsonArray, JsonArrayWriter};
pub use majors::{VersionByPath, major_versions};
pub use multipart::{FilePart, Files, Multipart, NoFields};
pub use negotiation::{Accepted, negotiate};
pub use not_allowed::{ApiDescriptionError, method_not_allowed, methods_other_than, not_allowed_id};
pub use parameters::{NoParameters, Parameters, read_parameters};
pub use payload::Payload;
pub use problem::Problem;
pub use problem_details::{PROBLEM_JSON, ProblemDetails};
pub use rejection::Rejection;
pub use reply::{Reply, covers};
pub use routing::register_routed;
pub use schema::{ComponentSchema, Components, Schema, Violation};
pub use streams::{Event, EventStream, JsonLines};
pub use upgrade::{Handshake, Switching, Upgrade};
