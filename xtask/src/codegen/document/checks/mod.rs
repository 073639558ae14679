//! What the generators can map, checked on the whole document before
//! either runs: each refusal names the place in the spec and the reason
//! (often a limit of progenitor or dropshot, which would otherwise panic or
//! emit code that does not compile). One file per part of an operation:
//! [`parameters`], [`bodies`], [`responses`], [`security`].

mod bodies;
mod parameters;
mod responses;
mod security;

pub use bodies::served_body;
pub(crate) use bodies::{BODY_MEDIA_TYPES, is_readable_body_type};

use super::errors::{Refusals, SpecError, SpecErrors};
use super::model::Spec;
use super::router::check_router;
use crate::codegen::schema;

/// Every check runs, on every operation, and every refusal is reported:
/// a designer bringing a spec sees the whole list at once.
pub(super) fn check(spec: &Spec) -> Result<(), SpecErrors> {
    let mut refusals = Refusals::default();
    for (path, item) in &spec.api.paths.paths {
        if item.as_item().is_none() {
            refusals.push(SpecError::new(
                format!("paths.{path}"),
                "a $ref path item is not supported",
            ));
        }
    }
    refusals.extend(SpecErrors(check_router(&spec.api)));
    for (name, component) in spec.component_schemas() {
        refusals.note(schema::check(
            component,
            &format!("components.schemas.{name}"),
            spec.component_schemas(),
        ));
    }
    for op in spec.operations() {
        refusals.note(parameters::check_parameters(spec, &op));
        refusals.note(bodies::check_request_body(spec, &op));
        refusals.note(responses::check_responses(spec, &op));
        refusals.note(security::check_security(spec, &op));
    }
    refusals.finish(())
}
