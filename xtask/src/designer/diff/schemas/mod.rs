//! How schemas compare: what a client may send or receive, by direction,
//! at any depth (properties, items, `additionalProperties`, `oneOf`,
//! `anyOf`, `allOf`), inline or by `$ref`.
//!
//! In a request a change breaks clients when the server accepts less
//! (a narrower bound, a new pattern, an enum value gone); in a response,
//! when the server may send what clients did not expect (a wider bound,
//! a new enum value, a new alternative). `readOnly` properties are not
//! sent and `writeOnly` ones not received, so their `required` counts in
//! one direction only, as OpenAPI says.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::differ::{Differ, Direction, Level, is_true};
use crate::designer::spec_json::{items, resolve};

const MAX_DEPTH: usize = 32;

mod compositions;
mod constraints;

fn schema_ref(schema: &Value) -> Option<&str> {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/components/schemas/"))
}

fn has_ref(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.contains_key("$ref") || map.values().any(has_ref),
        Value::Array(items) => items.iter().any(has_ref),
        _ => false,
    }
}

fn required(schema: &Value) -> BTreeSet<String> {
    items(schema, "required")
        .filter_map(Value::as_str)
        .map(String::from)
        .collect()
}

impl Differ<'_> {
    /// Compares two schemas reached the same way (the old document's and
    /// the new one's).
    pub(super) fn schema(&mut self, at: &str, old: &Value, new: &Value, direction: Direction) {
        let mut path = Vec::new();
        self.compare(at, old, new, direction, &mut path);
    }

    /// `path`: the pairs of components being compared above this one, so
    /// that a recursive schema ends.
    fn compare(&mut self, at: &str, old: &Value, new: &Value, d: Direction, path: &mut Vec<(String, String)>) {
        if path.len() > MAX_DEPTH {
            return;
        }
        let refs = (schema_ref(old).map(String::from), schema_ref(new).map(String::from));
        if let (Some(o), Some(n)) = &refs {
            if o == n && self.unchanged.contains(o) {
                return;
            }
            if path.contains(&(o.clone(), n.clone())) {
                return;
            }
        }
        let (old, new) = (resolve(self.old, old), resolve(self.new, new));
        if old == new && !has_ref(old) {
            return;
        }
        let pushed = matches!(refs, (Some(_), Some(_)));
        if let (Some(o), Some(n)) = refs {
            path.push((o, n));
        }
        self.compare_resolved(at, old, new, d, path);
        if pushed {
            path.pop();
        }
    }

    fn compare_resolved(&mut self, at: &str, old: &Value, new: &Value, d: Direction, path: &mut Vec<(String, String)>) {
        if !self.alternatives(at, old, new, d, path) {
            return;
        }
        self.all_of(at, old, new, d, path);
        if !self.types(at, old, new, d) {
            return;
        }
        self.format(at, old, new, d);
        self.nullable(at, old, new, d);
        self.enumeration(at, old, new, d);
        self.extensible_enumeration(at, old, new, d);
        self.default(at, old, new, d);
        self.bounds(at, old, new, d);
        self.pattern(at, old, new, d);
        if let (Some(o), Some(n)) = (old.get("items"), new.get("items")) {
            self.compare(&format!("{at}.items"), o, n, d, path);
        }
        self.additional_properties(at, old, new, d, path);
        self.properties(at, old, new, d, path);
    }

    fn additional_properties(
        &mut self,
        at: &str,
        old: &Value,
        new: &Value,
        d: Direction,
        path: &mut Vec<(String, String)>,
    ) {
        let (o, n) = (old.get("additionalProperties"), new.get("additionalProperties"));
        let allows = |v: Option<&Value>| !matches!(v, Some(Value::Bool(false)));
        match (o, n) {
            (Some(o), Some(n)) if o.is_object() && n.is_object() => {
                self.compare(&format!("{at}.additionalProperties"), o, n, d, path);
            }
            _ if allows(o) && !allows(n) => {
                let level = match d {
                    Direction::Request => Level::Breaking,
                    Direction::Response => Level::Compatible,
                };
                self.push(level, at, "other properties are no longer allowed");
            }
            _ if !allows(o) && allows(n) => {
                let level = match d {
                    Direction::Request => Level::Compatible,
                    Direction::Response => Level::Breaking,
                };
                self.push(
                    level,
                    at,
                    "other properties are now allowed (generated types that refuse unknown fields fail on them)",
                );
            }
            _ => {}
        }
    }

    fn properties(&mut self, at: &str, old: &Value, new: &Value, d: Direction, path: &mut Vec<(String, String)>) {
        let empty = Map::new();
        let props = |s: &Value| {
            s.get("properties")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_else(|| empty.clone())
        };
        let (old_props, new_props) = (props(old), props(new));
        let (old_required, new_required) = (required(old), required(new));
        // A property the direction never carries (`readOnly` in a request,
        // `writeOnly` in a response) is required only the other way.
        let carried = |doc: &Value, prop: &Value| {
            let prop = resolve(doc, prop);
            match d {
                Direction::Request => !is_true(prop.get("readOnly")),
                Direction::Response => !is_true(prop.get("writeOnly")),
            }
        };
        for (name, old_prop) in &old_props {
            let here = format!("{at}.properties.{name}");
            let was_required = old_required.contains(name) && carried(self.old, old_prop);
            let Some(new_prop) = new_props.get(name) else {
                match (d, was_required, carried(self.old, old_prop)) {
                    (Direction::Request, _, _) => self.push(
                        Level::Compatible,
                        &here,
                        "request property removed: clients that send it are ignored",
                    ),
                    (Direction::Response, _, false) => {
                        self.push(Level::Compatible, &here, "property removed (it was never sent)")
                    }
                    (Direction::Response, true, _) => self.push(
                        Level::Breaking,
                        &here,
                        "required response property removed: clients that read it fail",
                    ),
                    (Direction::Response, false, _) => self.push(
                        Level::Warning,
                        &here,
                        "optional response property removed: clients that read it no longer get it",
                    ),
                }
                continue;
            };
            let is_required = new_required.contains(name) && carried(self.new, new_prop);
            match (d, was_required, is_required) {
                (Direction::Request, false, true) => self.push(
                    Level::Breaking,
                    &here,
                    "request property became required: requests without it now fail",
                ),
                (Direction::Response, true, false) => self.push(
                    Level::Breaking,
                    &here,
                    "response property became optional: clients that read it may find none",
                ),
                (Direction::Response, false, true) if !carried(self.old, old_prop) => self.push(
                    Level::Warning,
                    &here,
                    "required response property is no longer writeOnly: clients now receive it",
                ),
                _ => {}
            }
            self.compare(&here, old_prop, new_prop, d, path);
        }
        for (name, new_prop) in new_props.iter().filter(|(name, _)| !old_props.contains_key(*name)) {
            let here = format!("{at}.properties.{name}");
            let is_required = new_required.contains(name) && carried(self.new, new_prop);
            match (d, is_required) {
                (Direction::Request, true) => self.push(
                    Level::Breaking,
                    &here,
                    "new required request property: requests without it now fail",
                ),
                (Direction::Request, false) => self.push(Level::Compatible, &here, "new optional request property"),
                (Direction::Response, _) => self.push(Level::Compatible, &here, "new response property"),
            }
        }
    }
}
