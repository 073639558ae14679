//! Where the schemas of a document are: a value's [`Role`] follows from
//! the role of the value it stands in and the key it stands under, never
//! from the name before it (a property named `properties` or `type` is a
//! schema, not a keyword). A leaf of `tolerate/`.

/// What a value of the document is, as far as the schema rules go: read
/// from where it stands (a property named `properties` or `type` is a
/// schema, not a keyword).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// A schema.
    Schema,
    /// A map whose every value is a schema (`properties`,
    /// `components.schemas`).
    Named,
    /// A list whose every item is a schema (`allOf`, `anyOf`, `oneOf`).
    Listed,
    /// Anything else (under which a `schema` is a schema).
    Other,
}

impl Role {
    /// The role of the value under `key` in a mapping of this role (at
    /// `at`).
    pub(super) fn of_key(self, key: &str, at: &str) -> Role {
        match self {
            Role::Named => Role::Schema,
            Role::Schema => match key {
                "properties" => Role::Named,
                "items" | "additionalProperties" | "not" => Role::Schema,
                "allOf" | "anyOf" | "oneOf" => Role::Listed,
                _ => Role::Other,
            },
            Role::Listed | Role::Other => match key {
                "schema" => Role::Schema,
                "schemas" if at == "components" => Role::Named,
                _ => Role::Other,
            },
        }
    }

    /// The role of an item in a list of this role.
    pub(super) fn of_item(self) -> Role {
        match self {
            Role::Listed => Role::Schema,
            _ => Role::Other,
        }
    }
}
