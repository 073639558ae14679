//! A refusal's class: its message without what names the one place (the
//! location, the names and numbers in backticks, the numbers), so that
//! the same refusal in a thousand operations of a hundred documents is one
//! row of the summary.

/// The classes of a refusal's reason. A reason may join several
/// (`refused at A: …; refused at B: …`); each is a class.
pub(super) fn classes(reason: &str) -> Vec<String> {
    let mut out: Vec<String> = reason
        .split("; refused at ")
        .map(|part| part.strip_prefix("refused at ").unwrap_or(part))
        .map(|part| class(without_location(part)))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The class of a message that may start with its location.
pub(super) fn class_of_message(message: &str) -> String {
    class(without_location(message))
}

/// The message after its location (`paths./a.get.parameters.0: …`). A
/// location has no `: `, a message may.
fn without_location(part: &str) -> &str {
    match part.split_once(": ") {
        Some((location, message)) if !location.contains(' ') || location.starts_with("line ") => message,
        _ => part,
    }
}

/// Backticked and quoted names become `…`, locations in the document
/// `LOCATION`, numbers `N`, and the message is cut at a length that keeps
/// rows on a line.
fn class(message: &str) -> String {
    let message: Vec<&str> = message
        .split(' ')
        .map(|word| {
            match ["paths.", "components.", "webhooks.", "#/"]
                .iter()
                .any(|p| word.starts_with(p))
            {
                true => "LOCATION",
                false => word,
            }
        })
        .collect();
    let message = message.join(" ");
    let mut out = String::with_capacity(message.len());
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '`' | '"' => {
                for inner in chars.by_ref() {
                    if inner == c {
                        break;
                    }
                }
                out.push(c);
                out.push('…');
                out.push(c);
            }
            c if c.is_ascii_digit() => {
                while chars.peek().is_some_and(|next| next.is_ascii_digit() || *next == '.') {
                    chars.next();
                }
                out.push('N');
            }
            c => out.push(c),
        }
    }
    const WIDTH: usize = 150;
    match out.char_indices().nth(WIDTH) {
        Some((at, _)) => format!("{}…", &out[..at]),
        None => out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_refusal_at_two_places_is_one_class() {
        let a = "refused at paths./a.get.responses.2XX: not mapped yet: the ranges `1XX`, `2XX` and `3XX`";
        let b = "refused at paths./b/{id}.put.responses.3XX: not mapped yet: the ranges `1XX`, `2XX` and `3XX`";
        assert_eq!(classes(a), classes(b));
        assert_eq!(classes(a), vec!["not mapped yet: the ranges `…`, `…` and `…`"]);
    }

    #[test]
    fn a_reason_joining_two_refusals_has_both_classes() {
        let reason = "refused at paths./a: `/a/` and `/a` are one path; refused at paths./a.get.parameters.7: \
                      `MaxResults` gives the same Rust name `max_results` as the parameter at paths./a.get.parameters.3";
        assert_eq!(
            classes(reason),
            vec![
                "`…` and `…` are one path",
                "`…` gives the same Rust name `…` as the parameter at LOCATION"
            ]
        );
    }

    #[test]
    fn a_message_without_a_location_is_its_own_class() {
        assert_eq!(class_of_message("the generator panicked"), "the generator panicked");
        assert_eq!(
            class_of_message("document: invalid YAML: line 3"),
            "invalid YAML: line N"
        );
    }
}
