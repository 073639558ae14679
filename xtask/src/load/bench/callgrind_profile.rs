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
}

impl Profile {
    /// Reads callgrind's format: `fn=` starts a function's lines, a cost
    /// line is its own instructions unless it follows `calls=`, when it
    /// is the call's inclusive count; names are given once and then
    /// referred to by `(id)`.
    pub(super) fn read(text: &str) -> Profile {
        let mut profile = Profile::default();
        let mut names: HashMap<String, String> = HashMap::new();
        let mut name = |spec: &str| -> String {
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
        for line in text.lines() {
            if let Some(spec) = line.strip_prefix("fn=") {
                current = name(spec);
            } else if let Some(spec) = line.strip_prefix("cfn=") {
                callee = name(spec);
            } else if line.starts_with("calls=") {
                in_call = true;
            } else if line.starts_with(|c: char| c.is_ascii_digit() || "+-*".contains(c)) {
                let cost: u64 = line.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
                *profile.inclusive.entry(current.clone()).or_default() += cost;
                if in_call {
                    *profile.calls.entry((current.clone(), callee.clone())).or_default() += cost;
                    in_call = false;
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
}
