//! A gate's message with its placeholders found when the policy is built, so a decision fills it
//! by copying its parts instead of scanning the text for braces.
//!
//! `{item}`, `{entry}`, `{detail}`, `{layer}` and `{index}` are filled from what the gate's
//! condition found; any other `{…}` is kept as written. Values are never read again, so a
//! placeholder the agent wrote into its input stays as written.

use super::gates::Hit;
use std::ops::Range;

/// A value a message can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Item,
    Entry,
    Layer,
    Detail,
    Index,
}

/// One part of a message: its own text (a byte range of it) or a value.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(Range<usize>),
    Field(Field),
}

/// A message and its parts, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MessageTemplate {
    text: String,
    parts: Vec<Part>,
}

impl MessageTemplate {
    /// Finds the placeholders of `text` in one pass. A `{` that opens no known placeholder is
    /// text, and the search goes on from the character after it (`{{item}` is `{` and an item).
    pub fn parse(text: &str) -> Self {
        let mut parts = Vec::new();
        let mut text_from = 0;
        let mut at = 0;
        let bytes = text.as_bytes();
        while let Some(open) = bytes.get(at..).and_then(|rest| rest.iter().position(|&b| b == b'{')).map(|i| at + i) {
            let name = text.get(open + 1..).and_then(|after| after.bytes().position(|b| b == b'}').and_then(|close| after.get(..close)));
            let field = match name {
                Some("item") => Some(Field::Item),
                Some("entry") => Some(Field::Entry),
                Some("layer") => Some(Field::Layer),
                Some("detail") => Some(Field::Detail),
                Some("index") => Some(Field::Index),
                _ => None,
            };
            match (field, name) {
                (Some(field), Some(name)) => {
                    if text_from < open {
                        parts.push(Part::Text(text_from..open));
                    }
                    parts.push(Part::Field(field));
                    at = open + name.len() + 2;
                    text_from = at;
                }
                _ => at = open + 1,
            }
        }
        if text_from < text.len() {
            parts.push(Part::Text(text_from..text.len()));
        }
        MessageTemplate { text: text.to_owned(), parts }
    }

    /// The message with each placeholder replaced by what `hit` found.
    pub fn fill(&self, hit: &Hit) -> String {
        let rule = hit.rule.as_deref();
        let mut out = String::with_capacity(self.text.len() + 64);
        for part in &self.parts {
            match part {
                Part::Text(range) => out.push_str(self.text.get(range.clone()).unwrap_or_default()),
                Part::Field(Field::Item) => out.push_str(hit.item.as_deref().unwrap_or_default()),
                Part::Field(Field::Entry) => out.push_str(rule.map_or("", |r| r.pattern.as_str())),
                Part::Field(Field::Layer) => out.push_str(rule.map_or("", |r| r.layer.as_str())),
                Part::Field(Field::Detail) => out.push_str(hit.detail.as_deref().unwrap_or_default()),
                Part::Field(Field::Index) => {
                    if let Some(r) = rule {
                        push_decimal(&mut out, r.index);
                    }
                }
            }
        }
        out
    }
}

/// Writes `n` in decimal, as `n.to_string()` would, without a string of its own (an allowlist
/// entry's index is in every "allowed" message).
fn push_decimal(out: &mut String, n: usize) {
    out.push_str(itoa::Buffer::new().format(n));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::rules::{ListKind, MatcherKind, RuleRef};
    use std::sync::Arc;

    fn hit(item: &str, detail: Option<&str>) -> Hit {
        let rule = RuleRef {
            layer: "user".into(),
            tool: "mcp".into(),
            list: ListKind::AlwaysAllow,
            index: 12,
            matcher: MatcherKind::Mcp,
            pattern: "github:*".into(),
        };
        Hit { item: Some(item.into()), rule: Some(Arc::new(rule)), detail: detail.map(str::to_owned) }
    }

    fn fill(template: &str, hit: &Hit) -> String {
        MessageTemplate::parse(template).fill(hit)
    }

    /// The parsed template, filled, against the plain chain of replacements, on templates whose
    /// values hold no braces.
    #[test]
    fn filling_a_template_equals_replacing_each_placeholder() {
        let plain = |template: &str, hit: &Hit| {
            let rule = hit.rule.as_deref();
            template
                .replace("{item}", hit.item.as_deref().unwrap_or_default())
                .replace("{entry}", rule.map_or("", |r| r.pattern.as_str()))
                .replace("{layer}", rule.map_or("", |r| r.layer.as_str()))
                .replace("{index}", &rule.map_or(String::new(), |r| r.index.to_string()))
                .replace("{detail}", hit.detail.as_deref().unwrap_or_default())
        };
        let pieces = ["{item}", "{entry}", "{layer}", "{index}", "{detail}", "{other}", "{", "}", "{{item}}", "text ", "é", ""];
        let mut next = crate::test_support::random_below(0x5eed_7e3a);
        for _ in 0..5000 {
            let template: String = (0..next(6)).map(|_| pieces[next(pieces.len())]).collect();
            let h = if next(2) == 0 { hit("git push", Some("why")) } else { Hit::default() };
            assert_eq!(fill(&template, &h), plain(&template, &h), "{template:?}");
        }
    }

    /// What the agent wrote is never read as a placeholder.
    #[test]
    fn placeholders_in_the_input_stay_as_written() {
        assert_eq!(fill("{item} via {entry}", &hit("{entry}{layer}", None)), "{entry}{layer} via github:*");
    }
}
