//! The spec's schemas as Rust types: typify, fed each schema once (the
//! components by name, every inline schema of a parameter, body, response
//! or header under a name of the operation's), and the Error schema every
//! error response shares.

use heck::ToPascalCase;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::BTreeMap;

use serde_json::Value;
use typify::{TypeSpace, TypeSpaceSettings};

use crate::codegen::bisect;
use crate::codegen::document::{Spec, SpecError, is_error_key, is_error_object, json_content_schema};
use crate::codegen::no_panic::refusing_panics;
use crate::codegen::schema::{self, COMPONENTS_PREFIX};
use crate::codegen::type_names;

/// The Rust types of one spec, as typify reads them.
pub(super) struct Types {
    space: TypeSpace,
    /// Where each inline schema typify typed was, by the name of its type.
    added: Vec<(String, String)>,
    /// Components typify sees under another name ([`type_names::component_renames`]).
    renames: BTreeMap<String, String>,
    /// The inline schemas whose Rust type is any JSON value, by location
    /// (`Spec::degraded_inline`).
    degraded: std::collections::BTreeSet<String>,
}

impl Types {
    /// A type space holding the spec's components (a degraded one as any
    /// JSON value).
    pub(super) fn new(spec: &Spec) -> Result<Self, SpecError> {
        let mut components = Vec::new();
        let named = distinctly_named(spec);
        let renames = type_names::component_renames(&named);
        for (name, component) in &named {
            let schema = match spec.degraded.contains_key(name) {
                true => any_value(),
                false => to_schemars(&renamed(component, &renames), &format!("components.schemas.{name}"))?,
            };
            components.push((renames.get(name).unwrap_or(name).clone(), schema));
        }
        let space = space_of(components).map_err(|message| SpecError::new("components.schemas", message))?;
        Ok(Types {
            space,
            added: Vec::new(),
            renames,
            degraded: spec.degraded_inline.keys().cloned().collect(),
        })
    }

    /// The Rust type of `schema` (as the spec writes it), named `name`
    /// when it needs a type of its own; any JSON value where typify
    /// cannot map it (`Spec::degraded_inline`: the generation that found
    /// out left it to the next, [`crate::codegen::until_generated`]).
    pub(super) fn add(&mut self, schema: &Value, name: &str, location: &str) -> Result<TokenStream, SpecError> {
        if self.degraded.contains(location) {
            return Ok(quote!(::serde_json::Value));
        }
        let mut apart = renamed(schema, &self.renames);
        type_names::fields_apart(&mut apart, &mut false, 0);
        let untypable = |e: SpecError| SpecError::untypable(e.location, e.message);
        let typify = to_schemars(&apart, location).map_err(untypable)?;
        let error = |e: typify::Error| SpecError::new(location, format!("typify cannot map this schema: {e}"));
        let ty = refusing_panics(location, "typify", || {
            let id = self
                .space
                .add_type_with_name(&typify, Some(name.to_pascal_case()))
                .map_err(error)?;
            let ty = self.space.get_type(&id).map_err(error)?;
            Ok((ty.name(), ty.ident()))
        })
        .map_err(untypable)?;
        self.added.push((ty.0, location.to_string()));
        Ok(ty.1)
    }

    /// Every type, once each name is one type's: where typify names two
    /// alike, the inline schema whose type (or whose type's part, named
    /// after it) takes the name is untypable, for the next generation to
    /// type as any JSON value.
    pub(super) fn checked(&self) -> Result<(), SpecError> {
        let Some(name) = twice_named(&self.space) else {
            return Ok(());
        };
        let location = self
            .added
            .iter()
            .filter(|(added, _)| name.starts_with(added.as_str()))
            .max_by_key(|(added, _)| added.len())
            .map(|(_, location)| location.clone());
        let message = format!("typify names two types `{name}`");
        Err(match location {
            Some(location) => SpecError::untypable(location, message),
            None => SpecError::new("components.schemas", message),
        })
    }

    /// Every type, as the `types` module's items, the constrained string
    /// newtypes trusting what the validator checked
    /// ([`super::checked_strings`]).
    pub(super) fn tokens(&self) -> TokenStream {
        super::checked_strings::trusting_checked(self.space.to_stream())
    }
}

fn settings() -> TypeSpaceSettings {
    let mut settings = TypeSpaceSettings::default();
    settings
        .with_type_mod("types")
        .with_struct_builder(false)
        // Maps serialize in key order, so the same value gives the same
        // bytes.
        .with_map_type("::std::collections::BTreeMap");
    settings
}

/// A type space of `components`, or why typify cannot make one.
fn space_of(components: Vec<(String, schemars::schema::Schema)>) -> Result<TypeSpace, String> {
    let mut space = TypeSpace::new(&settings());
    refusing_panics("components.schemas", "typify", || {
        space
            .add_ref_types(components)
            .map_err(|e| SpecError::new("components.schemas", format!("typify cannot map these schemas: {e}")))
    })
    .map_err(|e| e.message)?;
    match twice_named(&space) {
        Some(name) => Err(format!("typify cannot map these schemas: it names two types `{name}`")),
        None => Ok(space),
    }
}

/// A name typify gives two of the types it writes (a nullable enum whose
/// inner type takes its own name, say), which would not compile.
fn twice_named(space: &TypeSpace) -> Option<String> {
    let mut seen = std::collections::BTreeSet::new();
    space
        .iter_types()
        .filter(|ty| {
            matches!(
                ty.details(),
                typify::TypeDetails::Struct(_) | typify::TypeDetails::Enum(_) | typify::TypeDetails::Newtype(_)
            )
        })
        .map(|ty| ty.name())
        .find(|name| !seen.insert(name.clone()))
}

