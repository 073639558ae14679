//! How schemas compare: what a client may send or receive, by direction.

use serde_json::Value;

use std::collections::BTreeSet;

use super::{Compatibility, Differ, Direction, is_true, text};
use crate::designer::spec_json::{items, resolve};

impl Differ<'_> {
    /// Compares two schemas reached the same way; `depth` guards against
    /// recursive schemas.
    pub(super) fn schema(&mut self, at: &str, old: &Value, new: &Value, direction: Direction, depth: usize) {
        if depth > 16 {
            return;
        }
        let (old, new) = (resolve(self.old, old), resolve(self.new, new));
        let breaking = Compatibility::Breaking;
        let (old_type, new_type) = (text(old, "type"), text(new, "type"));
        if old_type != new_type {
            self.push(breaking, at, format!("type changed from `{old_type}` to `{new_type}`"));
            return;
        }
        let (old_format, new_format) = (text(old, "format"), text(new, "format"));
        if old_format != new_format {
            self.push(
                breaking,
                at,
                format!("format changed from `{old_format}` to `{new_format}`"),
            );
        }
        match (direction, is_true(old.get("nullable")), is_true(new.get("nullable"))) {
            (Direction::Output, false, true) => self.push(breaking, at, "may now be null"),
            (Direction::Input, true, false) => self.push(breaking, at, "no longer accepts null"),
            _ => {}
        }
        self.enumeration(at, old, new, direction);
        if direction == Direction::Input {
            self.bounds(at, old, new);
        }
        if let (Some(o), Some(n)) = (old.get("items"), new.get("items")) {
            self.schema(&format!("{at}.items"), o, n, direction, depth + 1);
        }
        self.properties(at, old, new, direction, depth);
    }

    fn enumeration(&mut self, at: &str, old: &Value, new: &Value, direction: Direction) {
        let values = |s: &Value| -> Option<BTreeSet<String>> {
            Some(s.get("enum")?.as_array()?.iter().map(Value::to_string).collect())
        };
        match (values(old), values(new), direction) {
            (None, Some(_), Direction::Input) => self.push(Compatibility::Breaking, at, "now restricted to an enum"),
            (Some(o), Some(n), Direction::Input) => {
                for removed in o.difference(&n) {
                    self.push(Compatibility::Breaking, at, format!("enum value {removed} removed"));
                }
                for added in n.difference(&o) {
                    self.push(Compatibility::Compatible, at, format!("enum value {added} added"));
                }
            }
            (Some(o), Some(n), Direction::Output) => {
                for added in n.difference(&o) {
                    self.push(
                        Compatibility::Breaking,
                        at,
                        format!("enum value {added} added (old clients cannot read it)"),
                    );
                }
                for removed in o.difference(&n) {
                    self.push(
                        Compatibility::Compatible,
                        at,
                        format!("enum value {removed} no longer sent"),
                    );
                }
            }
            (Some(_), None, Direction::Output) => {
                self.push(Compatibility::Breaking, at, "no longer restricted to an enum")
            }
            _ => {}
        }
    }

    /// Input only: does the server now accept less than before?
    fn bounds(&mut self, at: &str, old: &Value, new: &Value) {
        let number = |s: &Value, key: &str| s.get(key).and_then(Value::as_f64);
        for (key, tighter) in [
            ("maximum", (|o: f64, n: f64| n < o) as fn(f64, f64) -> bool),
            ("minimum", |o, n| n > o),
            ("maxLength", |o, n| n < o),
            ("minLength", |o, n| n > o),
            ("maxItems", |o, n| n < o),
            ("minItems", |o, n| n > o),
        ] {
            match (number(old, key), number(new, key)) {
                (None, Some(n)) => self.push(Compatibility::Breaking, at, format!("narrowed: new {key} {n}")),
                (Some(o), Some(n)) if tighter(o, n) => {
                    self.push(Compatibility::Breaking, at, format!("narrowed: {key} {o} -> {n}"));
                }
                _ => {}
            }
        }
        if new.get("pattern").is_some() && old.get("pattern") != new.get("pattern") {
            self.push(Compatibility::Breaking, at, "narrowed: new or changed pattern");
        }
    }

    fn properties(&mut self, at: &str, old: &Value, new: &Value, direction: Direction, depth: usize) {
        let props = |s: &Value| {
            s.get("properties")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default()
        };
        let required = |s: &Value| -> BTreeSet<String> {
            items(s, "required")
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        };
        let (old_props, new_props) = (props(old), props(new));
        let (old_required, new_required) = (required(old), required(new));
        for (name, old_prop) in &old_props {
            let here = format!("{at}.properties.{name}");
            match (new_props.get(name), direction) {
                (None, Direction::Output) => self.push(Compatibility::Breaking, &here, "response field removed"),
                (None, Direction::Input) => self.push(Compatibility::Compatible, &here, "request field removed"),
                (Some(new_prop), _) => self.schema(&here, old_prop, new_prop, direction, depth + 1),
            }
        }
        for name in new_props.keys().filter(|n| !old_props.contains_key(*n)) {
            let here = format!("{at}.properties.{name}");
            match (direction, new_required.contains(name)) {
                (Direction::Input, true) => self.push(Compatibility::Breaking, &here, "new required request field"),
                (Direction::Input, false) => self.push(Compatibility::Compatible, &here, "new optional request field"),
                (Direction::Output, _) => self.push(Compatibility::Compatible, &here, "response field added"),
            }
        }
        for name in old_props.keys().filter(|n| new_props.contains_key(*n)) {
            let here = format!("{at}.properties.{name}");
            match (direction, old_required.contains(name), new_required.contains(name)) {
                (Direction::Output, true, false) => {
                    self.push(Compatibility::Breaking, &here, "response field no longer required")
                }
                (Direction::Input, false, true) => {
                    self.push(Compatibility::Breaking, &here, "request field became required")
                }
                _ => {}
            }
        }
    }
}
