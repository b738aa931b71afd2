//! Anchored literal patterns matched without a regex engine.
//!
//! Most rules users write — and every one the "Always allow" buttons write — are a literal
//! prefix: `^git\b`, `^cargo\s+build(\s|$)`, `^cmd\s+(push|publish)\b`, `^ls$`. Such a pattern is
//! read here into a short program of literals, literal alternatives, `\s`, `\s+`, `\b`, `$` and
//! `(\s|$)`, and run by a tiny backtracking matcher over the bytes. Anything else is left to
//! regex-lite. Semantics are regex-lite's, which are ASCII-only: `\s` is `[\t\n\x0B\x0C\r ]`, `\b`
//! is an ASCII word boundary, case folding is ASCII. A test compares the two on random inputs.
// Programs are read only by `RegexRule::new`, which a build without `analysis` does not have.
#![cfg_attr(not(feature = "analysis"), allow(dead_code))]

use std::borrow::Cow;

/// One step of a program. A literal borrows its bytes where it can: a suggestion's program
/// reads its words in place, with no copy per word.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step<'a> {
    /// These bytes, exactly (or ASCII-case-folded).
    Literal(Cow<'a, [u8]>),
    /// One of these literals.
    Either(Vec<Vec<u8>>),
    /// One ASCII whitespace byte.
    Space,
    /// One or more ASCII whitespace bytes.
    Spaces,
    /// An ASCII word boundary.
    Boundary,
    /// The end of the text.
    End,
    /// One whitespace byte, or the end of the text: `(\s|$)`.
    SpaceOrEnd,
}

/// A compiled anchored literal pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LiteralProgram<'a> {
    steps: Vec<Step<'a>>,
    case_sensitive: bool,
}

/// Longest program accepted; longer patterns are left to the regex engine.
const MAX_STEPS: usize = 32;

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ')
}

/// A literal character of a pattern: a plain ASCII character that is not a regex
/// metacharacter, or an escaped ASCII punctuation character.
fn literal_char(chars: &[u8], at: usize) -> Option<(u8, usize)> {
    let c = *chars.get(at)?;
    if c == b'\\' {
        // Any ASCII punctuation may be escaped, except `<` and `>`: `\<` and `\>` are word
        // assertions in the regex syntax, not literals.
        let next = *chars.get(at + 1)?;
        return (next.is_ascii_punctuation() && next != b'<' && next != b'>').then_some((next, 2));
    }
    let meta = matches!(c, b'.' | b'^' | b'$' | b'*' | b'+' | b'?' | b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'|' | b'\\');
    (c.is_ascii() && !c.is_ascii_control() && !meta).then_some((c, 1))
}

/// Whether the character after a literal run is a quantifier that would apply to its last character.
fn quantified(chars: &[u8], at: usize) -> bool {
    matches!(chars.get(at), Some(b'*' | b'+' | b'?' | b'{'))
}

