//! `oneOf`, `anyOf` and `allOf`: their members paired (by component name,
//! or by position), each pair compared, and what was added or removed
//! judged by direction.

use serde_json::Value;

use super::schema_ref;
use crate::designer::diff::differ::{Differ, Direction, Level};

/// The alternatives of a `oneOf` or `anyOf`, and which keyword.
pub(super) fn alternatives(schema: &Value) -> Option<(&'static str, &Vec<Value>)> {
    ["oneOf", "anyOf"]
        .into_iter()
        .find_map(|key| schema.get(key).and_then(Value::as_array).map(|list| (key, list)))
}

/// Two lists of members (of a `oneOf`, `anyOf` or `allOf`) paired.
struct Members<'a> {
    /// Index in the new list, old member, new member.
    pairs: Vec<(usize, &'a Value, &'a Value)>,
    /// Only in the old list, with its index there.
    removed: Vec<(usize, &'a Value)>,
    /// Only in the new list, with its index there.
    added: Vec<(usize, &'a Value)>,
}

/// Pairs the members of two lists: by component name where a member is a
/// `$ref`, by position otherwise.
fn pair_members<'a>(old: &'a [Value], new: &'a [Value]) -> Members<'a> {
    let mut pairs = Vec::new();
    let mut taken = vec![false; new.len()];
    let mut removed = Vec::new();
    for (i, o) in old.iter().enumerate() {
        let found = match schema_ref(o) {
            Some(name) => new.iter().position(|n| schema_ref(n) == Some(name)),
            None => (i < new.len() && schema_ref(&new[i]).is_none()).then_some(i),
        };
        match found.filter(|j| !taken[*j]) {
            Some(j) => {
                taken[j] = true;
                pairs.push((j, o, &new[j]));
            }
            None => removed.push((i, o)),
        }
    }
    let added = new.iter().enumerate().filter(|(j, _)| !taken[*j]).collect();
    Members { pairs, removed, added }
}

fn describe_member(member: &Value) -> String {
    match schema_ref(member) {
        Some(name) => format!("`{name}`"),
        None => "an inline schema".to_string(),
    }
}

impl Differ<'_> {
    /// `oneOf`/`anyOf`. Gives whether to go on comparing the schemas'
    /// own keywords.
    pub(super) fn alternatives(
        &mut self,
        at: &str,
        old: &Value,
        new: &Value,
        d: Direction,
        path: &mut Vec<(String, String)>,
    ) -> bool {
        match (alternatives(old), alternatives(new)) {
            (None, None) => true,
            (None, Some((key, _))) => {
                self.push(
                    Level::Breaking,
                    at,
                    format!("the schema is now wrapped in a `{key}`: generated types change, and values of the old shape may not match"),
                );
                false
            }
            (Some((key, _)), None) => {
                self.push(
                    Level::Breaking,
                    at,
                    format!("the schema is no longer a `{key}`: generated types change"),
                );
                false
            }
            (Some((old_key, old_list)), Some((new_key, new_list))) => {
                if old_key != new_key {
                    self.push(Level::Warning, at, format!("`{old_key}` became `{new_key}`"));
                }
                let members = pair_members(old_list, new_list);
                // A choice: one gone refuses requests of its shape; one
                // added is a shape clients cannot read.
                let wording = Wording {
                    removed_breaking: "alternative {} removed: requests of that shape now fail",
                    removed: "alternative {} is no longer sent",
                    added: "new alternative {} accepted",
                    added_breaking: "new alternative {} may be sent: clients cannot read it",
                };
                let keys = (format!("{at}.{old_key}"), format!("{at}.{new_key}"));
                self.unpaired(keys, &members, d, Direction::Request, &wording);
                for (j, o, n) in members.pairs {
                    self.compare(&format!("{at}.{new_key}.{j}"), o, n, d, path);
                }
                self.discriminator(at, old, new);
                true
            }
        }
    }

    fn discriminator(&mut self, at: &str, old: &Value, new: &Value) {
        let property = |s: &Value| {
            s.pointer("/discriminator/propertyName")
                .and_then(Value::as_str)
                .map(String::from)
        };
        match (property(old), property(new)) {
            (None, Some(name)) => self.push(
                Level::Compatible,
                &format!("{at}.discriminator"),
                format!("discriminator `{name}` added"),
            ),
            (Some(name), None) => self.push(
                Level::Warning,
                &format!("{at}.discriminator"),
                format!("discriminator `{name}` removed: clients that chose the alternative by it must match by shape"),
            ),
            (Some(o), Some(n)) if o != n => self.push(
                Level::Breaking,
                &format!("{at}.discriminator"),
                format!("discriminator property changed from `{o}` to `{n}`"),
            ),
            _ => {}
        }
    }

    /// `allOf`: every part must hold. A part added to a request is a new
    /// condition on what clients send; a part removed from a response is a
    /// promise gone.
    pub(super) fn all_of(
        &mut self,
        at: &str,
        old: &Value,
        new: &Value,
        d: Direction,
        path: &mut Vec<(String, String)>,
    ) {
        let list = |s: &Value| s.get("allOf").and_then(Value::as_array).cloned().unwrap_or_default();
        let (old_list, new_list) = (list(old), list(new));
        if old_list.is_empty() && new_list.is_empty() {
            return;
        }
        let members = pair_members(&old_list, &new_list);
        // Conditions that all hold: one added to a request is one more
        // to meet; one removed from a response is a promise gone.
        let wording = Wording {
            removed_breaking: "part {} removed: responses may no longer hold it",
            removed: "part {} removed: fewer conditions on requests",
            added: "part {} added",
            added_breaking: "part {} added: requests must now also match it",
        };
        let keys = (format!("{at}.allOf"), format!("{at}.allOf"));
        self.unpaired(keys, &members, d, Direction::Response, &wording);
        for (j, o, n) in members.pairs {
            self.compare(&format!("{at}.allOf.{j}"), o, n, d, path);
        }
    }

    /// The members only one list has (each at its own list's index):
    /// a removed one breaks clients in `removal_breaks`, an added one in
    /// the other direction.
    fn unpaired(
        &mut self,
        (old_at, new_at): (String, String),
        members: &Members<'_>,
        d: Direction,
        removal_breaks: Direction,
        wording: &Wording,
    ) {
        for (i, member) in &members.removed {
            let (level, message) = match d == removal_breaks {
                true => (Level::Breaking, wording.removed_breaking),
                false => (Level::Compatible, wording.removed),
            };
            self.push(
                level,
                &format!("{old_at}.{i}"),
                message.replace("{}", &describe_member(member)),
            );
        }
        for (j, member) in &members.added {
            let (level, message) = match d == removal_breaks {
                true => (Level::Compatible, wording.added),
                false => (Level::Breaking, wording.added_breaking),
            };
            self.push(
                level,
                &format!("{new_at}.{j}"),
                message.replace("{}", &describe_member(member)),
            );
        }
    }
}

/// What a member only one side has means, `{}` standing for the member.
struct Wording {
    removed_breaking: &'static str,
    removed: &'static str,
    added: &'static str,
    added_breaking: &'static str,
}
