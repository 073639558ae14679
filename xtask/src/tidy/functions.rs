//! No hand-written function over [`MAX_FUNCTION_LINES`] lines: past it a
//! function is a long template or a long list of rules, read only by
//! scrolling. Tests aside (files under a `tests/` folder, inline unit
//! tests): a test's table of cases is read as a table.
//!
//! A function is `fn name` to its body's closing brace, found by counting
//! braces in the code with its comments, strings and characters blanked
//! ([`super::code`]).

use super::code::code_without_tests;
use super::{assert_none, hand_written_sources, read};

/// The longest a hand-written function may be, in lines.
const MAX_FUNCTION_LINES: usize = 150;

/// The functions allowed past [`MAX_FUNCTION_LINES`], each with why it is
/// one piece. None today.
const LONG_FUNCTIONS: &[(&str, &str)] = &[];

/// Each function of `text` with a body: its name, first line (from 1) and
/// length in lines.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let code = code_without_tests(text);
    let bytes = code.as_bytes();
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("fn ").map(|a| a + from) {
        from = at + 3;
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
            continue;
        }
        let name: String = code[from..]
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        // The body opens at the first `{` outside the signature's brackets;
        // a `;` first is a declaration without one.
        let mut depth = 0i32;
        let mut open = None;
        for (i, byte) in bytes.iter().enumerate().skip(from) {
            match byte {
                b'(' | b'[' | b'<' => depth += 1,
                b')' | b']' | b'>' if !(*byte == b'>' && bytes[i - 1] == b'-') => depth -= 1,
                b';' if depth <= 0 => break,
                b'{' if depth <= 0 => {
                    open = Some(i);
                    break;
                }
                _ => {}
            }
        }
        let Some(open) = open else { continue };
        let mut braces = 0;
        let close = (open..bytes.len()).find(|&i| {
            match bytes[i] {
                b'{' => braces += 1,
                b'}' => braces -= 1,
                _ => {}
            }
            braces == 0
        });
        let close = close.unwrap_or(bytes.len() - 1);
        found.push((name, line_of(at), line_of(close) - line_of(at) + 1));
    }
    found
}

#[test]
fn no_hand_written_function_is_over_the_line_limit() {
    let offenders = hand_written_sources()
        .into_iter()
        .filter(|path| path.ends_with(".rs") && !path.split('/').any(|part| part == "tests"))
        .flat_map(|path| {
            functions(&read(&path))
                .into_iter()
                .filter(|(_, _, lines)| *lines > MAX_FUNCTION_LINES)
                .map(move |(name, line, lines)| {
                    (
                        format!("{path}::{name}"),
                        format!("{path}:{line}: `{name}`, {lines} lines"),
                    )
                })
        })
        .filter(|(function, _)| !LONG_FUNCTIONS.iter().any(|(allowed, _)| allowed == function))
        .map(|(_, offender)| offender)
        .collect();
    assert_none(
        &format!("these functions are over {MAX_FUNCTION_LINES} lines (split them into named steps)"),
        offenders,
    );
}

#[test]
fn a_long_function_is_measured_past_braces_in_strings_and_comments() {
    let body = "    let x = 1;\n".repeat(3);
    let text = format!(
        "fn short() -> Vec<u8> {{ vec![] }}\n\
         /// A brace in a doc: {{\n\
         fn long<T: Fn() -> u8>(t: T) {{\n{body}    let s = \"}}}}\"; let c = '}}'; let r = r#\"}}\"#;\n    // }}\n    fn inner() {{}}\n}}\n\
         fn declared();\n\
         fn after<'a>(x: &'a str) -> &'a str {{ x }}\n"
    );
    let found = functions(&text);
    let lengths: Vec<(&str, usize, usize)> = found.iter().map(|(n, l, c)| (n.as_str(), *l, *c)).collect();
    assert_eq!(
        lengths,
        vec![("short", 1, 1), ("long", 3, 8), ("inner", 9, 1), ("after", 12, 1)]
    );
}