impl<'a> LiteralProgram<'a> {
    /// Reads `pattern` as a literal program, or `None` when it is anything else.
    pub(crate) fn parse(pattern: &str, case_sensitive: bool) -> Option<LiteralProgram<'static>> {
        // Every step is ASCII, so a non-ASCII pattern is never one; an ASCII one is read by bytes.
        let body = pattern.strip_prefix('^').filter(|body| body.is_ascii())?;
        let chars = body.as_bytes();
        let mut steps = Vec::new();
        let mut at = 0;
        while at < chars.len() {
            if steps.len() >= MAX_STEPS {
                return None;
            }
            let rest = body.get(at..)?;
            // The multi-character tokens all start with `(` or `\`; a literal run needs no look-up.
            let special = matches!(chars.get(at), Some(b'(' | b'\\'));
            if let Some((step, width)) = special.then_some(()).and_then(|()| {
                [
                    (r"(\s|$)", Step::SpaceOrEnd),
                    (r"(?:\s|$)", Step::SpaceOrEnd),
                    (r"($|\s)", Step::SpaceOrEnd),
                    (r"(?:$|\s)", Step::SpaceOrEnd),
                    (r"\s+", Step::Spaces),
                    (r"\b", Step::Boundary),
                ]
                .into_iter()
                .find_map(|(token, step)| rest.starts_with(token).then_some((step, token.len())))
            }) {
                steps.push(step);
                at += width;
                continue;
            }
            if rest.starts_with(r"\s") {
                if quantified(chars, at + 2) {
                    return None;
                }
                steps.push(Step::Space);
                at += 2;
                continue;
            }
            if rest == "$" {
                steps.push(Step::End);
                at += 1;
                continue;
            }
            if let Some(group) = rest.strip_prefix("(?:").or_else(|| rest.strip_prefix('(')) {
                let close = group.find(')')?;
                let inner = group.get(..close)?;
                let mut options = Vec::new();
                for option in inner.split('|') {
                    let option = option.as_bytes();
                    let mut bytes = Vec::new();
                    let mut i = 0;
                    while i < option.len() {
                        let (b, width) = literal_char(option, i)?;
                        bytes.push(b);
                        i += width;
                    }
                    if bytes.is_empty() {
                        return None;
                    }
                    options.push(bytes);
                }
                at += rest.len() - group.len() + close + 1;
                if quantified(chars, at) {
                    return None;
                }
                steps.push(Step::Either(options));
                continue;
            }
            let mut bytes = Vec::new();
            while let Some((b, width)) = literal_char(chars, at) {
                if quantified(chars, at + width) {
                    return None;
                }
                bytes.push(b);
                at += width;
            }
            if bytes.is_empty() {
                return None;
            }
            steps.push(Step::Literal(Cow::Owned(bytes)));
        }
        Some(LiteralProgram { steps, case_sensitive })
    }

    /// The program of the pattern an "always allow" suggestion writes for these words —
    /// `^w\b` for one, `^w1\s+w2…\s+wn(\s|$)` for more, each word escaped — built from the words
    /// instead of read back from that text: what [`LiteralProgram::parse`] reads from it (a test in
    /// `suggest.rs` compares them). `None` where the reader would not take a word as literal
    /// characters (a non-ASCII or control character), or the program would be too long.
    pub(crate) fn command_prefix(words: &[&'a str]) -> Option<Self> {
        if words.is_empty() || 2 * words.len() > MAX_STEPS {
            return None;
        }
        let mut steps = Vec::with_capacity(2 * words.len());
        for (i, word) in words.iter().enumerate() {
            if word.is_empty() || !word.bytes().all(|b| b.is_ascii() && !b.is_ascii_control()) {
                return None;
            }
            steps.push(Step::Literal(Cow::Borrowed(word.as_bytes())));
            steps.push(match (i + 1 == words.len(), words.len()) {
                (false, _) => Step::Spaces,
                (true, 1) => Step::Boundary,
                (true, _) => Step::SpaceOrEnd,
            });
        }
        Some(LiteralProgram { steps, case_sensitive: false })
    }

    /// The words every match starts with, each followed by the end or a character that is no
    /// word character, so the text's leading word is one of them (the word index files the rule
    /// under each); empty when the program pins none.
    pub(crate) fn pinned_words(&self) -> Vec<String> {
        let Some((first, rest)) = self.steps.split_first() else { return Vec::new() };
        let options: Vec<&[u8]> = match first {
            Step::Literal(bytes) => vec![bytes.as_ref()],
            Step::Either(options) => options.iter().map(Vec::as_slice).collect(),
            _ => return Vec::new(),
        };
        let starts_non_word = |bytes: &[u8]| bytes.first().is_some_and(|b| !is_word(*b));
        let next_is_no_word = match rest.first() {
            Some(Step::Space | Step::Spaces | Step::Boundary | Step::End | Step::SpaceOrEnd) => true,
            Some(Step::Literal(bytes)) => starts_non_word(bytes),
            Some(Step::Either(options)) => options.iter().all(|option| starts_non_word(option)),
            None => false,
        };
        let mut words = Vec::with_capacity(options.len());
        for option in options {
            let len = option.iter().take_while(|b| is_word(**b)).count();
            let word = option.get(..len).and_then(|w| std::str::from_utf8(w).ok()).unwrap_or_default();
            if word.is_empty() || (len == option.len() && !next_is_no_word) {
                return Vec::new();
            }
            words.push(word.to_owned());
        }
        words
    }

    /// Whether the program matches at the start of `text`.
    pub(crate) fn is_match(&self, text: &str) -> bool {
        self.run(0, text.as_bytes(), 0)
    }

    fn literal_at(&self, text: &[u8], at: usize, literal: &[u8]) -> bool {
        text.get(at..at + literal.len()).is_some_and(|slice| {
            if self.case_sensitive {
                slice == literal
            } else {
                slice.eq_ignore_ascii_case(literal)
            }
        })
    }

    fn run(&self, step: usize, text: &[u8], at: usize) -> bool {
        let Some(current) = self.steps.get(step) else { return true };
        match current {
            Step::Literal(literal) => self.literal_at(text, at, literal) && self.run(step + 1, text, at + literal.len()),
            Step::Either(options) => {
                options.iter().any(|option| self.literal_at(text, at, option) && self.run(step + 1, text, at + option.len()))
            }
            Step::Space => text.get(at).is_some_and(|b| is_space(*b)) && self.run(step + 1, text, at + 1),
            Step::Spaces => {
                let run = text.get(at..).map_or(0, |rest| rest.iter().take_while(|b| is_space(**b)).count());
                (1..=run).rev().any(|n| self.run(step + 1, text, at + n))
            }
            Step::Boundary => {
                let before = at.checked_sub(1).and_then(|i| text.get(i)).is_some_and(|b| is_word(*b));
                let after = text.get(at).is_some_and(|b| is_word(*b));
                before != after && self.run(step + 1, text, at)
            }
            Step::End => at == text.len() && self.run(step + 1, text, at),
            Step::SpaceOrEnd => match text.get(at) {
                None => self.run(step + 1, text, at),
                Some(b) => is_space(*b) && self.run(step + 1, text, at + 1),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::rules::compile;

    #[test]
    fn reads_the_forms_users_and_buttons_write() {
        for pattern in [
            r"^git\b",
            r"^cargo\s+build(\s|$)",
            r"^cmd5\s+(push|publish)\b",
            r"^ls$",
            r"^ls(\s|$)",
            r"^git-lfs\s+pull(\s|$)",
            r"^PAGER=blah\s+git\s+log(\s|$)",
            r"^npm\s+run\s+test(?:\s|$)",
            r"^\./run\.sh\b",
            r"^src/",
            r"^make ",
        ] {
            assert!(LiteralProgram::parse(pattern, false).is_some(), "{pattern}");
        }
        for pattern in [
            r"^\<git", r"^git\>", r"git\b", r"^git.*", r"^gi?t", r"^(a|b)+", r"^a\s*b", r"^[ab]", r"^a|b", r"^x{2}", r"^\d", r"^(a|)b",
            r"^a\x41",
        ] {
            assert_eq!(LiteralProgram::parse(pattern, false), None, "{pattern}");
        }
    }

    /// The program and regex-lite agree on every pattern and text drawn from a small alphabet.
    #[test]
    fn agrees_with_the_regex_engine_on_random_inputs() {
        let patterns = [
            r"^git\b",
            r"^git\s+push\b",
            r"^cargo\s+build(\s|$)",
            r"^cmd\s+(push|publish)\b",
            r"^a(b|bc)\b",
            r"^ls$",
            r"^ls(\s|$)",
            r"^a\s\s+b",
            r"^a\s+\s+b$",
            r"^A-b_\.c\b",
            r"^x($|\s)y",
            r"^ab\b\s",
            r"^(?:ab|a)b$",
            r"^a b",
            r#"^\#\&\~\=\:\@\!\%\,\;\'\"\`\/\-\."#,
        ];
        let alphabet = [
            "a", "b", "c", "A", "B", "-", "_", ".", " ", "\t", "\n", "git", "push", "cargo", "build", "cmd", "publish", "ls", "x", "y",
            "é", "\u{a0}",
        ];
        let mut next = crate::test_support::random_below(0x9E37_79B9_7F4A_7C15);
        for pattern in patterns {
            for case_sensitive in [false, true] {
                let program = LiteralProgram::parse(pattern, case_sensitive).unwrap_or_else(|| panic!("{pattern}"));
                let regex = compile(pattern, case_sensitive).unwrap();
                for _ in 0..4000 {
                    let text: String = (0..next(7)).map(|_| alphabet[next(alphabet.len())]).collect();
                    assert_eq!(program.is_match(&text), regex.is_match(&text), "{pattern} cs={case_sensitive} on {text:?}");
                }
            }
        }
    }
}
