//! The names the server contract declares, each unique whatever the
//! document calls things. A document's names reach Rust through case
//! conversions that merge them (`limit` and `Limit`, `foo-bar` and
//! `foo_bar`), and through families that meet (an operation `t1` has the
//! marker type `T1` and the table `T1`; an operation `getPetParams` is
//! named as `getPet`'s parameters are): every item name of the module and
//! every method of the traits is claimed here, and a name already taken
//! gets the first free numbered suffix, in document order, so the same
//! document always gets the same names. The client's own items (its
//! multipart bodies' structs and fields) are claimed the same way. A leaf
//! of `codegen/`.

use std::collections::BTreeSet;

use quote::format_ident;

/// Names taken in one Rust namespace.
pub(crate) struct Namespace {
    taken: BTreeSet<String>,
}

impl Namespace {
    pub(crate) fn reserving<'a>(names: impl IntoIterator<Item = &'a str>) -> Namespace {
        Namespace {
            taken: names.into_iter().map(str::to_string).collect(),
        }
    }

    /// Takes `wanted` (made an identifier: ASCII letters, digits and `_`,
    /// never a leading digit or a keyword), or, when it is taken, the same
    /// with the first free number after it (`Foo2`, `FOO_2`, `foo_2`).
    pub(crate) fn claim(&mut self, wanted: &str) -> syn::Ident {
        let mut base: String = wanted
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if base.is_empty() || base.starts_with(|c: char| c.is_ascii_digit()) {
            base.insert(0, 'X');
        }
        if syn::parse_str::<syn::Ident>(&base).is_err() {
            base.push('_');
        }
        // A PascalCase type name takes its number without `_`, which
        // Rust's naming lints would warn of.
        let joint = match (base.chars().any(|c| c.is_ascii_lowercase()) && !base.contains('_')) || base.ends_with('_') {
            true => "",
            false => "_",
        };
        let name = match self.taken.contains(&base) {
            false => base,
            true => (2..)
                .map(|n| format!("{base}{joint}{n}"))
                .find(|name| !self.taken.contains(name))
                .expect("some number is free"),
        };
        self.taken.insert(name.clone());
        format_ident!("{name}")
    }

    /// Takes `name` as it is (a name the generator chose, not the
    /// document), so that no later claim takes it.
    pub(crate) fn reserve(&mut self, name: &str) {
        self.taken.insert(name.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_taken_name_gets_the_first_free_number() {
        let mut names = Namespace::reserving(["COMPONENTS"]);
        assert_eq!(names.claim("T1"), "T1");
        assert_eq!(names.claim("T1"), "T1_2");
        assert_eq!(names.claim("GetPet"), "GetPet");
        assert_eq!(names.claim("GetPet"), "GetPet2");
        assert_eq!(names.claim("GetPet2"), "GetPet22");
        assert_eq!(names.claim("COMPONENTS"), "COMPONENTS_2");
        assert_eq!(names.claim("get_pet"), "get_pet");
        assert_eq!(names.claim("get_pet"), "get_pet_2");
    }

    #[test]
    fn what_is_not_an_identifier_becomes_one() {
        let mut names = Namespace::reserving([]);
        assert_eq!(names.claim("1Forge"), "X1Forge");
        assert_eq!(names.claim(""), "X");
        assert_eq!(names.claim("type"), "type_");
        assert_eq!(names.claim("type_"), "type_2");
        assert_eq!(names.claim("PRIX_€"), "PRIX_");
    }
}