/// A schema any JSON value meets: typify's `serde_json::Value`. `{}`,
/// not `true`: typify merges `true` in an `allOf` into the other member
/// whole, its title too, and then fails on the title.
fn any_value() -> schemars::schema::Schema {
    schemars::schema::Schema::Object(Default::default())
}

/// The component schemas typify cannot map, each with why. typify takes
/// the components together and fails for all of them at once, without
/// saying which; halving finds the ones it fails for ([`bisect`]), the
/// others standing in as any value, so that only those lose their type.
pub fn untypable_components(spec: &Spec) -> BTreeMap<String, String> {
    let mut components = Vec::new();
    let mut unreadable = BTreeMap::new();
    let named = distinctly_named(spec);
    let renames = type_names::component_renames(&named);
    // Kept by their written names, given to typify under its own.
    let mut written = Vec::new();
    for (name, component) in &named {
        written.push(name.clone());
        let typed = renames.get(name).unwrap_or(name).clone();
        match to_schemars(&renamed(component, &renames), "") {
            Ok(schema) => components.push((typed, schema)),
            Err(e) => {
                unreadable.insert(name.clone(), e.message);
                components.push((typed, any_value()));
            }
        }
    }
    if space_of(components.clone()).is_err() {
        each_alone(&mut components, &written, &mut unreadable);
    }
    loop {
        let message = match space_of(components.clone()) {
            Ok(_) => return unreadable,
            Err(message) => message,
        };
        let typed: Vec<usize> = (0..components.len())
            .filter(|i| !unreadable.contains_key(&written[*i]))
            .collect();
        // Only the part's components as they are.
        let mut fails = |part: &[usize]| {
            let tried = components
                .iter()
                .enumerate()
                .map(|(i, (name, schema))| match part.contains(&i) {
                    true => (name.clone(), schema.clone()),
                    false => (name.clone(), any_value()),
                })
                .collect();
            space_of(tried).is_err()
        };
        // A failure none of them causes (were there one) ends here: the
        // caller's own error then names the document.
        let Some(part) = bisect::failing_part(&typed, &mut fails) else {
            return unreadable;
        };
        for i in part {
            unreadable.insert(written[i].clone(), message.clone());
            components[i].1 = any_value();
        }
    }
}

/// Each component typify cannot map by itself, the ones it refers to
/// standing in as any value: found in one small try each, where a try of
/// [`bisect`] costs the whole document (thousands of schemas, in the
/// largest), which is left for what fails only together.
fn each_alone(
    components: &mut [(String, schemars::schema::Schema)],
    written: &[String],
    unreadable: &mut BTreeMap<String, String>,
) {
    let named: std::collections::BTreeSet<String> = components.iter().map(|(name, _)| name.clone()).collect();
    for i in 0..components.len() {
        if unreadable.contains_key(&written[i]) {
            continue;
        }
        let (name, schema) = &components[i];
        let mut tried = vec![(name.clone(), schema.clone())];
        let mut referred = std::collections::BTreeSet::new();
        references(&serde_json::to_value(schema).unwrap_or_default(), &mut referred);
        referred.remove(name);
        tried.extend(
            referred
                .into_iter()
                .filter(|other| named.contains(other))
                .map(|other| (other, any_value())),
        );
        if let Err(message) = space_of(tried) {
            unreadable.insert(written[i].clone(), message);
            components[i].1 = any_value();
        }
    }
}

/// The components `schema` refers to, by name.
fn references(schema: &Value, out: &mut std::collections::BTreeSet<String>) {
    crate::codegen::references::each_reference(schema, &mut |reference| {
        out.insert(reference.rsplit('/').next().unwrap_or_default().to_string());
    });
}

/// The spec's components, each inline schema that typify would name as a
/// component titled otherwise ([`type_names`]).
fn distinctly_named(spec: &Spec) -> serde_json::Map<String, Value> {
    let mut components = spec.component_schemas().clone();
    type_names::distinct(&mut components);
    components
}

/// `schema` with its references to renamed components renamed.
fn renamed(schema: &Value, renames: &BTreeMap<String, String>) -> Value {
    let mut schema = schema.clone();
    type_names::rename_references(&mut schema, renames);
    schema
}

fn to_schemars(schema: &Value, location: &str) -> Result<schemars::schema::Schema, SpecError> {
    serde_json::from_value(schema::typify_form(schema))
        .map_err(|e| SpecError::new(location, format!("not a schema typify can read: {e}")))
}

/// The type of the errors dropshot and the generated layer send: the
/// spec's Error object when it has one the layer can fill (an object with
/// required `code` and `message` strings and a `status` integer, as our
/// own specs have), RFC 9457 problem details otherwise.
pub(super) struct ErrorObject {
    pub(super) path: TokenStream,
    /// The Error object's component name.
    pub(super) component: Option<String>,
}

pub(super) fn error_object(spec: &Spec) -> Result<ErrorObject, SpecError> {
    for op in spec.operations() {
        for (key, response, _) in spec.responses(&op)? {
            let reference = json_content_schema(&response)
                .and_then(|schema| schema.get("$ref"))
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix(COMPONENTS_PREFIX));
            if let Some(name) = reference
                && is_error_key(&key)
                && spec.component_schemas().get(name).is_some_and(is_error_object)
            {
                let renames = type_names::component_renames(&distinctly_named(spec));
                let typed = renames
                    .get(name)
                    .cloned()
                    .unwrap_or_else(|| type_names::typify_name(name));
                let ident = format_ident!("{typed}");
                return Ok(ErrorObject {
                    path: quote!(types::#ident),
                    component: Some(name.to_string()),
                });
            }
        }
    }
    Ok(ErrorObject {
        path: quote!(runtime::ProblemDetails),
        component: None,
    })
}
