//! A Rust file's code as the tidy rules read it: comments, strings and
//! character literals blanked to spaces (newlines kept, so lines still
//! count), and the inline unit tests cut off. A leaf of `tidy/`.

/// `text`'s code before its inline unit tests, blanked ([`blanked`]).
pub(super) fn code_without_tests(text: &str) -> String {
    let mut code = blanked(text);
    if let Some(at) = code.find("#[cfg(test)]\nmod tests") {
        code.truncate(at);
    }
    code
}

/// `text` with every comment, string and character literal blanked to
/// spaces (newlines kept), so that only the code's own braces are left.
pub(super) fn blanked(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for byte in &mut out[from..to.min(bytes.len())] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    };
    let mut i = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        let after_word = i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        let end = if rest.starts_with("//") {
            rest.find('\n').map_or(text.len(), |e| i + e)
        } else if let Some(comment) = rest.strip_prefix("/*") {
            comment.find("*/").map_or(text.len(), |e| i + 2 + e + 2)
        } else if let Some(hashes) = raw_string_opening(rest).filter(|_| !after_word) {
            let opening = rest.find('"').unwrap() + 1;
            let closing = format!("\"{}", "#".repeat(hashes));
            rest[opening..]
                .find(&closing)
                .map_or(text.len(), |e| i + opening + e + closing.len())
        } else if bytes[i] == b'"' {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            j + 1
        } else if let Some(length) = char_literal(rest) {
            i + length
        } else {
            i += 1;
            continue;
        };
        blank(&mut out, i, end);
        i = end.max(i + 1);
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// How many `#` a raw string opening at the start of `text` has
/// (`r"`, `r#"`, `br##"`), if one opens there.
fn raw_string_opening(text: &str) -> Option<usize> {
    let rest = text.strip_prefix('b').unwrap_or(text).strip_prefix('r')?;
    let hashes = rest.len() - rest.trim_start_matches('#').len();
    rest[hashes..].starts_with('"').then_some(hashes)
}

/// The length of a character literal at the start of `text` (`'{'`,
/// `'\n'`, `'\u{7f}'`); `None` for a lifetime or a label.
fn char_literal(text: &str) -> Option<usize> {
    let rest = text.strip_prefix('\'')?;
    if let Some(escaped) = rest.strip_prefix('\\') {
        return escaped.find('\'').map(|e| e + 3);
    }
    let c = rest.chars().next()?;
    rest[c.len_utf8()..].starts_with('\'').then(|| c.len_utf8() + 2)
}
