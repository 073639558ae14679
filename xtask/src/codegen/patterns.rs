//! A schema's `pattern`, as the generated layer checks it. JSON Schema's
//! patterns are ECMA-262 regular expressions read in Unicode mode; the
//! validator (jsonschema) translates them into Rust's `regex` where it
//! can, and refuses the rest (a lookbehind's quirks, `\p\{L\}` read as
//! the ECMA-262 identity escapes it is). A pattern it refuses is checked
//! by [`ECMA_PATTERN`] instead, read by regress, an ECMA-262 engine
//! (Unicode mode, or the legacy mode where only that reads it), which the
//! runtime registers as a keyword of its own. Patterns written in
//! another dialect (`\A`, `\Z`, `(?i)`, POSIX classes such as
//! `\p{Punct}`) are translated into ECMA-262 where the meaning is the
//! same ([`translated`]), a mistake tolerated with a warning. A leaf.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The keyword a pattern only regress reads is checked by (the runtime's
/// `api_runtime::schema` registers it).
pub const ECMA_PATTERN: &str = "x-ecma-pattern";

/// How a pattern is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// By the validator itself (`pattern`).
    Validator,
    /// By regress ([`ECMA_PATTERN`]).
    Ecma,
    /// By neither.
    Unread,
}

/// How the generated layer reads `pattern` (cached: real documents
/// repeat theirs).
pub fn reading(pattern: &str) -> Reading {
    static CACHE: OnceLock<Mutex<HashMap<String, Reading>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(known) = cache.lock().expect("no panic holds it").get(pattern) {
        return *known;
    }
    let schema = serde_json::json!({"pattern": pattern});
    let reading = match jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&schema)
    {
        Ok(_) => Reading::Validator,
        Err(_) if ecma_reads(pattern) => Reading::Ecma,
        Err(_) => Reading::Unread,
    };
    cache
        .lock()
        .expect("no panic holds it")
        .insert(pattern.to_string(), reading);
    reading
}

/// Whether `pattern` is ECMA-262 as JSON Schema reads it: in Unicode mode.
pub fn is_unicode_ecma(pattern: &str) -> bool {
    regress::Regex::with_flags(pattern, "u").is_ok()
}

/// Whether typify's types read `pattern` as the layer does: they check it
/// with regress in the legacy mode, where `\p{Letter}` is `p{Letter}`,
/// not a letter. Where they would not, the type does not check it (the
/// layer has).
pub fn typify_reads_alike(pattern: &str) -> bool {
    let unicode_only = ["\\p", "\\P", "\\u{"].iter().any(|escape| pattern.contains(escape));
    !unicode_only && regress::Regex::new(pattern).is_ok()
}

/// Whether regress reads `pattern`, in Unicode mode or the legacy one.
pub fn ecma_reads(pattern: &str) -> bool {
    regress::Regex::with_flags(pattern, "u").is_ok() || regress::Regex::new(pattern).is_ok()
}

/// `pattern` in ECMA-262, where it is written in another dialect whose
/// meaning ECMA-262 can say: `\A` and `\Z`/`\z` (the text's start and
/// end) as `^` and `$`; a leading `(?i)` as each letter in both cases;
/// POSIX classes (`\p{Punct}`, `\p{Alpha}`, ...) as their ASCII sets.
/// `None` when nothing was translated.
pub fn translated(pattern: &str) -> Option<String> {
    let (body, insensitive) = match pattern.strip_prefix("(?i)") {
        Some(rest) => (rest, true),
        None => (pattern, false),
    };
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    let mut in_class = false;
    let mut changed = insensitive;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(next) = chars.next() else {
                    out.push('\\');
                    break;
                };
                match next {
                    'A' if !in_class => {
                        out.push('^');
                        changed = true;
                    }
                    'Z' | 'z' if !in_class => {
                        out.push('$');
                        changed = true;
                    }
                    'p' | 'P' if chars.peek() == Some(&'{') => {
                        let name: String = chars.by_ref().skip(1).take_while(|c| *c != '}').collect();
                        match posix_class(&name) {
                            Some(set) => {
                                let negated = next == 'P';
                                out.push_str(&match (in_class, negated) {
                                    (true, false) => set.to_string(),
                                    (false, false) => format!("[{set}]"),
                                    (false, true) => format!("[^{set}]"),
                                    // A negated class inside a class has no ASCII set form.
                                    (true, true) => return None,
                                });
                                changed = true;
                            }
                            None => out.push_str(&format!("\\{next}{{{name}}}")),
                        }
                    }
                    other => {
                        out.push('\\');
                        out.push(other);
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push(c);
            }
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            c if insensitive && c.is_ascii_alphabetic() => {
                let (lower, upper) = (c.to_ascii_lowercase(), c.to_ascii_uppercase());
                let mut ahead = chars.clone();
                match (in_class, ahead.next(), ahead.next()) {
                    // A range of letters, in both cases.
                    (true, Some('-'), Some(end)) if end.is_ascii_alphabetic() => {
                        chars.next();
                        chars.next();
                        let (end_lower, end_upper) = (end.to_ascii_lowercase(), end.to_ascii_uppercase());
                        out.push_str(&format!("{lower}-{end_lower}{upper}-{end_upper}"));
                    }
                    (true, _, _) => {
                        out.push(lower);
                        out.push(upper);
                    }
                    (false, _, _) => out.push_str(&format!("[{lower}{upper}]")),
                }
            }
            c => out.push(c),
        }
    }
    changed.then_some(out)
}

/// A POSIX (Java's `\p{…}`) class's ASCII set, as a class's content.
fn posix_class(name: &str) -> Option<&'static str> {
    Some(match name {
        "Punct" => r"!-\/:-@\[-`{-~",
        "Alpha" => "A-Za-z",
        "Digit" => "0-9",
        "Alnum" => "A-Za-z0-9",
        "Upper" => "A-Z",
        "Lower" => "a-z",
        "Space" => r" \t\n\x0B\f\r",
        "XDigit" => "0-9A-Fa-f",
        "Blank" => r" \t",
        "Cntrl" => r"\x00-\x1F\x7F",
        "Graph" => r"!-~",
        "Print" => r" -~",
        "ASCII" => r"\x00-\x7F",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_dialect_is_translated_where_the_meaning_is_the_same() {
        assert_eq!(translated(r"\A[a-z]+\Z").as_deref(), Some("^[a-z]+$"));
        assert_eq!(translated("(?i)ab[c-dx]").as_deref(), Some("[aA][bB][c-dC-DxX]"));
        assert_eq!(translated(r"^\p{Punct}+$").as_deref(), Some(r"^[!-\/:-@\[-`{-~]+$"));
        assert_eq!(translated(r"^[\p{Alpha}_]$").as_deref(), Some("^[A-Za-z_]$"));
        assert_eq!(translated(r"^\p{L}+$"), None);
        assert_eq!(translated("^plain$"), None);
    }

    #[test]
    fn each_pattern_is_read_by_an_engine_that_reads_it() {
        assert_eq!(reading("^a*$"), Reading::Validator);
        assert_eq!(reading(r"^\p{Letter}+$"), Reading::Validator);
        // ECMA-262's identity escapes, which the translation refuses.
        assert_eq!(reading(r"^\([\p\{L\}\p\{Z\}_.:\/=\+\-@]*\)$"), Reading::Ecma);
        assert_eq!(reading("(?<"), Reading::Unread);
    }
}
