//! The names renamed parameters are sent as. progenitor got each
//! parameter whose Rust name would meet another's under a name of its own
//! (`for_progenitor/parameter_names.rs`), and writes that name where the
//! request is built (`QueryParam::new("nextToken (header)", ..)`, a
//! header's name, a mock's matcher); each such string is the parameter's
//! own name again, so the request carries what the spec says.

use std::collections::BTreeMap;

use syn::visit_mut::VisitMut;

/// Writes each renamed parameter's own name where progenitor wrote the
/// name it was given.
pub(super) fn restore_wire_names(file: &mut syn::File, names: &BTreeMap<String, String>) {
    if !names.is_empty() {
        WireNames(names).visit_file_mut(file);
    }
}

struct WireNames<'a>(&'a BTreeMap<String, String>);

impl VisitMut for WireNames<'_> {
    fn visit_lit_str_mut(&mut self, lit: &mut syn::LitStr) {
        if let Some(wire) = self.0.get(&lit.value()) {
            *lit = syn::LitStr::new(wire, lit.span());
        }
    }
}
