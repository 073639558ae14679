//! Where a spec's references to its schemas point, for every part of the
//! generator that makes or reads one (a leaf: it depends on nothing here).

/// Where references to the spec's components point.
pub const COMPONENTS_PREFIX: &str = "#/components/schemas/";
