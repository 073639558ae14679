//! A callgrind output file read back: each function's inclusive count and
//! what each call from one function to another cost, so that a part of
//! the request made of several functions is counted once even where one
//! of them calls another. A leaf: it reads text, nothing else of the bench.

use std::collections::HashMap;

/// One callgrind run's counts (instructions, the only event recorded).
#[derive(Debug, Default)]
pub(super) struct Profile {
    /// Instructions of each function with everything it called.
    inclusive: HashMap<String, u64>,
    /// Instructions of the calls from the first function to the second.
    calls: HashMap<(String, String), u64>,
    /// Instructions of each function itself, without what it called.
    own: HashMap<String, u64>,
    /// The file (executable or library) each function is in.
    object: HashMap<String, String>,
}

impl Profile {
    /// Reads callgrind's format: `fn=` starts a function's lines, a cost
    /// line is its own instructions unless it follows `calls=`, when it
    /// is the call's inclusive count; `ob=` names the file of the
    /// functions after it; names are given once and then referred to by
    /// `(id)`, functions' and files' each in their own space.
    pub(super) fn read(text: &str) -> Profile {
        let mut profile = Profile::default();
        let mut names: HashMap<String, String> = HashMap::new();
        let mut objects: HashMap<String, String> = HashMap::new();
        let name = |names: &mut HashMap<String, String>, spec: &str| -> String {
            let spec = spec.trim();
            let Some(rest) = spec.strip_prefix('(') else {
                return spec.to_string();
            };
            let (id, given) = rest.split_once(')').unwrap_or((rest, ""));
            let given = given.trim();
            if !given.is_empty() {
                names.insert(id.to_string(), given.to_string());
            }
            names.get(id).cloned().unwrap_or_default()
        };
        let (mut current, mut callee, mut in_call) = (String::new(), String::new(), false);
        let mut object = String::new();
        for line in text.lines() {
            if let Some(spec) = line.strip_prefix("ob=") {
                object = name(&mut objects, spec);
            } else if let Some(spec) = line.strip_prefix("cob=") {
                // Defines an id for later `ob=` lines; the file of a callee.
                name(&mut objects, spec);
            } else if let Some(spec) = line.strip_prefix("fn=") {
                current = name(&mut names, spec);
                profile.object.entry(current.clone()).or_insert_with(|| object.clone());
            } else if let Some(spec) = line.strip_prefix("cfn=") {
                callee = name(&mut names, spec);
            } else if line.starts_with("calls=") {
                in_call = true;
            } else if line.starts_with(|c: char| c.is_ascii_digit() || "+-*".contains(c)) {
                let cost: u64 = line.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
                *profile.inclusive.entry(current.clone()).or_default() += cost;
                if in_call {
                    *profile.calls.entry((current.clone(), callee.clone())).or_default() += cost;
                    in_call = false;
                } else {
                    *profile.own.entry(current.clone()).or_default() += cost;
                }
            }
        }
        profile
    }

    /// Instructions in the functions whose names contain one of
    /// `patterns` and in what they called, each counted once: a call from
    /// one of them to another is already in the caller's count.
    pub(super) fn part(&self, patterns: &[&str]) -> u64 {
        let matches = |name: &str| patterns.iter().any(|p| name.contains(p));
        let inclusive: u64 = self.inclusive.iter().filter(|(f, _)| matches(f)).map(|(_, c)| c).sum();
        let nested: u64 = self
            .calls
            .iter()
            .filter(|((from, to), _)| matches(from) && matches(to))
            .map(|(_, c)| c)
            .sum();
        inclusive.saturating_sub(nested)
    }

    /// The functions of the file whose path ends with `file` that ran,
    /// each with its own instructions (what it called not counted).
    pub(super) fn functions_in(&self, file: &str) -> Vec<(&str, u64)> {
        self.object
            .iter()
            .filter(|(_, object)| object.ends_with(file))
            .map(|(function, _)| (function.as_str(), self.own.get(function).copied().unwrap_or(0)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::Profile;

    const TEXT: &str = "events: Ir\n\
        fn=(1) main\n\
        0 10\n\
        cfn=(2) outer\n\
        calls=1 0\n\
        0 70\n\
        fn=(2)\n\
        0 20\n\
        cfn=(3) inner\n\
        calls=2 0\n\
        0 50\n\
        fn=(3)\n\
        +1 50\n\
        totals: 80\n";

    #[test]
    fn parts_count_nested_functions_once() {
        let profile = Profile::read(TEXT);
        assert_eq!(profile.part(&["main"]), 80);
        assert_eq!(profile.part(&["outer"]), 70);
        assert_eq!(profile.part(&["inner"]), 50);
        // inner is inside outer: counted once.
        assert_eq!(profile.part(&["outer", "inner"]), 70);
        assert_eq!(profile.part(&["nowhere"]), 0);
    }

    #[test]
    fn functions_are_listed_by_file_with_their_own_instructions() {
        let text = "events: Ir\n\
            ob=(1) /bin/server\n\
            fn=(1) main\n\
            0 10\n\
            cob=(2) /lib/libc.so.6\n\
            cfn=(2) write\n\
            calls=1 0\n\
            0 70\n\
            ob=(2)\n\
            fn=(2)\n\
            0 70\n\
            ob=(1)\n\
            fn=(3) helper\n\
            0 5\n";
        let profile = Profile::read(text);
        let mut functions = profile.functions_in("/bin/server");
        functions.sort();
        assert_eq!(functions, [("helper", 5), ("main", 10)]);
        assert_eq!(profile.functions_in("libc.so.6"), [("write", 70)]);
    }
}
