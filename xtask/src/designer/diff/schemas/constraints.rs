//! A schema's own keywords, compared by direction: type, format,
//! nullable, enums, default, bounds and pattern.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::designer::diff::differ::{Differ, Direction, Level, is_true, text};
use crate::designer::spec_json::items;

/// A bound and whether a larger value is the wider one (`maximum`) or the
/// narrower one (`minimum`).
const BOUNDS: [(&str, bool); 8] = [
    ("maximum", true),
    ("minimum", false),
    ("maxLength", true),
    ("minLength", false),
    ("maxItems", true),
    ("minItems", false),
    ("maxProperties", true),
    ("minProperties", false),
];

/// Patterns that allow any string: setting one removes a constraint.
fn allows_anything(pattern: Option<&str>) -> bool {
    matches!(
        pattern,
        None | Some("" | ".*" | "^.*$" | "^.*" | ".*$" | "(.*)" | "^(.*)$")
    )
}

impl Differ<'_> {
    /// Gives whether the types allow comparing further.
    pub(super) fn types(&mut self, at: &str, old: &Value, new: &Value, d: Direction) -> bool {
        let (o, n) = (text(old, "type"), text(new, "type"));
        if o == n {
            return true;
        }
        // A parameter's value travels as text: the server that reads a
        // string reads what clients sent as a number or a boolean, but
        // generated clients' argument types change.
        if self.in_parameter
            && d == Direction::Request
            && n == "string"
            && ["number", "integer", "boolean"].contains(&o.as_str())
        {
            self.push(
                Level::Warning,
                at,
                format!("type changed from `{o}` to `string`: the same text is accepted, but generated clients' argument types change"),
            );
            return false;
        }
        let level = match (d, o.as_str(), n.as_str()) {
            // Every integer is a number.
            (Direction::Request, "integer", "number") | (Direction::Response, "number", "integer") => Level::Compatible,
            (Direction::Request, _, "") | (Direction::Response, "", _) => Level::Compatible,
            (Direction::Request, "", _) | (Direction::Response, _, "") => Level::Warning,
            _ => Level::Breaking,
        };
        let show = |t: &str| {
            if t.is_empty() {
                "any".to_string()
            } else {
                format!("`{t}`")
            }
        };
        self.push(level, at, format!("type changed from {} to {}", show(&o), show(&n)));
        !(o.is_empty() || n.is_empty()) && level == Level::Compatible
    }

    pub(super) fn format(&mut self, at: &str, old: &Value, new: &Value, d: Direction) {
        let (o, n) = (text(old, "format"), text(new, "format"));
        if o == n {
            return;
        }
        let wider = |from: &str, to: &str| {
            matches!(
                (from, to),
                ("int32", "int64") | ("int32", "bigint") | ("int64", "bigint") | ("float", "double")
            )
        };
        let level = match d {
            _ if o.is_empty() => match d {
                Direction::Request => Level::Warning,
                Direction::Response => Level::Compatible,
            },
            _ if n.is_empty() => match d {
                Direction::Request => Level::Compatible,
                Direction::Response => Level::Warning,
            },
            Direction::Request if wider(&o, &n) => Level::Compatible,
            Direction::Response if wider(&n, &o) => Level::Compatible,
            _ => Level::Breaking,
        };
        let show = |f: &str| {
            if f.is_empty() {
                "none".to_string()
            } else {
                format!("`{f}`")
            }
        };
        self.push(level, at, format!("format changed from {} to {}", show(&o), show(&n)));
    }

    pub(super) fn nullable(&mut self, at: &str, old: &Value, new: &Value, d: Direction) {
        match (d, is_true(old.get("nullable")), is_true(new.get("nullable"))) {
            (Direction::Response, false, true) => {
                self.push(Level::Breaking, at, "may now be null: clients that read a value fail")
            }
            (Direction::Request, true, false) => self.push(Level::Breaking, at, "no longer accepts null"),
            (Direction::Response, true, false) => self.push(Level::Compatible, at, "no longer null"),
            (Direction::Request, false, true) => self.push(Level::Compatible, at, "now accepts null"),
            _ => {}
        }
    }

    /// A generated client reads an enum as a Rust enum without an
    /// "unknown" variant: a value added to a response breaks it (oasdiff
    /// only warns).
    pub(super) fn enumeration(&mut self, at: &str, old: &Value, new: &Value, d: Direction) {
        let values = |s: &Value| -> Option<BTreeSet<String>> {
            Some(s.get("enum")?.as_array()?.iter().map(Value::to_string).collect())
        };
        match (values(old), values(new), d) {
            (None, Some(_), Direction::Request) => self.push(
                Level::Breaking,
                at,
                "now restricted to an enum: other values sent before now fail",
            ),
            (None, Some(_), Direction::Response) => self.push(Level::Compatible, at, "now restricted to an enum"),
            (Some(_), None, Direction::Request) => self.push(Level::Compatible, at, "no longer restricted to an enum"),
            (Some(_), None, Direction::Response) => self.push(
                Level::Breaking,
                at,
                "no longer restricted to an enum: clients cannot read other values",
            ),
            (Some(o), Some(n), d) => {
                for removed in o.difference(&n) {
                    match d {
                        Direction::Request => self.push(
                            Level::Breaking,
                            at,
                            format!("enum value {removed} removed: requests with it now fail"),
                        ),
                        Direction::Response => {
                            self.push(Level::Compatible, at, format!("enum value {removed} no longer sent"))
                        }
                    }
                }
                for added in n.difference(&o) {
                    match d {
                        Direction::Request => self.push(Level::Compatible, at, format!("enum value {added} added")),
                        Direction::Response => self.push(
                            Level::Breaking,
                            at,
                            format!("enum value {added} added: clients cannot read it"),
                        ),
                    }
                }
            }
            (None, None, _) => {}
        }
    }

    /// `x-extensible-enum`: values clients must expect more of. Removing
    /// one from a request refuses what was allowed; adding one to a
    /// response is what the extension promises clients handle.
    pub(super) fn extensible_enumeration(&mut self, at: &str, old: &Value, new: &Value, d: Direction) {
        let values = |s: &Value| -> BTreeSet<String> { items(s, "x-extensible-enum").map(Value::to_string).collect() };
        let (o, n) = (values(old), values(new));
        for removed in o.difference(&n) {
            match d {
                Direction::Request => self.push(
                    Level::Breaking,
                    at,
                    format!("extensible enum value {removed} removed: requests with it now fail"),
                ),
                Direction::Response => self.push(
                    Level::Compatible,
                    at,
                    format!("extensible enum value {removed} no longer sent"),
                ),
            }
        }
        for added in n.difference(&o) {
            self.push(Level::Compatible, at, format!("extensible enum value {added} added"));
        }
    }

    /// A request's default is what the server assumes when a client leaves
    /// the value out: changing it changes what those requests mean.
    pub(super) fn default(&mut self, at: &str, old: &Value, new: &Value, d: Direction) {
        if d == Direction::Response {
            return;
        }
        match (old.get("default"), new.get("default")) {
            (Some(o), Some(n)) if o != n => self.push(
                Level::Breaking,
                at,
                format!("default changed from {o} to {n}: requests that leave it out now mean another thing"),
            ),
            (Some(o), None) => self.push(
                Level::Warning,
                at,
                format!("default {o} removed: what a request that leaves it out means is no longer stated"),
            ),
            (None, Some(n)) => self.push(Level::Compatible, at, format!("default {n} stated")),
            _ => {}
        }
    }

    pub(super) fn bounds(&mut self, at: &str, old: &Value, new: &Value, d: Direction) {
        let number = |s: &Value, key: &str| s.get(key).and_then(Value::as_f64);
        for (key, larger_is_wider) in BOUNDS {
            let (o, n) = (number(old, key), number(new, key));
            let narrower = match (o, n) {
                (Some(o), Some(n)) if o == n => continue,
                (Some(o), Some(n)) => (n > o) != larger_is_wider,
                (None, Some(_)) => true,
                (Some(_), None) => false,
                (None, None) => continue,
            };
            let show = |v: Option<f64>| v.map_or("none".to_string(), |v| v.to_string());
            let change = format!("{key} {} -> {}", show(o), show(n));
            let (level, message) = match (d, narrower, o.is_some()) {
                (Direction::Request, true, true) => (
                    Level::Breaking,
                    format!("narrowed: {change}: values sent before may now fail"),
                ),
                // oasdiff warns here: the bound may only state what the
                // server already refused.
                (Direction::Request, true, false) => (
                    Level::Warning,
                    format!("bound set: {change}: values beyond it now fail"),
                ),
                (Direction::Request, false, _) => (Level::Compatible, format!("widened: {change}")),
                (Direction::Response, true, _) => (Level::Compatible, format!("narrowed: {change}")),
                (Direction::Response, false, _) => (
                    Level::Breaking,
                    format!("widened: {change}: clients that check the old bound (generated types do) may fail"),
                ),
            };
            self.push(level, at, message);
        }
        for key in ["exclusiveMaximum", "exclusiveMinimum", "uniqueItems"] {
            let (o, n) = (is_true(old.get(key)), is_true(new.get(key)));
            let level = match (d, o, n) {
                (_, o, n) if o == n => continue,
                (Direction::Request, false, true) | (Direction::Response, true, false) => Level::Breaking,
                _ => Level::Compatible,
            };
            self.push(level, at, format!("{key} changed from {o} to {n}"));
        }
        let multiple = |s: &Value| s.get("multipleOf").and_then(Value::as_f64);
        match (multiple(old), multiple(new)) {
            (Some(o), Some(n)) if o == n => {}
            (o, n) if o.is_some() || n.is_some() => {
                let divides = |a: f64, b: f64| b != 0.0 && (a / b).fract() == 0.0;
                // A multiple of the old multiple narrows; a divisor widens.
                let narrower = match (o, n) {
                    (Some(o), Some(n)) if divides(n, o) => Some(true),
                    (Some(o), Some(n)) if divides(o, n) => Some(false),
                    (None, Some(_)) => Some(true),
                    (Some(_), None) => Some(false),
                    _ => None,
                };
                let level = match (d, narrower) {
                    (_, None) => Level::Warning,
                    (Direction::Request, Some(true)) | (Direction::Response, Some(false)) => Level::Breaking,
                    _ => Level::Compatible,
                };
                let show = |v: Option<f64>| v.map_or("none".to_string(), |v| v.to_string());
                self.push(level, at, format!("multipleOf changed from {} to {}", show(o), show(n)));
            }
            _ => {}
        }
    }

    /// Two different regular expressions cannot be compared: a warning.
    /// A pattern gone, or one that allows anything, widens.
    pub(super) fn pattern(&mut self, at: &str, old: &Value, new: &Value, d: Direction) {
        let (o, n) = (
            old.get("pattern").and_then(Value::as_str),
            new.get("pattern").and_then(Value::as_str),
        );
        if o == n {
            return;
        }
        let widened = allows_anything(n);
        let narrowed = allows_anything(o) && !widened;
        let show = |p: Option<&str>| p.map_or("none".to_string(), |p| format!("`{p}`"));
        let change = format!("pattern {} -> {}", show(o), show(n));
        let (level, message) = match d {
            Direction::Request if narrowed => (
                Level::Breaking,
                format!("narrowed: {change}: values sent before may now fail"),
            ),
            Direction::Request if widened => (Level::Compatible, format!("widened: {change}")),
            Direction::Response if widened => (
                Level::Breaking,
                format!("widened: {change}: clients that check the old pattern (generated types do) may fail"),
            ),
            Direction::Response if narrowed => (Level::Compatible, format!("narrowed: {change}")),
            _ => (
                Level::Warning,
                format!("{change}: whether it accepts what the old one did cannot be told"),
            ),
        };
        self.push(level, at, message);
    }
}
