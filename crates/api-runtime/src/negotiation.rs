//! Content negotiation (RFC 9110 §12.5.1) for a response the spec offers
//! in several media types: the layer sends the one the request's `Accept`
//! prefers among those it can write, and answers 406 before the handler
//! runs when it accepts none of them, so that nothing is done for a
//! caller that cannot read the answer.

use http::HeaderMap;

use crate::contract::Operation;
use crate::payload::essence;
use crate::problem::Problem;

/// What the request's `Accept` allows, read once per request.
#[derive(Debug, Clone, Default)]
pub struct Accepted {
    /// `None`: no `Accept` header, anything goes.
    ranges: Option<Vec<Range>>,
}

#[derive(Debug, Clone)]
struct Range {
    /// `type/subtype`, `type/*` or `*/*`, lower-cased.
    essence: String,
    /// The weight in thousandths (`q=0.5` is 500).
    weight: u16,
}

impl Accepted {
    pub fn from_headers(headers: &HeaderMap) -> Self {
        let mut values = headers.get_all(http::header::ACCEPT).iter().peekable();
        if values.peek().is_none() {
            return Accepted { ranges: None };
        }
        let ranges = values
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(parse_range)
            .collect();
        Accepted { ranges: Some(ranges) }
    }

    /// The media type to send a body as, among `primary` and
    /// `alternatives` (the ones the layer writes): the one `Accept` weighs
    /// highest (the spec's order breaks a tie), or `None` when it accepts
    /// none of them.
    pub fn choose(&self, primary: &'static str, alternatives: &'static [&'static str]) -> Option<&'static str> {
        let Some(ranges) = &self.ranges else {
            return Some(primary);
        };
        let mut best: Option<(u16, &'static str)> = None;
        for media_type in std::iter::once(primary).chain(alternatives.iter().copied()) {
            let weight = weight_of(ranges, &essence(media_type));
            if weight > 0 && best.is_none_or(|(w, _)| weight > w) {
                best = Some((weight, media_type));
            }
        }
        best.map(|(_, media_type)| media_type)
    }

    /// The media type to send a body as; `primary` when `Accept` allows
    /// none (`negotiate` has answered 406 before then).
    pub fn media_type(&self, primary: &'static str, alternatives: &'static [&'static str]) -> &'static str {
        self.choose(primary, alternatives).unwrap_or(primary)
    }
}

/// Reads `Accept` for `operation`, or gives the 406 problem when it
/// allows none of the media types a success response of the operation is
/// written in.
pub fn negotiate(operation: &'static Operation, headers: &HeaderMap) -> Result<Accepted, Problem> {
    let accepted = Accepted::from_headers(headers);
    for response in operation.responses {
        let Some(content) = &response.content else { continue };
        if accepted.choose(content.media_type, content.alternatives).is_none() {
            let offered: Vec<&str> = std::iter::once(content.media_type)
                .chain(content.alternatives.iter().copied())
                .collect();
            let accept: Vec<&str> = headers
                .get_all(http::header::ACCEPT)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .collect();
            return Err(Problem::new(
                "not_acceptable",
                format!(
                    "the {} response is written as {}, which `Accept: {}` does not allow",
                    response.status,
                    offered.join(" or "),
                    accept.join(", ")
                ),
            ));
        }
    }
    Ok(accepted)
}

/// One element of `Accept` (`text/html;level=1;q=0.5`); `None` for one
/// that is not a media range, which is ignored as if absent.
fn parse_range(element: &str) -> Option<Range> {
    let mut parts = element.split(';');
    let essence = parts.next()?.trim().to_ascii_lowercase();
    let (ty, subtype) = essence.split_once('/')?;
    if ty.is_empty() || subtype.is_empty() || (ty == "*" && subtype != "*") {
        return None;
    }
    let mut weight = 1000;
    for parameter in parts {
        if let Some((name, value)) = parameter.split_once('=')
            && name.trim().eq_ignore_ascii_case("q")
        {
            weight = parse_weight(value.trim())?;
        }
    }
    Some(Range { essence, weight })
}

/// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`.
fn parse_weight(text: &str) -> Option<u16> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if fraction.len() > 3 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let thousandths: u16 = format!("{fraction:0<3}").parse().ok()?;
    match whole {
        "0" => Some(thousandths),
        "1" if thousandths == 0 => Some(1000),
        _ => None,
    }
}

/// The weight the most specific matching range gives `essence` (0 when
/// none matches).
fn weight_of(ranges: &[Range], essence: &str) -> u16 {
    let ty = essence.split('/').next().unwrap_or_default();
    let specificity = |range: &Range| match range.essence.split_once('/') {
        _ if range.essence == essence => Some(2),
        Some((range_ty, "*")) if range_ty == ty => Some(1),
        Some(("*", "*")) => Some(0),
        _ => None,
    };
    ranges
        .iter()
        .filter_map(|range| specificity(range).map(|s| (s, range.weight)))
        .max_by_key(|(specificity, _)| *specificity)
        .map_or(0, |(_, weight)| weight)
}

#[cfg(test)]
mod tests {
    use super::*;
    const WRITTEN: (&str, &[&str]) = ("application/json", &["application/vnd.shop.estimate+json"]);

    fn accepted(values: &[&str]) -> Accepted {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append(http::header::ACCEPT, value.parse().unwrap());
        }
        Accepted::from_headers(&headers)
    }

    #[test]
    fn the_preferred_type_among_those_written_is_chosen() {
        assert_eq!(accepted(&[]).choose(WRITTEN.0, WRITTEN.1), Some("application/json"));
        assert_eq!(
            accepted(&["*/*"]).choose(WRITTEN.0, WRITTEN.1),
            Some("application/json")
        );
        assert_eq!(
            accepted(&["application/vnd.shop.estimate+json"]).choose(WRITTEN.0, WRITTEN.1),
            Some("application/vnd.shop.estimate+json")
        );
        assert_eq!(
            accepted(&["application/json;q=0.5, application/vnd.shop.estimate+json"]).choose(WRITTEN.0, WRITTEN.1),
            Some("application/vnd.shop.estimate+json")
        );
        assert_eq!(
            accepted(&["application/*;q=0.2", "Application/JSON"]).choose(WRITTEN.0, WRITTEN.1),
            Some("application/json"),
            "several Accept headers are one list; case does not matter"
        );
    }

    #[test]
    fn nothing_acceptable_is_none() {
        assert_eq!(accepted(&["application/xml"]).choose(WRITTEN.0, WRITTEN.1), None);
        assert_eq!(accepted(&["text/*"]).choose(WRITTEN.0, WRITTEN.1), None);
        assert_eq!(
            accepted(&["application/json;q=0, */*;q=0"]).choose(WRITTEN.0, WRITTEN.1),
            None,
            "q=0 refuses a type"
        );
        assert_eq!(
            accepted(&["*/*, application/json;q=0"]).choose(WRITTEN.0, WRITTEN.1),
            Some("application/vnd.shop.estimate+json"),
            "the most specific range decides"
        );
        // Malformed elements are ignored, as if absent.
        assert_eq!(
            accepted(&["nonsense, application/json;q=2"]).choose(WRITTEN.0, WRITTEN.1),
            None
        );
    }

    #[test]
    fn weights_are_read_as_rfc_9110_writes_them() {
        assert_eq!(parse_weight("1"), Some(1000));
        assert_eq!(parse_weight("1.000"), Some(1000));
        assert_eq!(parse_weight("0.5"), Some(500));
        assert_eq!(parse_weight("0.05"), Some(50));
        assert_eq!(parse_weight("0"), Some(0));
        for bad in ["1.5", "2", "0.1234", "-1", "x", ".5"] {
            assert_eq!(parse_weight(bad), None, "{bad}");
        }
    }
}
