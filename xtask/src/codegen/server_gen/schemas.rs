//! Every schema the generated layer validates or documents, written as a
//! static `runtime::Schema`: its documentation form and, when reading a
//! value as its type does not already enforce it, its validation form.
//! Each is compiled here first, so that the generated code never carries a
//! schema the validator would refuse.

use heck::ToShoutySnakeCase;
use quote::quote;
use serde_json::{Map, Value};

use crate::codegen::document::{Spec, SpecError};
use crate::codegen::namespace::Namespace;
use crate::codegen::rust_items::Items;
use crate::codegen::schema::{doc_form, is_type_alone, validation_form};

/// One schema to write.
struct Entry {
    ident: syn::Ident,
    doc: String,
    validation: Option<String>,
}

/// The schemas of one spec: its components, and those of its operations.
pub(super) struct Schemas {
    components: Vec<(String, String, String)>,
    definitions: Value,
    entries: Vec<Entry>,
    /// Every validation form to compile, with its location.
    to_compile: Vec<(Value, String)>,
}

impl Schemas {
    pub(super) fn new(spec: &Spec) -> Result<Self, SpecError> {
        let mut components = Vec::new();
        let mut definitions = Map::new();
        for (name, schema) in spec.component_schemas() {
            let location = format!("components.schemas.{name}");
            let doc = checked_doc(schema, &location)?;
            let validation = validation_form(schema);
            definitions.insert(name.clone(), validation.clone());
            components.push((name.clone(), doc, canonical(&validation)));
        }
        let to_compile = spec
            .component_schemas()
            .iter()
            .map(|(name, schema)| (validation_form(schema), format!("components.schemas.{name}")))
            .collect();
        Ok(Schemas {
            components,
            definitions: Value::Object(definitions),
            entries: Vec::new(),
            to_compile,
        })
    }

    /// Registers the schema at `location` under the static `name` (made
    /// unique in `names`), and returns the static's name.
    pub(super) fn add(
        &mut self,
        names: &mut Namespace,
        name: &str,
        schema: &Value,
        location: &str,
    ) -> Result<syn::Ident, SpecError> {
        self.add_documented(names, name, schema, schema, location)
    }

    /// [`Schemas::add`], documented as `documented` says (dropshot's
    /// document) but validated as `validated`: a parameter's `nullable`
    /// is documented, while its text, never null, is checked without it.
    pub(super) fn add_documented(
        &mut self,
        names: &mut Namespace,
        name: &str,
        documented: &Value,
        validated: &Value,
        location: &str,
    ) -> Result<syn::Ident, SpecError> {
        let ident = names.claim(&name.to_shouty_snake_case());
        let doc = checked_doc(documented, location)?;
        let validation = validation_form(validated);
        self.to_compile.push((validation.clone(), location.to_string()));
        let validation = (!is_type_alone(&validation)).then(|| canonical(&validation));
        self.entries.push(Entry {
            ident: ident.clone(),
            doc,
            validation,
        });
        Ok(ident)
    }

    /// The validator (the same crate the generated layer uses) must accept
    /// every schema. All are compiled at once; should that fail, one by one,
    /// so that the broken one is named.
    pub(super) fn verify(&self) -> Result<(), SpecError> {
        // `allOf` must hold one schema at least.
        if self.to_compile.is_empty() {
            return Ok(());
        }
        let all = self.to_compile.iter().map(|(schema, _)| schema.clone()).collect();
        if self
            .compile(&serde_json::json!({ "allOf": Value::Array(all) }), "document")
            .is_ok()
        {
            return Ok(());
        }
        // One at a time, each with the components it reaches only: one
        // the validator refuses is refused itself, not with every other.
        for (schema, location) in &self.to_compile {
            self.compile_alone(schema, location)?;
        }
        Err(SpecError::new(
            "document",
            "the JSON Schema validator accepts each schema but not all of them together",
        ))
    }

    fn compile(&self, validation: &Value, location: &str) -> Result<(), SpecError> {
        self.compile_with(validation, location, self.definitions.clone())
    }

    /// [`Schemas::compile`], with only the components `validation` reaches.
    fn compile_alone(&self, validation: &Value, location: &str) -> Result<(), SpecError> {
        let mut reached = Map::new();
        let mut pending = vec![validation];
        while let Some(value) = pending.pop() {
            let mut names = Vec::new();
            definitions_named(value, &mut names);
            for name in names {
                if let Some(definition) = self.definitions.get(&name)
                    && !reached.contains_key(&name)
                {
                    reached.insert(name, definition.clone());
                    pending.push(definition);
                }
            }
        }
        self.compile_with(validation, location, Value::Object(reached))
    }

    fn compile_with(&self, validation: &Value, location: &str, definitions: Value) -> Result<(), SpecError> {
        let mut root = validation.clone();
        if let Value::Object(map) = &mut root {
            map.insert("$defs".into(), definitions);
        }
        jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(true)
            .build(&root)
            .map(drop)
            .map_err(|e| SpecError::new(location, format!("the JSON Schema validator refuses this schema: {e}")))
    }

    /// `COMPONENTS` and one static per registered schema, each a part of
    /// its own.
    pub(super) fn push_into(&self, out: &mut impl Items) -> syn::Result<()> {
        let components = self.components.iter().map(|(name, doc, validation)| {
            quote!(runtime::ComponentSchema { name: #name, doc: #doc, validation: #validation },)
        });
        out.push(quote! {
            /// The spec's `components.schemas`: how each is documented and
            /// validated.
            pub static COMPONENTS: runtime::Components = runtime::Components::new(&[#(#components)*]);
        })?;
        for entry in &self.entries {
            let (ident, doc) = (&entry.ident, &entry.doc);
            let validation = match &entry.validation {
                Some(v) => quote!(::std::option::Option::Some(#v)),
                None => quote!(::std::option::Option::None),
            };
            out.push(quote!(static #ident: runtime::Schema = runtime::Schema::new(&COMPONENTS, #doc, #validation);))?;
        }
        Ok(())
    }
}

/// The components `value` refers to (`#/$defs/<name>`), directly.
fn definitions_named(value: &Value, names: &mut Vec<String>) {
    crate::codegen::references::each_reference(value, &mut |reference| {
        if let Some(name) = reference.strip_prefix("#/$defs/") {
            names.push(name.split('/').next().unwrap_or(name).to_string());
        }
    });
}

/// The documentation form as JSON text, which must read as a schemars
/// schema (the generated code parses it at run time).
fn checked_doc(schema: &Value, location: &str) -> Result<String, SpecError> {
    let doc = doc_form(schema);
    serde_json::from_value::<schemars::schema::Schema>(doc.clone())
        .map_err(|e| SpecError::new(location, format!("not a schema dropshot's document can hold: {e}")))?;
    Ok(canonical(&doc))
}

/// JSON text with every object's keys sorted, so the generated file is the
/// same whatever map order serde_json was built with.
pub(super) fn canonical(value: &Value) -> String {
    fn sorted(value: &Value) -> Value {
        match value {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                Value::Object(keys.into_iter().map(|k| (k.clone(), sorted(&map[k]))).collect())
            }
            Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    sorted(value).to_string()
}
