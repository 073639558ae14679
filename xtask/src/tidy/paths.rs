//! The paths a Rust file names, for the circle test ([`super::circles`]):
//! its `use` trees expanded, and the paths in its code that start at
//! `crate`, `super`, `self` or a child it declares; comments, strings,
//! inline unit tests and token templates left out.

use std::collections::BTreeSet;

use super::code::code_without_tests;

/// The text a file's edges are read from: no comments or strings, no
/// inline unit tests ([`super::code`]), no token templates, and `pub(in path)` (a visibility, not a
/// use) taken out.
pub(super) fn code_of(text: &str) -> String {
    let mut code = without_templates(&code_without_tests(text));
    while let Some(at) = code.find("pub(in ") {
        let end = code[at..].find(')').map_or(code.len(), |e| at + e + 1);
        code.replace_range(at..end, "pub");
    }
    code
}

/// `code` without the insides of its token templates (`quote!`,
/// `parse_quote!`): the paths there are the generated crate's.
fn without_templates(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("quote!") {
        let (before, after) = rest.split_at(at + "quote!".len());
        out.push_str(before);
        let open = after.trim_start();
        let Some(opening) = open.chars().next().filter(|c| "{([".contains(*c)) else {
            rest = after;
            continue;
        };
        let closing = match opening {
            '{' => '}',
            '(' => ')',
            _ => ']',
        };
        let mut depth = 0usize;
        let end = open.char_indices().find_map(|(i, c)| {
            if c == opening {
                depth += 1;
            } else if c == closing {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            None
        });
        let end = end.unwrap_or(open.len());
        out.push(opening);
        out.push(closing);
        rest = &open[end..];
    }
    out.push_str(rest);
    out
}

/// Every path a file's `use` declarations and code name, as segments:
/// `use a::{b, c::d}` gives `a::b` and `a::c::d`; in code, a path from
/// `crate`, `super`, `self` or one of the file's `children`.
pub(super) fn paths_in(code: &str, children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    // The code without its `use` declarations, for the paths in code.
    let mut elsewhere = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().last();
        elsewhere.push_str(&rest[..at]);
        rest = &rest[at + 4..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            elsewhere.push_str("use ");
            continue;
        }
        let Some(end) = rest.find(';') else { break };
        // `a as b` is `a`; `@` stands for it once the spaces are gone.
        let declaration: String = rest[..end]
            .replace(" as ", "@")
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        expand(&declaration, &[], &mut paths);
        rest = &rest[end..];
    }
    elsewhere.push_str(rest);
    // In code, a path starts at `crate`, `super`, `self` or a child the
    // file declares (`child::run()`, no `use` needed); any other first
    // segment is another crate's or a local name's.
    let mut from = 0;
    while let Some(at) = elsewhere[from..].find("::").map(|a| a + from) {
        from = at + 2;
        let head = &elsewhere[..at];
        let first = head
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(head, |start| &head[start + 1..]);
        let start = at - first.len();
        if elsewhere[..start].ends_with("::") {
            continue;
        }
        if ["crate", "super", "self"].contains(&first) || children.contains(first) {
            let path: String = elsewhere[start..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            paths.push(segments(&path));
        }
    }
    paths
}

fn segments(path: &str) -> Vec<String> {
    path.split("::")
        .filter(|s| !s.is_empty() && *s != "*")
        .map(str::to_string)
        .collect()
}

/// `a::{b, c::{d, e}}` under `base`, each leaf as a path.
fn expand(tree: &str, base: &[String], out: &mut Vec<Vec<String>>) {
    let Some(open) = tree.find('{') else {
        let mut path = base.to_vec();
        path.extend(segments(tree.split('@').next().unwrap_or(tree)));
        out.push(path);
        return;
    };
    let mut prefix = base.to_vec();
    prefix.extend(segments(&tree[..open]));
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                expand(&inner[start..i], &prefix, out);
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < inner.len() {
        expand(&inner[start..], &prefix, out);
    }
}
